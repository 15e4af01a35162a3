// Package rendertest checks a tool's render hooks against golden files: each
// case is drawn in every state it sets, condensed and full, at 80 and 120
// columns, into one readable file under the package's testdata/render/.
package rendertest

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/goldenfile"
	"github.com/mini-claude/mini-claude/internal/render"
	"github.com/mini-claude/mini-claude/internal/tool"
)

// Widths are the terminal widths every case is drawn at.
var Widths = []int{80, 120}

// Case is one call to draw: its input, and the states to draw it in.
type Case struct {
	Name  string
	Input string
	// Partial, when set, is a prefix of Input as it streams, drawn as the title.
	Partial string
	Queued  bool
	// Progress, when set, is drawn as the running state after Elapsed.
	Progress *tool.ProgressEvent
	Elapsed  time.Duration
	// Output, when not nil, is drawn as the result.
	Output   any
	Rejected bool
	// Error, when set, is drawn as the failure message.
	Error string
}

// Check draws c with t's renderer and compares it with
// testdata/render/<c.Name>.golden, rewriting the file with -update.
func Check(t *testing.T, tl tool.Tool, c Case) {
	t.Helper()
	goldenfile.Check(t, filepath.Join("testdata", "render", c.Name+".golden"), Draw(tl, c))
}

// Draw renders every state c sets, each under a header line naming the
// state, the width and whether it is full; lines wider than the width fail
// the check by showing a marker.
func Draw(tl tool.Tool, c Case) string {
	r := render.Of(tl)
	input := json.RawMessage(c.Input)
	var b strings.Builder
	if c.Partial != "" {
		fmt.Fprintf(&b, "== use, streaming\n%s(%s)\n", tl.Name(), r.RenderUse(json.RawMessage(c.Partial), true))
	}
	fmt.Fprintf(&b, "== use\n%s(%s)\n", tl.Name(), r.RenderUse(input, false))
	for _, width := range Widths {
		for _, full := range []bool{false, true} {
			o := tool.RenderOptions{Width: width, Full: full}
			label := fmt.Sprintf("%d columns", width)
			if full {
				label += ", full"
			}
			if c.Queued && !full {
				section(&b, "queued, "+label, r.RenderQueued(input, o), width)
			}
			if c.Progress != nil && !full {
				section(&b, "progress, "+label, r.RenderProgress(input, *c.Progress, c.Elapsed, o), width)
			}
			if c.Output != nil {
				section(&b, "result, "+label, r.RenderResult(input, c.Output, o), width)
			}
			if c.Rejected && !full {
				section(&b, "rejected, "+label, r.RenderRejected(input, o), width)
			}
			if c.Error != "" {
				section(&b, "error, "+label, r.RenderError(input, c.Error, o), width)
			}
		}
	}
	return b.String()
}

func section(b *strings.Builder, label string, text tool.Text, width int) {
	fmt.Fprintf(b, "== %s\n", label)
	for _, line := range text {
		s := line.String()
		if render.Clip(s, width) != s {
			s += "  <<< WIDER THAN " + fmt.Sprint(width)
		}
		b.WriteString(s + "\n")
	}
}

// CheckOutput fails t unless output marshals to want, with dir written as
// $DIR, and its slim form draws the same result (CheckSlim).
func CheckOutput(t *testing.T, tl tool.Tool, input json.RawMessage, output any, dir, want string) {
	t.Helper()
	got, err := json.Marshal(output)
	if err != nil {
		t.Fatal(err)
	}
	if s := strings.ReplaceAll(string(got), dir, "$DIR"); s != want {
		t.Errorf("output\n got %s\nwant %s", s, want)
	}
	CheckSlim(t, tl, input, output)
}

// CheckSlim fails t unless output is a tool.Slimmer whose slim output draws
// the same result as output itself, condensed and full, at every width.
func CheckSlim(t *testing.T, tl tool.Tool, input json.RawMessage, output any) {
	t.Helper()
	s, ok := output.(tool.Slimmer)
	if !ok {
		t.Fatalf("%T is not a tool.Slimmer", output)
	}
	slim := s.Slim()
	r := render.Of(tl)
	for _, width := range Widths {
		for _, full := range []bool{false, true} {
			o := tool.RenderOptions{Width: width, Full: full}
			if got, want := r.RenderResult(input, slim, o).String(), r.RenderResult(input, output, o).String(); got != want {
				t.Errorf("the slim output draws, at %d columns (full %v),\n%s\nwant\n%s", width, full, got, want)
			}
		}
	}
}

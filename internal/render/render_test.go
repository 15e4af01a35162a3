package render

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/patch"
	"github.com/mini-claude/mini-claude/internal/tool"
)

func TestClip(t *testing.T) {
	cases := []struct {
		in    string
		width int
		want  string
	}{
		{"hello", 0, "hello"},
		{"hello", 5, "hello"},
		{"hello world", 6, "hello…"},
		{"日本語テキスト", 5, "日本…"},
	}
	for _, c := range cases {
		if got := Clip(c.in, c.width); got != c.want {
			t.Errorf("Clip(%q, %d) = %q, want %q", c.in, c.width, got, c.want)
		}
	}
}

func TestDiffNumbersLinesAcrossHunks(t *testing.T) {
	before := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\n"
	after := "a\nB\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\n"
	hunks := patch.Compute(before, after)
	got := Diff("", hunks, tool.RenderOptions{Full: true}).String()
	want := "    1   a\n    2 + B\n    3   b\n    4   c\n    5   d\n   ⋮\n   10   i\n   11   j\n   12   k\n   12 - l\n"
	if got != want {
		t.Errorf("Diff =\n%s\nwant\n%s", got, want)
	}
	if s := DiffStat(hunks); s != "Added 1 line, removed 1 line" {
		t.Errorf("DiffStat = %q", s)
	}
}

func TestUpdateSummaryCountsAdditionsAndRemovals(t *testing.T) {
	tests := []struct{ before, after, want string }{
		{"a\nb\n", "a\nB\nc\n", "Updated /f with 2 additions and 1 removal"},
		{"a\n", "a\nb\n", "Updated /f with 1 addition"},
		{"a\nb\nc\n", "a\n", "Updated /f with 2 removals"},
		{"a\n", "a\n", "Updated /f with no changes"},
	}
	for _, tt := range tests {
		if got := UpdateSummary("/f", patch.Compute(tt.before, tt.after)); got != tt.want {
			t.Errorf("UpdateSummary(%q → %q) = %q, want %q", tt.before, tt.after, got, tt.want)
		}
	}
}

func TestGenericRendering(t *testing.T) {
	r := Generic()
	if got := r.RenderUse(json.RawMessage(`{"b":2,"a":"x`), true); got != `a: "x", b: 2` {
		t.Errorf("generic use = %q", got)
	}
	if got := r.RenderError(nil, "<tool_use_error>boom</tool_use_error>", tool.RenderOptions{}).String(); got != "boom\n" {
		t.Errorf("generic error = %q", got)
	}
}

func TestDiffColoursTheTextInTheFilesLanguage(t *testing.T) {
	before := "package main\n\nvar a = 1\n"
	after := "package main\n\nfunc f() string { return \"x\" }\n"
	got := Diff("main.go", patch.Compute(before, after), tool.RenderOptions{Full: true})
	if plain := Diff("", patch.Compute(before, after), tool.RenderOptions{Full: true}); got.String() != plain.String() {
		t.Fatalf("colouring changed the text:\n%s\nwant\n%s", got, plain)
	}
	colours := map[string]string{}
	for _, line := range got {
		for _, span := range line[2:] {
			colours[span.Text] = span.Color
			if mark := line[1].Style; span.Style != mark {
				t.Errorf("span %q of %q has style %d, its line's is %d", span.Text, line.String(), span.Style, mark)
			}
		}
	}
	if colours["func"] == "" || colours[`"x"`] == "" || colours["func"] == colours[`"x"`] {
		t.Errorf("keyword and string not coloured apart: %v", colours)
	}
}

func TestDiffKeepsCarriageReturnsAndUnknownLanguagesPlain(t *testing.T) {
	before := "package main\r\nvar a = 1\r\n"
	after := "package main\r\nvar a = 2\r\n"
	if got, plain := Diff("main.go", patch.Compute(before, after), tool.RenderOptions{}), Diff("", patch.Compute(before, after), tool.RenderOptions{}); got.String() != plain.String() {
		t.Errorf("CRLF text changed by colouring:\n%q\nwant\n%q", got.String(), plain.String())
	}
	for _, line := range Diff("notes.unknown-extension", patch.Compute("a\n", "b\n"), tool.RenderOptions{}) {
		for _, span := range line {
			if span.Color != "" {
				t.Errorf("a file of no known language got colour %s on %q", span.Color, span.Text)
			}
		}
	}
}

func TestCondensedDiffCountsTheHunksItDoesNotDraw(t *testing.T) {
	var before, after strings.Builder
	for i := range 200 {
		fmt.Fprintf(&before, "line %d\n", i)
		if i%20 == 0 {
			fmt.Fprintf(&after, "changed %d\n", i)
		} else {
			fmt.Fprintf(&after, "line %d\n", i)
		}
	}
	hunks := patch.Compute(before.String(), after.String())
	full := Diff("x.go", hunks, tool.RenderOptions{Full: true})
	condensed := Diff("x.go", hunks, tool.RenderOptions{})
	want := fmt.Sprintf("… +%d lines (ctrl+o to expand)", len(full)-diffCondensedLines)
	if last := condensed[len(condensed)-1].String(); last != want {
		t.Errorf("condensed diff ends %q, want %q", last, want)
	}
	if condensed[:diffCondensedLines].String() != full[:diffCondensedLines].String() {
		t.Error("the condensed diff's lines differ from the full diff's first lines")
	}
}

// BenchmarkDiffOfNewGoFile draws a Write creating a 2,000-line Go file, as
// the UI does once per width: condensed (the default) and full (Ctrl-O).
func BenchmarkDiffOfNewGoFile(b *testing.B) {
	var src strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&src, "func f%d(x int) string { return fmt.Sprint(x + %d) } // note\n", i, i)
	}
	hunks := patch.Compute("", src.String())
	for _, full := range []bool{false, true} {
		b.Run(fmt.Sprintf("full=%v", full), func(b *testing.B) {
			for b.Loop() {
				Diff("new.go", hunks, tool.RenderOptions{Width: 120, Full: full})
			}
		})
	}
}

type callInput struct {
	Path string `json:"path"`
}

// TestOfUsesTheToolsHooksAndTheGenericRenderingElsewhere: a tool's hooks draw
// the states they cover, the generic rendering the rest, and a tool without
// hooks (as an MCP tool) is drawn generically throughout.
func TestOfUsesTheToolsHooksAndTheGenericRenderingElsewhere(t *testing.T) {
	def := tool.Def[callInput, string]{
		Name: "Look", Description: "looks", MaxResultSizeChars: 100,
		IsReadOnly: tool.Always[callInput], IsConcurrencySafe: tool.Always[callInput],
		Call:      func(context.Context, callInput, *tool.Env, tool.Progress) (string, error) { return "", nil },
		RenderUse: func(in callInput) string { return "at " + in.Path },
		RenderResult: func(_ callInput, out string, _ tool.RenderOptions) tool.Text {
			return Styled("saw "+out, tool.StylePlain)
		},
	}
	look := tool.MustBuild(def)
	input := json.RawMessage(`{"path":"a.go"}`)
	r := Of(look)
	if got := r.RenderUse(input, false); got != "at a.go" {
		t.Errorf("use %q, want the hook's", got)
	}
	if got := r.RenderResult(input, "it", tool.RenderOptions{}).String(); got != "saw it\n" {
		t.Errorf("result %q, want the hook's", got)
	}
	if got, want := r.RenderResult(input, 42, tool.RenderOptions{}).String(), GenericResult(42, tool.RenderOptions{}).String(); got != want {
		t.Errorf("an output not the tool's drew %q, want the generic %q", got, want)
	}
	if got, want := r.RenderQueued(input, tool.RenderOptions{}).String(), Generic().RenderQueued(input, tool.RenderOptions{}).String(); got != want {
		t.Errorf("queued %q, want the generic %q", got, want)
	}
	if got := Of(opaque{look}).RenderUse(input, false); got != `path: "a.go"` {
		t.Errorf("a tool without hooks drew its use as %q, want the generic summary", got)
	}
}

// opaque hides its tool's methods beyond tool.Tool, as a tool not made by Build.
type opaque struct{ tool.Tool }

package tool

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/patch"
)

func TestCompletePartialJSON(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{"command":"ls -`, `{"command":"ls -"}`},
		{`{"a":[1,2`, `{"a":[1,2]}`},
		{`{"a":{"b":1},"c"`, `{"a":{"b":1}}`},
		{`{"a":"x\`, `{"a":"x"}`},
		{`{"a":"x"}`, `{"a":"x"}`},
		{`{"a":`, `{}`},
		{`{`, `{}`},
	}
	for _, c := range cases {
		got := string(CompletePartialJSON(json.RawMessage(c.in)))
		if got != c.want {
			t.Errorf("CompletePartialJSON(%s) = %s, want %s", c.in, got, c.want)
		}
	}
}

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
	got := Diff("", hunks, RenderOptions{Full: true}).String()
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

func TestRendererOfFallsBackToGeneric(t *testing.T) {
	r := GenericRenderer()
	if got := r.RenderUse(json.RawMessage(`{"b":2,"a":"x`), true); got != `a: "x", b: 2` {
		t.Errorf("generic use = %q", got)
	}
	if got := r.RenderError(nil, "<tool_use_error>boom</tool_use_error>", RenderOptions{}).String(); got != "boom\n" {
		t.Errorf("generic error = %q", got)
	}
}

// TestDecodeOutputFeedsTheResultHook stores an output as JSON, decodes it
// back into the tool's Out and renders it through the tool's own hook; JSON
// of another shape is refused, so the caller falls back to the generic rendering.
func TestDecodeOutputFeedsTheResultHook(t *testing.T) {
	type counted struct {
		Count int    `json:"count"`
		Path  string `json:"path,omitempty"`
	}
	counter := MustBuild(Def[sampleInput, counted]{
		Name: "Counter", Description: "counts", MaxResultSizeChars: 100,
		Call: func(context.Context, sampleInput, *Env, Progress) (counted, error) { return counted{}, nil },
		RenderResult: func(in sampleInput, out counted, _ RenderOptions) Text {
			return Styled(fmt.Sprintf("%d lines in %s", out.Count, in.FilePath), StylePlain)
		},
	})
	stored, err := json.Marshal(counted{Count: 3, Path: "a"})
	if err != nil {
		t.Fatal(err)
	}
	out, ok := DecodeOutput(counter, stored)
	if !ok || out != (counted{Count: 3, Path: "a"}) {
		t.Fatalf("DecodeOutput = %#v, %v; want the stored output", out, ok)
	}
	if got := RendererOf(counter).RenderResult(json.RawMessage(`{"file_path":"a.go"}`), out, RenderOptions{}).String(); got != "3 lines in a.go\n" {
		t.Errorf("the decoded output rendered as %q", got)
	}
	if out, ok := DecodeOutput(counter, json.RawMessage(`{"count":3,"path":"a","gitDiff":{"patch":""}}`)); !ok || out != (counted{Count: 3, Path: "a"}) {
		t.Errorf("an output with a field the tool does not know decoded as %#v, %v; want it, the field ignored", out, ok)
	}
	for _, bad := range []string{`{"lines":[]}`, `"Error: boom"`, `{"count":1} {"count":2}`, ``} {
		if out, ok := DecodeOutput(counter, json.RawMessage(bad)); ok {
			t.Errorf("DecodeOutput(%s) = %#v, want a refusal", bad, out)
		}
	}
	if _, ok := DecodeOutput(opaqueTool{counter}, stored); ok {
		t.Error("a tool without a decoder decoded an output")
	}
}

// opaqueTool hides its tool's methods beyond Tool, as a tool not made by Build.
type opaqueTool struct{ Tool }

func TestDiffColoursTheTextInTheFilesLanguage(t *testing.T) {
	before := "package main\n\nvar a = 1\n"
	after := "package main\n\nfunc f() string { return \"x\" }\n"
	got := Diff("main.go", patch.Compute(before, after), RenderOptions{Full: true})
	if plain := Diff("", patch.Compute(before, after), RenderOptions{Full: true}); got.String() != plain.String() {
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
	if got, plain := Diff("main.go", patch.Compute(before, after), RenderOptions{}), Diff("", patch.Compute(before, after), RenderOptions{}); got.String() != plain.String() {
		t.Errorf("CRLF text changed by colouring:\n%q\nwant\n%q", got.String(), plain.String())
	}
	for _, line := range Diff("notes.unknown-extension", patch.Compute("a\n", "b\n"), RenderOptions{}) {
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
	full := Diff("x.go", hunks, RenderOptions{Full: true})
	condensed := Diff("x.go", hunks, RenderOptions{})
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
				Diff("new.go", hunks, RenderOptions{Width: 120, Full: full})
			}
		})
	}
}

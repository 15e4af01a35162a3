package tool

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
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
	got := Diff("", before, after, 1, RenderOptions{Full: true}).String()
	want := "    1   a\n    2 + B\n    3   b\n    4   c\n    5   d\n   ⋮\n   10   i\n   11   j\n   12   k\n   12 - l\n"
	if got != want {
		t.Errorf("Diff =\n%s\nwant\n%s", got, want)
	}
	if s := DiffStat(before, after); s != "Added 1 line, removed 1 line" {
		t.Errorf("DiffStat = %q", s)
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

func TestDiffColoursTheTextInTheFilesLanguage(t *testing.T) {
	before := "package main\n\nvar a = 1\n"
	after := "package main\n\nfunc f() string { return \"x\" }\n"
	got := Diff("main.go", before, after, 1, RenderOptions{Full: true})
	if plain := Diff("", before, after, 1, RenderOptions{Full: true}); got.String() != plain.String() {
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
	if got, plain := Diff("main.go", before, after, 1, RenderOptions{}), Diff("", before, after, 1, RenderOptions{}); got.String() != plain.String() {
		t.Errorf("CRLF text changed by colouring:\n%q\nwant\n%q", got.String(), plain.String())
	}
	for _, line := range Diff("notes.unknown-extension", "a\n", "b\n", 1, RenderOptions{}) {
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
	full := Diff("x.go", before.String(), after.String(), 1, RenderOptions{Full: true})
	condensed := Diff("x.go", before.String(), after.String(), 1, RenderOptions{})
	want := fmt.Sprintf("… +%d lines (ctrl+o to expand)", len(full)-diffCondensedLines)
	if last := condensed[len(condensed)-1].String(); last != want {
		t.Errorf("condensed diff ends %q, want %q", last, want)
	}
	if condensed[:diffCondensedLines].String() != full[:diffCondensedLines].String() {
		t.Error("the condensed diff's lines differ from the full diff's first lines")
	}
}

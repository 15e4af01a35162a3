package highlight

import (
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
)

// joined is the text of each line of segments.
func joined(lines [][]Segment) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		for _, s := range l {
			out[i] += s.Text
		}
	}
	return out
}

func TestFileSegmentsReassembleTheSourceLineByLine(t *testing.T) {
	cases := []struct{ path, source string }{
		{"main.go", "package main\n\nimport \"fmt\"\n\n// main greets.\nfunc main() {\n\tfmt.Println(`raw\nstring`)\n}\n"},
		{"app.py", "def f(x):\n    \"\"\"Doc\n    string.\"\"\"\n    return x + 1\n"},
		{"index.ts", "export const n: number = 3;\n/* a\n b */\n"},
		{"lib.rs", "fn main() {\n    println!(\"hi\");\n}"},
		{"conf.yaml", "a: 1\nb:\n  - c\n"},
		{"run.sh", "#!/bin/bash\nfor f in *; do echo \"$f\"; done\n"},
		{"x.c", "int main(void) { return 0; }\n"},
		{"data.json", "{\"a\": [1, 2]}\n"},
	}
	for _, c := range cases {
		t.Run(c.path, func(t *testing.T) {
			lines := File(c.path, c.source)
			if lines == nil {
				t.Fatalf("no lexer chosen for %s", c.path)
			}
			want := strings.Split(c.source, "\n")
			got := joined(lines)
			if strings.Join(got, "\n") != strings.Join(want, "\n") || len(got) != len(want) {
				t.Errorf("lines = %q, want %q", got, want)
			}
		})
	}
}

func TestKeywordsStringsAndCommentsGetTheirStyleColours(t *testing.T) {
	lines := File("main.go", "package main\n// note\nvar s = \"x\"\nvar r = `raw`\n")
	colourOf := func(line int, text string) string {
		for _, s := range lines[line] {
			if s.Text == text {
				return s.Color
			}
		}
		t.Fatalf("line %d has no segment %q: %+v", line, text, lines[line])
		return ""
	}
	checks := []struct {
		line int
		text string
		typ  chroma.TokenType
	}{
		{0, "package", chroma.KeywordNamespace},
		{1, "// note", chroma.CommentSingle},
		{2, "var", chroma.KeywordDeclaration},
		{2, `"x"`, chroma.LiteralString},
		{3, "`raw`", chroma.LiteralString},
	}
	for _, c := range checks {
		if got, want := colourOf(c.line, c.text), tokenColour(c.typ); got != want || got == "" {
			t.Errorf("%q coloured %q, want %q (%s)", c.text, got, want, c.typ)
		}
	}
}

func TestLanguageChoosesByAliasOrName(t *testing.T) {
	for _, name := range []string{"python", "py", "Go", "bash", "typescript", "rust", "json"} {
		if Language(name, "x = 1\n") == nil {
			t.Errorf("Language(%q) chose no lexer", name)
		}
	}
	if Language("", "x") != nil {
		t.Error("an empty language name coloured the source")
	}
	if Language("no-such-language-at-all", "x") != nil {
		t.Error("an unknown language coloured the source")
	}
}

func TestUnknownOrOversizedSourcesStayPlain(t *testing.T) {
	if File("notes.unknown-extension", "hello") != nil {
		t.Error("a file of no known language was coloured")
	}
	if File("big.go", strings.Repeat("var x = 1\n", maxSource/10+1)) != nil {
		t.Error("a source over the limit was coloured")
	}
}

func TestALexerStuckOnEmptyTokensLeavesTheSourcePlain(t *testing.T) {
	if l := registry().Match("app.jungle"); l == nil || l.Config().Name != "Jungle" {
		t.Fatalf("app.jungle chose %v, want the Jungle lexer", l)
	}
	if File("app.jungle", "x = 1 # a\n<b>\"c\"</b>\n") != nil {
		t.Error("the stuck Jungle lexer's output was used")
	}
}

func TestEveryGeneratedDefinitionLoadsAndLexes(t *testing.T) {
	for i := range lexerIndex {
		l := &lazyLexer{entry: &lexerIndex[i], registry: registry()}
		lines := colour(l, "x = 1 # a\n<b>\"c\"</b>\n")
		if l.err != nil {
			t.Errorf("%s: %v", l.entry.config.Name, l.err)
		}
		if lines != nil && strings.Join(joined(lines), "\n") != "x = 1 # a\n<b>\"c\"</b>\n" {
			t.Errorf("%s lost text: %q", l.entry.config.Name, joined(lines))
		}
	}
}

package edit

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mini-claude/mini-claude/internal/tools/fileaccess"
)

func TestFindMatches(t *testing.T) {
	tests := []struct {
		name, content, old string
		want               []span
		grade              grade
	}{
		{"exact", "abc abc", "bc", []span{{1, 3}, {5, 7}}, exact},
		{"non-overlapping", "aaaa", "aa", []span{{0, 2}, {2, 4}}, exact},
		{"none", "abc", "x", nil, exact},
		{"empty old", "abc", "", nil, exact},
		{"LF against CRLF", "a\r\nb\r\n", "a\nb", []span{{0, 4}}, loose},
		{"CRLF against LF", "a\nb\n", "a\r\nb", []span{{0, 3}}, loose},
		{"a leading line break takes its CR", "x\r\ny\r\n\r\ny", "\ny", []span{{1, 4}, {6, 9}}, exact},
		{"straight against curly", "say “hi”", `"hi"`, []span{{4, 12}}, loose},
		{"curly against straight", "it's", "it’s", []span{{0, 4}}, loose},
		{"exact wins over loose", "'a' ‘a’", "'a'", []span{{0, 3}}, exact},
		{"trailing whitespace is not forgiven", "a  \nb", "a\nb", nil, exact},
		{"tabs are not spaces", "\tx", "    x", nil, exact},
		{"regexp characters are literal", "a.b(c)*", ".b(c)*", []span{{1, 7}}, exact},
		{"regexp characters with a quote", "f(\"x.*\")\r\n", "f(\"x.*\")\n", []span{{0, 10}}, loose},
	}
	for _, tt := range tests {
		spans, g := findMatches(tt.content, tt.old)
		if !reflect.DeepEqual(spans, tt.want) || (len(spans) > 0 && g != tt.grade) {
			t.Errorf("%s: findMatches(%q, %q) = %v grade %v, want %v grade %v", tt.name, tt.content, tt.old, spans, g, tt.want, tt.grade)
		}
	}
}

func TestReplaceQuoteStyle(t *testing.T) {
	tests := []struct {
		name, content, old, new, want string
	}{
		{"doubles turn curly", `He said “hi”.`, `said "hi"`, `said "bye"`, `He said “bye”.`},
		{"apostrophes and singles turn curly", `it’s ‘ok’`, `it's 'ok'`, `it's 'fine' now`, `it’s ‘fine’ now`},
		{"curly turns straight", `x = "a"`, `“a”`, `“b”`, `x = "b"`},
		{"quote after a bracket opens", `f(“a”)`, `f("a")`, `g("b")`, `g(“b”)`},
		{"a match holding one curly quote makes every straight one of its kind curly", "“a” \"b\" “a” \"b\"\n", "\"a\" \"b\" \"a\"", "\"c\" \"d\"", "“c” “d” \"b\"\n"},
		{"only a space, a line start or ([{—– opens", "say “a”", `say "a"`, `-"b" <"c"> ("d")` + "\n\"e\"", "-”b” <”c”> (“d”)\n“e”"},
		{"singles stay straight where the match has no curly single", "say “a”", `say "a"`, `say "it's"`, "say “it's”"},
		{"singles turn curly without one in old_string", "“a” it’s", `"a" it’s`, `"b" it's 'x'`, "“b” it’s ‘x’"},
	}
	for _, tt := range tests {
		spans, g := findMatches(tt.content, tt.old)
		if len(spans) != 1 {
			t.Fatalf("%s: %d matches", tt.name, len(spans))
		}
		got, _ := replace(tt.content, spans, tt.old, tt.new, g, "")
		if got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestClosest(t *testing.T) {
	lines := strings.Split("package x\n\nfunc a() {\n\treturn 1\n}\n\nfunc b() {\n\treturn 2\n}\n", "\n")
	tests := []struct {
		old  string
		want window
		ok   bool
	}{
		{"func b() {\n    return 2\n}", window{first: 6, count: 3, same: 3}, true},
		{"\n\nfunc b() {\n  return 3\n}\n\n", window{first: 6, count: 3, same: 2, similar: 1}, true},
		{"return  2", window{first: 7, count: 1, same: 1}, true},
		{"b() {\n\treturn 2", window{first: 6, count: 2, same: 2}, true},
		{"func c() {", window{first: 2, count: 1, similar: 1}, true},
		{"nothing\nlike\nthis", window{}, false},
		{"", window{}, false},
	}
	for _, tt := range tests {
		got, ok := closest(lines, significantLines(tt.old))
		if ok != tt.ok || (ok && got != tt.want) {
			t.Errorf("closest(%q) = %+v %v, want %+v %v", tt.old, got, ok, tt.want, tt.ok)
		}
	}
}

func TestEditDistance(t *testing.T) {
	tests := []struct {
		a, b  string
		limit int
		want  int
	}{
		{"kitten", "sitting", 5, 3},
		{"kitten", "sitting", 2, 3},
		{"", "abc", 5, 3},
		{"same", "same", 0, 0},
		{"return1", "return2", 1, 1},
	}
	for _, tt := range tests {
		if got := editDistance(tt.a, tt.b, tt.limit); got != tt.want {
			t.Errorf("editDistance(%q, %q, %d) = %d, want %d", tt.a, tt.b, tt.limit, got, tt.want)
		}
	}
}

// norm is what loose matching forgives: CRLF against LF, and quote styles.
func norm(s string) string {
	return lineKeyQuotes(strings.ReplaceAll(s, "\r\n", "\n"))
}

func lineKeyQuotes(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case strings.ContainsRune(singleQuotes, r):
			return '\''
		case strings.ContainsRune(doubleQuotes, r):
			return '"'
		}
		return r
	}, s)
}

func crlf(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }

// FuzzMatch checks the matcher's promises on arbitrary input: spans in order,
// in bounds and apart; exact matches are strings.Count's; a loose match differs
// from old_string only in line endings and quotes; an edit of a CRLF copy of a
// file is the CRLF copy of the same edit; and a miss explains itself without
// panicking.
func FuzzMatch(f *testing.F) {
	f.Add("a\nb\nc\n", "b\n", "B\n")
	f.Add("say “hi”\r\nok\r\n", "say \"hi\"\nok", "x")
	f.Add("it's\n", "it’s", "it’ll")
	f.Add("\t\tx  \n", "\tx\n", "y")
	f.Add("aaaa", "aa", "")
	f.Fuzz(func(t *testing.T, content, old, new string) {
		if !utf8.ValidString(content) || !utf8.ValidString(old) {
			t.Skip("the tool refuses files that are not UTF-8, and JSON strings are UTF-8")
		}
		spans, g := findMatches(content, old)
		last := 0
		for _, s := range spans {
			if s.start < last || s.end <= s.start || s.end > len(content) {
				t.Fatalf("bad span %v after %d in %d bytes", s, last, len(content))
			}
			last = s.end
			found := content[s.start:s.end]
			if g == exact && found != old && found != "\r"+old || g == loose && norm(found) != norm(old) {
				t.Fatalf("grade %d span %q does not match %q", g, found, old)
			}
		}
		if old != "" && strings.Contains(content, old) != (g == exact && len(spans) > 0) {
			t.Fatalf("exact grade %v with %d spans, but Contains says %v", g == exact, len(spans), strings.Contains(content, old))
		}
		if g == exact && len(spans) != strings.Count(content, old) && old != "" {
			t.Fatalf("%d exact spans, strings.Count says %d", len(spans), strings.Count(content, old))
		}
		if len(spans) == 0 {
			_ = notFound("f", content, old, false)
		} else {
			got, _ := replace(content, spans, old, new, g, "")
			if g == exact && !strings.Contains(content, "\r") && got != strings.ReplaceAll(content, old, new) {
				t.Fatalf("exact replace gave %q, want strings.ReplaceAll's", got)
			}
		}
		checkCRLFCopy(t, content, old, new)
	})
}

// checkCRLFCopy: for LF text without curly quotes, editing its CRLF copy finds
// the same matches and gives the CRLF copy of the LF edit.
func checkCRLFCopy(t *testing.T, content, old, new string) {
	if old == "" || strings.ContainsAny(content+old+new, "\r"+singleQuotes[1:]+doubleQuotes[1:]) || !strings.Contains(content, "\n") {
		return
	}
	spans, g := findMatches(crlf(content), old)
	if len(spans) != strings.Count(content, old) {
		t.Fatalf("CRLF copy: %d matches, the LF text has %d", len(spans), strings.Count(content, old))
	}
	if len(spans) == 0 {
		return
	}
	got, _ := replace(crlf(content), spans, old, new, g, fileaccess.LineEnding([]byte(crlf(content))))
	if want := crlf(strings.ReplaceAll(content, old, new)); got != want {
		t.Fatalf("CRLF copy edited to %q, want %q", got, want)
	}
}

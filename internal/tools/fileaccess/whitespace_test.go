package fileaccess

import "testing"

func TestTrimLineEnds(t *testing.T) {
	tests := []struct {
		name, path, text, want string
	}{
		{"spaces and tabs go from every line of a Python file", "a.py", "x = 1  \n\treturn x\t\n", "x = 1\n\treturn x\n"},
		{"the last line too, with no break after it", "a.go", "a \nb  ", "a\nb"},
		{"CRLF and a lone CR stay", "a.txt", "a \r\nb\t\rc \r\n", "a\r\nb\rc\r\n"},
		{"Unicode spaces and a byte-order mark go, U+0085 stays", "a.txt", "a\u00a0\u3000\nb\ufeff\nc\u0085\n", "a\nb\nc\u0085\n"},
		{"leading white space and blank lines stay", "a.txt", "  a\n\n\t\n  b", "  a\n\n\n  b"},
		{"Markdown keeps its trailing spaces", "README.md", "line  \nnext\t\n", "line  \nnext\t\n"},
		{"in any case, MDX too", "doc.MDX", "line  \n", "line  \n"},
		{".markdown is not Markdown to this rule", "notes.markdown", "line  \n", "line\n"},
		{"nothing to do", "a.txt", "", ""},
	}
	for _, tt := range tests {
		if got := TrimLineEnds(tt.path, tt.text); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
}

package fileaccess

import (
	"path/filepath"
	"strings"
	"unicode"
)

// TrimLineEnds returns text with the white space at the end of each of its
// lines removed, as Claude Code does to what Edit and Write put in a file,
// unless the file at path is Markdown (*.md or *.mdx, in any case), where two
// trailing spaces make a line break. The line breaks themselves (LF, CRLF or
// a lone CR) are kept.
func TrimLineEnds(path, text string) string {
	if ext := filepath.Ext(path); strings.EqualFold(ext, ".md") || strings.EqualFold(ext, ".mdx") {
		return text
	}
	var b strings.Builder
	b.Grow(len(text))
	for text != "" {
		end := strings.IndexAny(text, "\r\n")
		if end < 0 {
			end = len(text)
		}
		b.WriteString(strings.TrimRightFunc(text[:end], isTrailingSpace))
		text = text[end:]
		switch {
		case strings.HasPrefix(text, CRLF):
			b.WriteString(CRLF)
			text = text[2:]
		case text != "":
			b.WriteByte(text[0])
			text = text[1:]
		}
	}
	return b.String()
}

// isTrailingSpace is JavaScript's \s: Unicode white space and the byte-order
// mark, but not U+0085.
func isTrailingSpace(r rune) bool {
	return r == '\uFEFF' || (unicode.IsSpace(r) && r != '\u0085')
}

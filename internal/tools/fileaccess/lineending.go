package fileaccess

import (
	"bytes"
	"strings"
)

// The line endings the file tools keep when they change a file.
const (
	LF   = "\n"
	CRLF = "\r\n"
)

// LineEnding returns the line ending most lines of content end with: CRLF when
// more lines end in "\r\n" than in a bare "\n", LF when the bare form wins or
// ties, and "" when content has no line break at all.
func LineEnding(content []byte) string {
	total := bytes.Count(content, []byte(LF))
	if total == 0 {
		return ""
	}
	if crlf := bytes.Count(content, []byte(CRLF)); crlf > total-crlf {
		return CRLF
	}
	return LF
}

// ConvertLineEndings returns text with every line break, CRLF or bare LF,
// written as eol; an empty eol leaves text as it is.
func ConvertLineEndings(text, eol string) string {
	if eol == "" || !strings.Contains(text, LF) {
		return text
	}
	text = strings.ReplaceAll(text, CRLF, LF)
	if eol == LF {
		return text
	}
	return strings.ReplaceAll(text, LF, eol)
}

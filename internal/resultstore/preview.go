package resultstore

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Persisted describes a result stored on disk; String renders it for the model.
type Persisted struct {
	// Path is the file holding the result.
	Path string
	// Size is the size of the whole result in bytes; Stored is how much of it
	// the file holds, less than Size when a storage limit was reached.
	Size, Stored int64
	// Head and Tail are the first and last PreviewBytes or so, cut at line ends
	// where one is near; Tail is empty when Head shows all there is to show.
	Head, Tail string
}

// String renders the <persisted-output> block in Claude Code's words: the
// size, where the full output is, and a preview of its start and end.
func (p Persisted) String() string {
	var b strings.Builder
	b.WriteString("<persisted-output>\n")
	if p.Stored < p.Size {
		fmt.Fprintf(&b, "Output too large (%s). Only the first %s were saved, to: %s\n", FormatSize(p.Size), FormatSize(p.Stored), p.Path)
	} else {
		fmt.Fprintf(&b, "Output too large (%s). Full output saved to: %s\n", FormatSize(p.Size), p.Path)
	}
	if p.Tail == "" {
		fmt.Fprintf(&b, "Preview (first %s):\n%s\n", FormatSize(PreviewBytes), p.Head)
		if int64(len(p.Head)) < p.Size {
			b.WriteString("...\n")
		}
	} else {
		omitted := max(0, p.Size-int64(len(p.Head))-int64(len(p.Tail)))
		fmt.Fprintf(&b, "Preview (start and end):\n%s\n[… %s omitted …]\n%s\n", p.Head, FormatSize(omitted), strings.TrimRight(p.Tail, "\n"))
	}
	b.WriteString("</persisted-output>")
	return b.String()
}

// Preview returns the head and tail of text for a Persisted: the whole text
// as the head when both ends would overlap.
func Preview(text string) (head, tail string) {
	if len(text) <= 2*PreviewBytes {
		return text, ""
	}
	return Head(text, PreviewBytes), Tail(text, PreviewBytes)
}

// Head returns about the first n bytes of s: cut after the last newline
// within them when that keeps more than half, and never inside a character.
func Head(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	if nl := strings.LastIndexByte(s[:cut], '\n'); nl > n/2 {
		cut = nl
	}
	return s[:cut]
}

// Tail returns about the last n bytes of s: from just after the first newline
// within them when that keeps more than half, and never inside a character.
func Tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	start := len(s) - n
	for start < len(s) && !utf8.RuneStart(s[start]) {
		start++
	}
	if nl := strings.IndexByte(s[start:], '\n'); nl >= 0 && nl < n/2 {
		start += nl + 1
	}
	return s[start:]
}

// FormatSize renders a byte count as Claude Code does: "512 bytes", "45.2KB",
// "1.5MB", "2GB".
func FormatSize(n int64) string {
	kb := float64(n) / 1024
	switch {
	case kb < 1:
		return strconv.FormatInt(n, 10) + " bytes"
	case kb < 1024:
		return oneDecimal(kb) + "KB"
	case kb/1024 < 1024:
		return oneDecimal(kb/1024) + "MB"
	}
	return oneDecimal(kb/1024/1024) + "GB"
}

func oneDecimal(f float64) string {
	return strings.TrimSuffix(strconv.FormatFloat(f, 'f', 1, 64), ".0")
}

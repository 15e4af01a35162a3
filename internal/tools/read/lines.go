package read

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// lineReader splits a stream into lines the way Read numbers them: on LF, with
// the CR of a CRLF dropped, and a final LF followed by one more, empty, line
// (so "a\n" is two lines and "" is one). It never holds more of a line in
// memory than its caller asks to keep, so a file of any size, even one long
// line, is read in constant memory.
type lineReader struct {
	r *bufio.Reader
	// n is the number of the last line returned.
	n    int
	done bool
	kept []byte
}

func newLineReader(r io.Reader, bufSize int) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, bufSize)}
}

// next returns the next line, of which it keeps at most keep bytes, and the
// line's full length; ok is false once the last line has been returned. The
// kept bytes are valid until the next call.
func (lr *lineReader) next(keep int) (kept []byte, length int, ok bool, err error) {
	if lr.done {
		return nil, 0, false, nil
	}
	lr.kept = lr.kept[:0]
	var last byte
	for {
		chunk, err := lr.r.ReadSlice('\n')
		terminated := err == nil
		if terminated {
			chunk = chunk[:len(chunk)-1]
		}
		if room := keep - len(lr.kept); room > 0 {
			lr.kept = append(lr.kept, chunk[:min(room, len(chunk))]...)
		}
		length += len(chunk)
		if len(chunk) > 0 {
			last = chunk[len(chunk)-1]
		}
		switch {
		case terminated:
			if last == '\r' {
				length--
				lr.kept = lr.kept[:min(len(lr.kept), length)]
			}
			lr.n++
			return lr.kept, length, true, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			lr.done = true
			lr.n++
			return lr.kept, length, true, nil
		default:
			return nil, 0, false, err
		}
	}
}

// window is the part of a file a read asks for.
type window struct {
	// start is the first line number returned, from 1.
	start int
	// limit is the most lines returned; 0 means no limit.
	limit int
	// budget is the most bytes of numbered output ("N\tline\n" per line), or
	// with contentOnly of the lines' own text, numbers left uncounted.
	budget      int
	contentOnly bool
	// countAll keeps reading to the end after the window, to learn the
	// number of lines; only for input known to be small.
	countAll bool
}

// excerpt is the lines a read returns and what it learned of the file.
type excerpt struct {
	lines []string
	// total is the number of lines in the file, when the read reached its end.
	total int
	// next is the line to continue from when the budget cut the read short.
	next int
	// cutLength is the full length of the only line returned, when just its
	// beginning fit in the budget.
	cutLength int
	// invalidUTF8 says bytes that are not UTF-8 were shown as U+FFFD.
	invalidUTF8 bool
	// empty says the file has no content at all.
	empty bool
}

// size is the length of the excerpt's text, line breaks included.
func (ex excerpt) size() int {
	n := 0
	for _, l := range ex.lines {
		n += len(l) + 1
	}
	return n
}

// readWindow reads the lines of r that w selects, within w's budget.
func readWindow(ctx context.Context, r io.Reader, w window, bufSize int) (excerpt, error) {
	var ex excerpt
	lr := newLineReader(r, bufSize)
	remaining := w.budget
	for {
		if lr.n%4096 == 0 && ctx.Err() != nil {
			return excerpt{}, ctx.Err()
		}
		number := lr.n + 1
		wanted := number >= w.start && (w.limit == 0 || len(ex.lines) < w.limit) && ex.next == 0
		if !wanted && !(number < w.start || w.countAll) {
			break
		}
		overhead, keep := 0, 0
		if wanted {
			if !w.contentOnly {
				overhead = digits(number) + 2
			}
			keep = max(remaining-overhead, 0) + 1
		}
		raw, length, ok, err := lr.next(keep)
		if err != nil {
			return excerpt{}, fmt.Errorf("read line %d: %w", number, err)
		}
		if !ok {
			ex.total = lr.n
			break
		}
		if number == 1 && length == 0 && lr.done {
			ex.empty = true
		}
		if !wanted {
			continue
		}
		if length > len(raw) {
			raw = trimPartialRune(raw)
		}
		line, invalid := validUTF8(raw)
		ex.invalidUTF8 = ex.invalidUTF8 || invalid
		if length == len(raw) && len(line)+overhead <= remaining {
			ex.lines = append(ex.lines, line)
			remaining -= len(line) + overhead
			continue
		}
		if len(ex.lines) > 0 {
			ex.next = number
			continue
		}
		ex.lines = append(ex.lines, cutToRune(line, max(remaining-overhead, 0)))
		ex.cutLength = length
		if !lr.done {
			ex.next = number + 1
		}
	}
	if lr.done && ex.total == 0 {
		ex.total = lr.n
	}
	return ex, nil
}

// digits is the length of n in decimal.
func digits(n int) int {
	d := 1
	for ; n >= 10; n /= 10 {
		d++
	}
	return d
}

// validUTF8 returns b as a string with every byte that is not part of a UTF-8
// sequence replaced by U+FFFD, one for each byte as a browser's decoder does,
// and whether there were any.
func validUTF8(b []byte) (string, bool) {
	if utf8.Valid(b) {
		return string(b), false
	}
	var s strings.Builder
	s.Grow(len(b) + 8)
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size <= 1 {
			s.WriteRune(utf8.RuneError)
			size = 1
		} else {
			s.Write(b[:size])
		}
		b = b[size:]
	}
	return s.String(), true
}

// trimPartialRune drops a character cut off at the end of b, so a kept
// prefix of a long line does not end in bytes that look invalid.
func trimPartialRune(b []byte) []byte {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return b[:i]
			}
			return b
		}
	}
	return b
}

// cutToRune returns the longest prefix of s of at most n bytes that does not
// split a character.
func cutToRune(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// numbered formats lines the way Claude Code's Read shows them: each as
// "N<TAB>line", N counting from start, without padding, joined by LF.
func numbered(start int, lines []string) string {
	size := 0
	for _, l := range lines {
		size += len(l) + 12
	}
	var b bytes.Buffer
	b.Grow(size)
	for i, l := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(strconv.Itoa(start + i))
		b.WriteByte('\t')
		b.WriteString(l)
	}
	return b.String()
}

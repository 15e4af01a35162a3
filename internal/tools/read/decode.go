package read

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"unicode/utf16"
	"unicode/utf8"
)

// sniffSize is how much of a file's start is examined to tell text from binary.
const sniffSize = 8 << 10

// encoding is what the start of a file says about how to read it.
type encoding int

const (
	encUTF8 encoding = iota
	encUTF8BOM
	encUTF16LE
	encUTF16BE
	encBinary
)

// sniff tells text from binary by the first bytes of a file: a byte-order mark
// decides; otherwise a NUL byte, or a large share of bytes that are neither
// UTF-8 nor printable, means binary. Text in a legacy 8-bit encoding, with a
// few stray bytes, still counts as text.
func sniff(head []byte) encoding {
	switch {
	case bytes.HasPrefix(head, []byte{0xEF, 0xBB, 0xBF}):
		return encUTF8BOM
	case bytes.HasPrefix(head, []byte{0xFF, 0xFE}):
		return encUTF16LE
	case bytes.HasPrefix(head, []byte{0xFE, 0xFF}):
		return encUTF16BE
	case bytes.IndexByte(head, 0) >= 0:
		return encBinary
	}
	odd := 0
	for b := head; len(b) > 0; {
		r, size := utf8.DecodeRune(b)
		switch {
		case r == utf8.RuneError && size <= 1:
			if !utf8.FullRune(b) {
				b = nil
				continue
			}
			odd++
			size = 1
		case r < 0x20 && !isTextControl(r):
			odd++
		}
		b = b[size:]
	}
	if odd*10 > len(head)*3 {
		return encBinary
	}
	return encUTF8
}

// isTextControl reports whether r is a control character that text files use.
func isTextControl(r rune) bool {
	switch r {
	case '\t', '\n', '\r', '\f', '\v', '\b', 0x1B:
		return true
	}
	return false
}

// textReader returns a reader of the file's text as UTF-8, from a buffered
// reader positioned at its start, with any byte-order mark dropped.
func textReader(br *bufio.Reader, enc encoding) io.Reader {
	switch enc {
	case encUTF8BOM:
		br.Discard(3)
	case encUTF16LE:
		br.Discard(2)
		return &utf16Reader{r: br, order: binary.LittleEndian}
	case encUTF16BE:
		br.Discard(2)
		return &utf16Reader{r: br, order: binary.BigEndian}
	}
	return br
}

// utf16Reader decodes a UTF-16 stream to UTF-8; unpaired surrogates and a
// trailing odd byte become U+FFFD.
type utf16Reader struct {
	r       *bufio.Reader
	order   binary.ByteOrder
	pending []byte
	out     [8]byte
}

func (u *utf16Reader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if len(u.pending) > 0 {
			c := copy(p[n:], u.pending)
			u.pending = u.pending[c:]
			n += c
			continue
		}
		r, err := u.readRune()
		if err != nil {
			if n > 0 && errors.Is(err, io.EOF) {
				return n, nil
			}
			return n, err
		}
		u.pending = utf8.AppendRune(u.out[:0], r)
	}
	return n, nil
}

func (u *utf16Reader) readRune() (rune, error) {
	unit, err := u.readUnit()
	if err != nil {
		return 0, err
	}
	if !utf16.IsSurrogate(unit) {
		return unit, nil
	}
	peek, err := u.r.Peek(2)
	if err != nil {
		return utf8.RuneError, nil
	}
	second := rune(u.order.Uint16(peek))
	if r := utf16.DecodeRune(unit, second); r != utf8.RuneError {
		u.r.Discard(2)
		return r, nil
	}
	return utf8.RuneError, nil
}

func (u *utf16Reader) readUnit() (rune, error) {
	var b [2]byte
	n, err := io.ReadFull(u.r, b[:])
	switch {
	case n == 1:
		return utf8.RuneError, nil
	case err != nil:
		return 0, err
	}
	return rune(u.order.Uint16(b[:])), nil
}

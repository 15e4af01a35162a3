package grep

import (
	"bytes"
	"cmp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Claude Code is JavaScript: it orders strings by UTF-16 code units, breaks
// ties between files of the same age with localeCompare, decodes bytes with
// the WHATWG UTF-8 decoder and measures line lengths in UTF-16 code units.
// These helpers reproduce that, so both search backends print what it prints.

// compareUTF16 orders strings as JavaScript's < does.
func compareUTF16(a, b string) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	if i == len(a) || i == len(b) || (a[i] < utf8.RuneSelf && b[i] < utf8.RuneSelf) {
		return strings.Compare(a[i:], b[i:])
	}
	for i > 0 && !utf8.RuneStart(a[i]) {
		i--
	}
	a, b = a[i:], b[i:]
	for a != "" && b != "" {
		ra, na := utf8.DecodeRuneInString(a)
		rb, nb := utf8.DecodeRuneInString(b)
		if ra != rb {
			ua, ub := firstUnit(ra), firstUnit(rb)
			if ua != ub {
				return int(ua) - int(ub)
			}
			return int(ra) - int(rb)
		}
		a, b = a[na:], b[nb:]
	}
	return len(a) - len(b)
}

func firstUnit(r rune) rune {
	if r >= 0x10000 {
		hi, _ := utf16.EncodeRune(r)
		return hi
	}
	return r
}

// utf16Len is the length of s in UTF-16 code units, JavaScript's .length.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}

// decodeUTF8 turns bytes into text the way the WHATWG decoder (Node's
// Buffer.toString) does: each maximal invalid subsequence becomes one U+FFFD.
func decodeUTF8(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	var out strings.Builder
	out.Grow(len(b) + 8)
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r != utf8.RuneError || n > 1 {
			out.WriteRune(r)
			i += n
			continue
		}
		out.WriteRune(utf8.RuneError)
		i += invalidPrefix(b[i:])
	}
	return out.String()
}

// invalidPrefix returns the length of the maximal subpart of an ill-formed
// sequence at the start of b (at least 1): the lead byte and the continuation
// bytes that were valid so far.
func invalidPrefix(b []byte) int {
	lead := b[0]
	var need int
	lo, hi := byte(0x80), byte(0xBF)
	switch {
	case lead >= 0xC2 && lead <= 0xDF:
		need = 1
	case lead >= 0xE0 && lead <= 0xEF:
		need = 2
		if lead == 0xE0 {
			lo = 0xA0
		} else if lead == 0xED {
			hi = 0x9F
		}
	case lead >= 0xF0 && lead <= 0xF4:
		need = 3
		if lead == 0xF0 {
			lo = 0x90
		} else if lead == 0xF4 {
			hi = 0x8F
		}
	default:
		return 1
	}
	n := 1
	for ; n <= need && n < len(b); n++ {
		if b[n] < lo || b[n] > hi {
			break
		}
		lo, hi = 0x80, 0xBF
	}
	return n
}

// collationOrder is the CLDR root collation order of printable ASCII at the
// primary level (letters case-blind), as ICU's localeCompare sorts it.
const collationOrder = " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$0123456789abcdefghijklmnopqrstuvwxyz"

var primaryWeight = func() [128]int {
	var w [128]int
	for i := range w {
		w[i] = i - 128 // control characters first
	}
	for i := 0; i < len(collationOrder); i++ {
		w[collationOrder[i]] = i + 1
		if c := collationOrder[i]; c >= 'a' && c <= 'z' {
			w[c-'a'+'A'] = i + 1
		}
	}
	return w
}()

// Base letters of the accented Latin letters U+00C0-U+00FF and
// U+0100-U+017F ('?' for none): ICU gives é the primary weight of e.
const (
	latin1Bases   = "AAAAAA?CEEEEIIIIDNOOOOO?OUUUUY??aaaaaa?ceeeeiiiidnooooo?ouuuuy?y"
	latinExtBases = "AaAaAaCcCcCcCcDdDdEeEeEeEeEeGgGgGgGgHhHhIiIiIiIiIi??JjKkkLlLlLlLlLlNnNnNnnNnOoOoOo??RrRrRrSsSsSsSsTtTtTtUuUuUuUuUuUuWwYyYZzZzZzs"
)

// element is a character's collation weights: primary (the letter),
// secondary (the accent) and tertiary (the case).
type element struct {
	primary, secondary int
	upper              bool
}

func collationElement(r rune) element {
	e := element{upper: unicode.IsUpper(r)}
	base := byte('?')
	switch {
	case r < 128:
		e.primary = primaryWeight[r]
		return e
	case r >= 0xC0 && r <= 0xFF:
		base = latin1Bases[r-0xC0]
	case r >= 0x100 && r <= 0x17F:
		base = latinExtBases[r-0x100]
	}
	if base == '?' {
		e.primary = 0x10000 + int(unicode.ToLower(r))
		return e
	}
	e.primary, e.secondary = primaryWeight[base], int(r)
	return e
}

// sortByCollation sorts items by localeCompare of their keys, then by
// JavaScript's <, with each collation key computed once.
func sortByCollation[T any](items []T, key func(T) string) {
	type keyed struct {
		item      T
		collation []byte
		raw       string
	}
	all := make([]keyed, len(items))
	for i, item := range items {
		k := key(item)
		all[i] = keyed{item: item, collation: collationKey(k), raw: k}
	}
	slices.SortStableFunc(all, func(a, b keyed) int {
		return cmp.Or(bytes.Compare(a.collation, b.collation), compareUTF16(a.raw, b.raw))
	})
	for i := range all {
		items[i] = all[i].item
	}
}

// collationKey is a byte string whose order is localeCompare's: the primary
// weights, then the secondary, then the tertiary, each level ended by a zero
// that sorts before any weight, so a prefix sorts first.
func collationKey(s string) []byte {
	elems := elements(s)
	key := make([]byte, 0, 7*len(elems)+8)
	for _, e := range elems {
		w := e.primary + 0x200
		key = append(key, byte(w>>16), byte(w>>8), byte(w))
	}
	key = append(key, 0, 0, 0)
	for _, e := range elems {
		w := e.secondary + 1
		key = append(key, byte(w>>16), byte(w>>8), byte(w))
	}
	key = append(key, 0, 0, 0)
	for _, e := range elems {
		key = append(key, 1+boolByte(e.upper))
	}
	return key
}

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// localeCompare approximates ICU's root collation, which Claude Code's sort
// uses for files of the same age: first the letters, with punctuation before
// digits before letters and case ignored (accented Latin letters count as
// their base letter); then the accents; then the case, lower before upper.
// Other characters sort after ASCII by code point.
func localeCompare(a, b string) int {
	ea, eb := elements(a), elements(b)
	for level := range 3 {
		for i := 0; i < len(ea) && i < len(eb); i++ {
			if c := compareLevel(ea[i], eb[i], level); c != 0 {
				return c
			}
		}
		if len(ea) != len(eb) {
			return len(ea) - len(eb)
		}
	}
	return 0
}

func elements(s string) []element {
	out := make([]element, 0, len(s))
	for _, r := range s {
		out = append(out, collationElement(r))
	}
	return out
}

func compareLevel(a, b element, level int) int {
	switch level {
	case 0:
		return a.primary - b.primary
	case 1:
		return a.secondary - b.secondary
	}
	switch {
	case a.upper == b.upper:
		return 0
	case a.upper:
		return 1
	}
	return -1
}

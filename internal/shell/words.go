package shell

import (
	"fmt"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// word is one shell word as the analysis sees it: its value after quote
// removal when that is known statically, or its source text when it is not.
type word struct {
	text    string
	dynamic bool
	// mayBeOption is set when expansion could turn the word into an option
	// or into several words: it starts with an expansion or a glob, or holds
	// an unquoted expansion that word splitting could break up.
	mayBeOption bool
	// globs are the patterns of a dynamic word whose only expansions are
	// globs and brace lists (see globPatterns); nil for any other word.
	globs []string
	span  Span
}

// literal evaluates w: quote removal, backslash escapes and ANSI-C quoting are
// applied; anything that expands at run time (parameters, substitutions,
// arithmetic, unquoted globs and brace lists) makes the word dynamic, and
// then its text is the source as written.
func (w *walker) literal(wd *syntax.Word) word {
	sp := w.span(wd)
	parts := bracesSplit(wd)
	// first is the index of the first part that expands, head the static
	// start of that part; expands is set by an expansion other than a glob or
	// brace list.
	first, splits, expands := -1, false, false
	var head syntax.WordPart
	for i, part := range parts {
		var start syntax.WordPart
		switch p := part.(type) {
		case *syntax.Lit:
			at := unquotedExpansionAt(p.Value, len(wd.Parts) > 1)
			if at < 0 {
				continue
			}
			start = &syntax.Lit{Value: p.Value[:at]}
		case *syntax.SglQuoted:
			continue
		case *syntax.DblQuoted:
			at := slices.IndexFunc(p.Parts, func(inner syntax.WordPart) bool {
				_, ok := inner.(*syntax.Lit)
				return !ok
			})
			if at < 0 {
				continue
			}
			start, expands = &syntax.DblQuoted{Parts: p.Parts[:at]}, true
		case *syntax.BraceExp:
		case *syntax.ProcSubst:
			expands = true
		default:
			splits, expands = true, true
		}
		if first < 0 {
			first, head = i, start
		}
	}
	if first < 0 {
		if value, ok := quoteRemoved(parts); ok {
			return word{text: value, span: sp}
		}
		return word{text: w.text(sp), dynamic: true, mayBeOption: true, span: sp}
	}
	static := slices.Clip(parts[:first])
	if head != nil {
		static = append(static, head)
	}
	prefix, ok := quoteRemoved(static)
	mayBeOption := splits || !ok || prefix == "" || strings.HasPrefix(prefix, "-")
	out := word{text: w.text(sp), dynamic: true, mayBeOption: mayBeOption, span: sp}
	if !expands {
		out.globs = globPatterns(wd)
	}
	return out
}

// quoteRemoved is the value bash gives a word made of parts that expand
// nothing (literal text, quotes, $'...'), as expand.Fields computes it with
// an empty configuration, which reads no variable, runs nothing and lists no
// folder. A leading empty quoted part keeps a leading ~ as written (the
// consumer expands it) rather than having expand look a user up. ok is false
// when expand does not make the parts one word. A lone literal without a
// backslash, most words, is its own value.
func quoteRemoved(parts []syntax.WordPart) (value string, ok bool) {
	if len(parts) == 1 {
		if lit, isLit := parts[0].(*syntax.Lit); isLit && !strings.Contains(lit.Value, `\`) {
			return lit.Value, true
		}
	}
	wd := &syntax.Word{Parts: make([]syntax.WordPart, 0, len(parts)+1)}
	wd.Parts = append(wd.Parts, &syntax.SglQuoted{})
	for _, part := range parts {
		if sq, isSgl := part.(*syntax.SglQuoted); isSgl && sq.Dollar {
			part = &syntax.SglQuoted{Dollar: true, Value: ansiCForFormat(sq.Value)}
		}
		wd.Parts = append(wd.Parts, part)
	}
	fields, err := expand.Fields(&expand.Config{}, wd)
	if err != nil || len(fields) != 1 {
		return "", false
	}
	return fields[0], true
}

// bracesSplit returns the parts of wd with its brace lists and sequences as
// *syntax.BraceExp parts when it has any. A brace list may be written across
// quoted parts ({"a",b}), which bash expands as well, so the whole word is
// split, not one literal at a time; without one the parts are wd's own.
func bracesSplit(wd *syntax.Word) []syntax.WordPart {
	split := *wd
	if syntax.SplitBraces(&split) && slices.ContainsFunc(split.Parts, func(p syntax.WordPart) bool {
		_, ok := p.(*syntax.BraceExp)
		return ok
	}) {
		return split.Parts
	}
	return wd.Parts
}

// unquotedExpansionAt returns the index of the first character of an
// unquoted literal that the shell would expand (an unescaped glob
// character or a brace list or sequence), or -1. A lone "[" or "[[" word is
// the test command, no glob.
func unquotedExpansionAt(s string, partOfLargerWord bool) int {
	if !partOfLargerWord && (s == "[" || s == "[[") {
		return -1
	}
	braceOpen := -1
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '*', '?', '[':
			return i
		case '{':
			braceOpen = i
		case ',':
			if braceOpen >= 0 {
				return braceOpen
			}
		case '.':
			if braceOpen >= 0 && i+1 < len(s) && s[i+1] == '.' {
				return braceOpen
			}
		case '}':
			braceOpen = -1
		}
	}
	return -1
}

// ansiCForFormat rewrites the body of a $'...' string so that expand.Format
// reads it as bash (in a UTF-8 locale) does. Format keeps \cX as written,
// makes an octal escape above \377 the byte 0xff and a \u or \U escape that
// is no Unicode character U+FFFD; bash makes the control character of X (\c?
// is DEL, \c\\ takes both backslashes), keeps the low eight bits of an octal
// value and writes any code point as its long UTF-8 form, or nothing from
// 0x80000000 on. Those escapes become the \xHH escapes of bash's bytes; at a
// NUL, expand cuts the string as bash does.
func ansiCForFormat(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			sb.WriteByte(s[i])
			continue
		}
		i++
		var bytes []byte
		switch c := s[i]; {
		case c == 'c' && i+1 < len(s):
			i++
			x := s[i]
			if x == '\\' && i+1 < len(s) && s[i+1] == '\\' {
				i++
			}
			bytes = []byte{x & 0x1f}
			if x == '?' {
				bytes[0] = 0x7f
			}
		case c >= '0' && c <= '7':
			v, n := leadingDigits(s[i:], 8, 3)
			bytes = []byte{byte(v)}
			i += n - 1
		case c == 'u' || c == 'U':
			most := 4
			if c == 'U' {
				most = 8
			}
			v, n := leadingDigits(s[i+1:], 16, most)
			if n == 0 {
				sb.WriteString(s[i-1 : i+1])
				continue
			}
			bytes = longUTF8(v)
			i += n
		default:
			sb.WriteString(s[i-1 : i+1])
			continue
		}
		for _, b := range bytes {
			fmt.Fprintf(&sb, `\x%02x`, b)
		}
	}
	return sb.String()
}

// leadingDigits reads up to most digits of base 8 or 16 from the start of s
// and returns their value and how many there were.
func leadingDigits(s string, base, most int) (value uint32, n int) {
	for ; n < most && n < len(s); n++ {
		d := strings.IndexByte("0123456789abcdefABCDEF", s[n])
		if d >= 16 {
			d -= 6
		}
		if d < 0 || d >= base {
			break
		}
		value = value*uint32(base) + uint32(d)
	}
	return value, n
}

// longUTF8 encodes a code point as bash does: in UTF-8 extended to the
// surrogates and to the five- and six-byte forms, and as nothing from
// 0x80000000 on.
func longUTF8(v uint32) []byte {
	switch {
	case v < 0x80:
		return []byte{byte(v)}
	case v >= 0x80000000:
		return nil
	}
	n := 2
	for limit := uint32(0x800); v >= limit; limit <<= 5 {
		n++
	}
	out := make([]byte, n)
	for k := n - 1; k > 0; k-- {
		out[k] = 0x80 | byte(v&0x3f)
		v >>= 6
	}
	out[0] = byte(0xff<<(8-n)) | byte(v)
	return out
}

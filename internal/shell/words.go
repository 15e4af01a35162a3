package shell

import (
	"slices"
	"strings"

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
	var sb strings.Builder
	// expands is set by an expansion other than a glob or brace list.
	dynamic, splits, expands := false, false, false
	staticPrefix := ""
	markDynamic := func() {
		if !dynamic {
			staticPrefix = sb.String()
		}
		dynamic = true
	}
	for _, part := range bracesSplit(wd) {
		switch p := part.(type) {
		case *syntax.BraceExp:
			markDynamic()
		case *syntax.Lit:
			if at := unquotedExpansionAt(p.Value, len(wd.Parts) > 1); at >= 0 {
				sb.WriteString(unescapeUnquoted(p.Value[:at]))
				markDynamic()
				continue
			}
			sb.WriteString(unescapeUnquoted(p.Value))
		case *syntax.SglQuoted:
			if p.Dollar {
				sb.WriteString(ansiC(p.Value))
			} else {
				sb.WriteString(p.Value)
			}
		case *syntax.DblQuoted:
			for _, inner := range p.Parts {
				lit, ok := inner.(*syntax.Lit)
				if !ok {
					markDynamic()
					expands = true
					continue
				}
				sb.WriteString(unescapeDoubleQuoted(lit.Value))
			}
		case *syntax.ProcSubst:
			markDynamic()
			expands = true
		default:
			markDynamic()
			splits, expands = true, true
		}
	}
	if dynamic {
		mayBeOption := splits || staticPrefix == "" || strings.HasPrefix(staticPrefix, "-")
		out := word{text: w.text(sp), dynamic: true, mayBeOption: mayBeOption, span: sp}
		if !expands {
			out.globs = globPatterns(wd)
		}
		return out
	}
	return word{text: sb.String(), span: sp}
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

// unescapeUnquoted removes the backslashes of an unquoted literal: "\x" is
// "x" and a backslash-newline disappears.
func unescapeUnquoted(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		sb.WriteByte(s[i])
	}
	return sb.String()
}

// unescapeDoubleQuoted removes the backslashes that are special inside
// double quotes: before $, `, ", \ and newline.
func unescapeDoubleQuoted(s string) string { return unescapeBefore(s, "$`\"\\\n") }

// unescapeHeredoc removes the backslashes that are special in a
// here-document with an unquoted delimiter: before $, `, \ and newline.
func unescapeHeredoc(s string) string { return unescapeBefore(s, "$`\\\n") }

func unescapeBefore(s, specials string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte(specials, s[i+1]) >= 0 {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		sb.WriteByte(s[i])
	}
	return sb.String()
}

// ansiC decodes the body of a $'...' string as bash does.
func ansiC(s string) string {
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			sb.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case 'a':
			sb.WriteByte('\a')
		case 'b':
			sb.WriteByte('\b')
		case 'e', 'E':
			sb.WriteByte(0x1b)
		case 'f':
			sb.WriteByte('\f')
		case 'n':
			sb.WriteByte('\n')
		case 'r':
			sb.WriteByte('\r')
		case 't':
			sb.WriteByte('\t')
		case 'v':
			sb.WriteByte('\v')
		case '\\', '\'', '"', '?':
			sb.WriteByte(e)
		case 'x':
			v, n := parseDigits(s[i+1:], 16, 2)
			if n == 0 {
				sb.WriteString(`\x`)
				continue
			}
			sb.WriteByte(byte(v))
			i += n
		case 'u', 'U':
			maxDigits := 4
			if e == 'U' {
				maxDigits = 8
			}
			v, n := parseDigits(s[i+1:], 16, maxDigits)
			if n == 0 {
				sb.WriteByte('\\')
				sb.WriteByte(e)
				continue
			}
			sb.WriteRune(rune(v))
			i += n
		case 'c':
			if i+1 < len(s) {
				i++
				sb.WriteByte(s[i] & 0x1f)
			}
		default:
			if e >= '0' && e <= '7' {
				v, n := parseDigits(s[i:], 8, 3)
				sb.WriteByte(byte(v))
				i += n - 1
				continue
			}
			sb.WriteByte('\\')
			sb.WriteByte(e)
		}
	}
	return sb.String()
}

// parseDigits reads up to maxDigits digits of the given base from the start
// of s and returns their value and how many were read.
func parseDigits(s string, base, maxDigits int) (value, n int) {
	for n < maxDigits && n < len(s) {
		d := digitValue(s[n])
		if d < 0 || d >= base {
			break
		}
		value = value*base + d
		n++
	}
	return value, n
}

func digitValue(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

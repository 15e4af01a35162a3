package shell

import (
	"errors"
	"strings"
)

// errLocaleClass is returned for bracket expressions whose meaning depends
// on the locale bash runs in: equivalence classes ([=e=]), collating
// symbols ([.a.]), unknown classes, and character classes tested against a
// non-ASCII character.
var errLocaleClass = errors.New("a bracket expression that depends on the locale")

type tokenKind int

const (
	tokLiteral tokenKind = iota
	tokAny
	tokStar
	tokSet
)

// globToken is one element of a path component's pattern: a character, ?,
// * or a bracket expression.
type globToken struct {
	kind tokenKind
	char rune
	set  *bracket
}

// bracket is a bracket expression: the characters, ranges and classes it
// lists, negated by a leading ! or ^.
type bracket struct {
	negated bool
	chars   []rune
	ranges  [][2]rune
	classes []string
}

// globMatcher matches the names of one directory against one path component
// of a pattern as bash does with its default options. Bash matches by
// character in a UTF-8 locale and by byte in the C locale; a name matches
// when it does in either, so the matches hold those of every locale.
type globMatcher struct {
	byRune, byByte []globToken
	// ascii is set when the pattern is ASCII: byByte is then byRune.
	ascii bool
	// explicitDot is set when the pattern starts with a literal ".": only
	// then may it match a name starting with a dot.
	explicitDot bool
}

func compileGlob(component string) (*globMatcher, error) {
	byRune, err := parseGlob([]rune(component))
	if err != nil {
		return nil, err
	}
	m := &globMatcher{byRune: byRune, byByte: byRune, ascii: isASCII(component)}
	if !m.ascii {
		if m.byByte, err = parseGlob(bytesAsRunes(component)); err != nil {
			return nil, err
		}
	}
	m.explicitDot = len(byRune) > 0 && byRune[0].kind == tokLiteral && byRune[0].char == '.'
	return m, nil
}

// match reports whether the pattern matches the directory entry name in
// either locale, and byLocale when it does in one only.
func (m *globMatcher) match(name string) (matched, byLocale bool, err error) {
	if strings.HasPrefix(name, ".") && !m.explicitDot {
		return false, false, nil
	}
	byRune, err := matchTokens(m.byRune, []rune(name))
	if err != nil || (m.ascii && isASCII(name)) {
		return byRune, false, err
	}
	byByte, err := matchTokens(m.byByte, bytesAsRunes(name))
	return byRune || byByte, byRune != byByte, err
}

// matchTokens matches the whole name, backtracking to the last * on a
// mismatch.
func matchTokens(toks []globToken, name []rune) (bool, error) {
	ti, ni := 0, 0
	starT, starN := -1, 0
	for ni < len(name) {
		if ti < len(toks) {
			ok, err := toks[ti].matchOne(name[ni])
			switch {
			case err != nil:
				return false, err
			case toks[ti].kind == tokStar:
				starT, starN = ti, ni
				ti++
				continue
			case ok:
				ti++
				ni++
				continue
			}
		}
		if starT < 0 {
			return false, nil
		}
		starN++
		ti, ni = starT+1, starN
	}
	for ti < len(toks) && toks[ti].kind == tokStar {
		ti++
	}
	return ti == len(toks), nil
}

func (t globToken) matchOne(c rune) (bool, error) {
	switch t.kind {
	case tokAny:
		return true, nil
	case tokLiteral:
		return t.char == c, nil
	case tokSet:
		return t.set.matches(c)
	}
	return false, nil
}

// parseGlob reads a path component's pattern. A backslash makes the next
// character literal; a [ without its closing ] is a literal [.
func parseGlob(units []rune) ([]globToken, error) {
	toks := make([]globToken, 0, len(units))
	for i := 0; i < len(units); i++ {
		c := units[i]
		switch c {
		case '\\':
			if i+1 < len(units) {
				i++
			}
			toks = append(toks, globToken{kind: tokLiteral, char: units[i]})
		case '*':
			if len(toks) == 0 || toks[len(toks)-1].kind != tokStar {
				toks = append(toks, globToken{kind: tokStar})
			}
		case '?':
			toks = append(toks, globToken{kind: tokAny})
		case '[':
			set, end, err := parseBracket(units, i)
			if err != nil {
				return nil, err
			}
			if end < 0 {
				toks = append(toks, globToken{kind: tokLiteral, char: c})
				continue
			}
			toks = append(toks, globToken{kind: tokSet, set: set})
			i = end
		default:
			toks = append(toks, globToken{kind: tokLiteral, char: c})
		}
	}
	return toks, nil
}

// parseBracket reads the bracket expression opening at units[start]; end is
// the index of its closing ], or -1 when it has none.
func parseBracket(units []rune, start int) (set *bracket, end int, err error) {
	b := &bracket{}
	i := start + 1
	if i < len(units) && (units[i] == '!' || units[i] == '^') {
		b.negated = true
		i++
	}
	for first := true; i < len(units); i, first = i+1, false {
		c := units[i]
		switch {
		case c == ']' && !first:
			return b, i, nil
		case c == '[' && i+1 < len(units) && strings.ContainsRune(":=.", units[i+1]):
			class, next, err := parseClass(units, i)
			if err != nil {
				return nil, -1, err
			}
			b.classes = append(b.classes, class)
			i = next
			continue
		case c == '\\' && i+1 < len(units):
			i++
			c = units[i]
		}
		if i+2 < len(units) && units[i+1] == '-' && units[i+2] != ']' {
			j := i + 2
			if units[j] == '\\' && j+1 < len(units) {
				j++
			}
			b.ranges = append(b.ranges, [2]rune{c, units[j]})
			i = j
			continue
		}
		b.chars = append(b.chars, c)
	}
	return nil, -1, nil
}

// parseClass reads a [:class:] inside a bracket expression and returns the
// index of its last ]. Equivalence classes and collating symbols depend on
// the locale and are refused.
func parseClass(units []rune, start int) (class string, end int, err error) {
	kind := units[start+1]
	for j := start + 2; j+1 < len(units); j++ {
		if units[j] == kind && units[j+1] == ']' {
			name := string(units[start+2 : j])
			if kind != ':' || classes[name] == nil {
				return "", -1, errLocaleClass
			}
			return name, j + 1, nil
		}
	}
	return "", -1, errLocaleClass
}

func (b *bracket) matches(c rune) (bool, error) {
	found := false
	for _, x := range b.chars {
		found = found || x == c
	}
	for _, r := range b.ranges {
		found = found || r[0] <= c && c <= r[1]
	}
	for _, name := range b.classes {
		if c >= 0x80 {
			return false, errLocaleClass
		}
		found = found || classes[name](byte(c))
	}
	return found != b.negated, nil
}

// classes are the POSIX character classes as the C locale defines them.
var classes = map[string]func(byte) bool{
	"alnum":  func(c byte) bool { return isAlpha(c) || isDigit(c) },
	"alpha":  isAlpha,
	"ascii":  func(c byte) bool { return c < 0x80 },
	"blank":  func(c byte) bool { return c == ' ' || c == '\t' },
	"cntrl":  func(c byte) bool { return c < 0x20 || c == 0x7f },
	"digit":  isDigit,
	"graph":  func(c byte) bool { return c > 0x20 && c < 0x7f },
	"lower":  func(c byte) bool { return c >= 'a' && c <= 'z' },
	"print":  func(c byte) bool { return c >= 0x20 && c < 0x7f },
	"punct":  func(c byte) bool { return c > 0x20 && c < 0x7f && !isAlpha(c) && !isDigit(c) },
	"space":  func(c byte) bool { return c == ' ' || c >= '\t' && c <= '\r' },
	"upper":  func(c byte) bool { return c >= 'A' && c <= 'Z' },
	"word":   func(c byte) bool { return isAlpha(c) || isDigit(c) || c == '_' },
	"xdigit": func(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' },
}

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// bytesAsRunes is s one byte per element, as bash sees it in the C locale.
func bytesAsRunes(s string) []rune {
	out := make([]rune, len(s))
	for i := 0; i < len(s); i++ {
		out[i] = rune(s[i])
	}
	return out
}

// hasGlobMeta reports whether a path component holds an unescaped *, ? or a
// bracket expression: only such a component is matched against a
// directory's entries; any other is a name.
func hasGlobMeta(component string) bool {
	units := []rune(component)
	for i := 0; i < len(units); i++ {
		switch units[i] {
		case '\\':
			i++
		case '*', '?':
			return true
		case '[':
			if _, end, err := parseBracket(units, i); end >= 0 || err != nil {
				return true
			}
		}
	}
	return false
}

package grep

import (
	"errors"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The Unicode classes ripgrep's regex engine gives \d, \w and \s; Go's are ASCII only.
const (
	unicodeDigit = `\p{Nd}`
	unicodeWord  = `\p{L}\p{Nl}\p{M}\p{Nd}\p{Pc}\x{200C}\x{200D}`
	unicodeSpace = `\t\n\v\f\r \x{85}\x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}`
)

// errNewlineInPattern is ripgrep's refusal of a line break in a pattern
// searched line by line.
var errNewlineInPattern = errors.New("the pattern contains a line break (\\n), which can only match with multiline: true; set multiline: true, or search for the text of one line")

// engine is the part of a regular-expression engine the search uses;
// *regexp.Regexp and *vm both have it.
type engine interface {
	Match(text []byte) bool
	FindIndex(text []byte) []int
	FindAllIndex(text []byte, n int) [][]int
}

// matcher is a compiled pattern with what the search needs to know about it.
type matcher struct {
	// re finds matching lines; iter lists the matches within them the way
	// ripgrep steps through them. Both are Go's regexp when it agrees with
	// ripgrep for the pattern, and the vm otherwise: for \b and \B always,
	// and for listing the matches of a pattern that can match empty text.
	re, iter engine
	// lit is a string every match contains, found with a fast substring search
	// before the regex runs; empty when the pattern has none.
	lit     []byte
	litFold bool
	// pure says the pattern is exactly lit, so finding lit is finding a match.
	pure bool
	// spansLines says the pattern can match a line break (multiline mode only),
	// so files are searched whole rather than line by line.
	spansLines bool
}

// compile turns a ripgrep (Rust regex) pattern into a Go matcher with the same
// meaning where the two syntaxes agree: ^ and $ match at line boundaries, \d \w
// \s are Unicode classes, -i folds case, and outside multiline mode nothing
// matches a line break.
func compile(pattern string, ignoreCase, multiline bool) (*matcher, error) {
	flags := "(?m"
	if ignoreCase {
		flags += "i"
	}
	if multiline {
		flags += "s"
	}
	tree, err := syntax.Parse(flags+")"+translate(pattern), syntax.Perl)
	var syntaxErr *syntax.Error
	if errors.As(err, &syntaxErr) {
		syntaxErr.Expr = strings.TrimPrefix(syntaxErr.Expr, flags+")")
		return nil, syntaxErr
	}
	if err != nil {
		return nil, err
	}
	m := &matcher{}
	skipInvalidUTF8(tree)
	if multiline {
		m.spansLines = canMatchNewline(tree)
	} else if err := stripNewlines(tree); err != nil {
		return nil, err
	}
	goRE, err := regexp.Compile(tree.String())
	if err != nil {
		return nil, err
	}
	m.re, m.iter = goRE, goRE
	if hasWordBoundary(tree) || nullable(tree) {
		machine, err := newVM(tree)
		if err != nil {
			return nil, err
		}
		m.iter = machine
		if hasWordBoundary(tree) {
			m.re = machine
		}
	}
	if !m.spansLines {
		lit, fold, whole := requiredLiteral(tree)
		m.lit, m.litFold, m.pure = []byte(lit), fold, whole && lit != ""
		if fold {
			m.lit, m.pure = foldSafe(lit), m.pure && !strings.ContainsAny(lit, "kKsS")
		}
	}
	return m, nil
}

// translate rewrites the Rust-only meanings of a pattern into Go syntax: \d \w
// \s (and their negations outside classes) become Unicode classes.
func translate(pattern string) string {
	var b strings.Builder
	inClass := false
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		switch {
		case c == '\\' && i+1 < len(pattern):
			i++
			b.WriteString(translateEscape(pattern[i], inClass))
		case c == '[' && !inClass:
			inClass = true
			b.WriteByte(c)
			if i+1 < len(pattern) && pattern[i+1] == '^' {
				b.WriteByte('^')
				i++
			}
			if i+1 < len(pattern) && pattern[i+1] == ']' {
				b.WriteByte(']')
				i++
			}
		case c == '[' && inClass && strings.HasPrefix(pattern[i:], "[:"):
			end := strings.Index(pattern[i:], ":]")
			if end < 0 {
				b.WriteByte(c)
				continue
			}
			b.WriteString(pattern[i : i+end+2])
			i += end + 1
		case c == ']' && inClass:
			inClass = false
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

var unicodeClasses = map[byte]string{'d': unicodeDigit, 'w': unicodeWord, 's': unicodeSpace}

// translateEscape rewrites one escape. \D \W \S inside a class keep Go's ASCII
// meaning, as a negated class cannot be spelled inside another class.
func translateEscape(c byte, inClass bool) string {
	if body, ok := unicodeClasses[c]; ok {
		if inClass {
			return body
		}
		return "[" + body + "]"
	}
	if c >= 'A' && c <= 'Z' && !inClass {
		if body, ok := unicodeClasses[c+'a'-'A']; ok {
			return "[^" + body + "]"
		}
	}
	return "\\" + string(c)
}

// skipInvalidUTF8 keeps classes and "." from matching U+FFFD: Go decodes each
// byte of invalid UTF-8 as U+FFFD, and ripgrep's engine never matches such
// bytes. (A real U+FFFD in the text is then missed by them too.)
func skipInvalidUTF8(re *syntax.Regexp) {
	switch re.Op {
	case syntax.OpAnyChar:
		re.Op, re.Rune = syntax.OpCharClass, []rune{0, utf8.RuneError - 1, utf8.RuneError + 1, unicode.MaxRune}
	case syntax.OpAnyCharNotNL:
		re.Op, re.Rune = syntax.OpCharClass, []rune{0, '\n' - 1, '\n' + 1, utf8.RuneError - 1, utf8.RuneError + 1, unicode.MaxRune}
	case syntax.OpCharClass:
		re.Rune = without(re.Rune, utf8.RuneError)
	}
	for _, sub := range re.Sub {
		skipInvalidUTF8(sub)
	}
}

// stripNewlines makes the pattern unable to match a line break, as ripgrep
// does outside multiline mode: classes lose \n, "." never matches it, and a
// literal \n is an error.
func stripNewlines(re *syntax.Regexp) error {
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if r == '\n' {
				return errNewlineInPattern
			}
		}
	case syntax.OpAnyChar:
		re.Op = syntax.OpAnyCharNotNL
	case syntax.OpCharClass:
		re.Rune = without(re.Rune, '\n')
	}
	for _, sub := range re.Sub {
		if err := stripNewlines(sub); err != nil {
			return err
		}
	}
	return nil
}

// without removes one character from the ranges of a class.
func without(ranges []rune, c rune) []rune {
	var out []rune
	for i := 0; i+1 < len(ranges); i += 2 {
		lo, hi := ranges[i], ranges[i+1]
		if lo > c || hi < c {
			out = append(out, lo, hi)
			continue
		}
		if lo < c {
			out = append(out, lo, c-1)
		}
		if hi > c {
			out = append(out, c+1, hi)
		}
	}
	if out == nil {
		out = []rune{}
	}
	return out
}

func canMatchNewline(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if r == '\n' {
				return true
			}
		}
	case syntax.OpAnyChar:
		return true
	case syntax.OpCharClass:
		for i := 0; i+1 < len(re.Rune); i += 2 {
			if re.Rune[i] <= '\n' && '\n' <= re.Rune[i+1] {
				return true
			}
		}
	}
	for _, sub := range re.Sub {
		if canMatchNewline(sub) {
			return true
		}
	}
	return false
}

func hasWordBoundary(re *syntax.Regexp) bool {
	if re.Op == syntax.OpWordBoundary || re.Op == syntax.OpNoWordBoundary {
		return true
	}
	for _, sub := range re.Sub {
		if hasWordBoundary(sub) {
			return true
		}
	}
	return false
}

// nullable reports whether the pattern can match empty text somewhere.
func nullable(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary, syntax.OpStar, syntax.OpQuest:
		return true
	case syntax.OpRepeat:
		return re.Min == 0 || nullable(re.Sub[0])
	case syntax.OpPlus, syntax.OpCapture:
		return nullable(re.Sub[0])
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			if !nullable(sub) {
				return false
			}
		}
		return true
	case syntax.OpAlternate:
		for _, sub := range re.Sub {
			if nullable(sub) {
				return true
			}
		}
	}
	return false
}

// requiredLiteral returns the longest literal every match contains, whether it
// is case-folded, and whether the pattern is that literal and nothing else.
func requiredLiteral(re *syntax.Regexp) (lit string, fold, whole bool) {
	switch re.Op {
	case syntax.OpLiteral:
		return string(re.Rune), re.Flags&syntax.FoldCase != 0, true
	case syntax.OpCapture:
		return requiredLiteral(re.Sub[0])
	case syntax.OpPlus:
		lit, fold, _ = requiredLiteral(re.Sub[0])
		return lit, fold, false
	case syntax.OpRepeat:
		if re.Min >= 1 {
			lit, fold, _ = requiredLiteral(re.Sub[0])
		}
		return lit, fold, false
	case syntax.OpConcat:
		return concatLiteral(re.Sub)
	}
	return "", false, false
}

func concatLiteral(subs []*syntax.Regexp) (best string, bestFold, whole bool) {
	whole = true
	var run strings.Builder
	runFold := false
	flush := func() {
		if run.Len() > len(best) {
			best, bestFold = run.String(), runFold
		}
		run.Reset()
	}
	for _, sub := range subs {
		if sub.Op == syntax.OpLiteral {
			fold := sub.Flags&syntax.FoldCase != 0
			if run.Len() > 0 && fold != runFold {
				flush()
				whole = false
			}
			runFold = fold
			run.WriteString(string(sub.Rune))
			continue
		}
		flush()
		whole = false
		if lit, fold, _ := requiredLiteral(sub); len(lit) > len(best) {
			best, bestFold = lit, fold
		}
	}
	flush()
	return best, bestFold, whole
}

// foldSafe returns the longest part of a case-insensitive literal that an
// ASCII case-insensitive search finds without missing anything: only ASCII
// letters and symbols other than k and s, whose case folding reaches beyond
// ASCII (K is also the Kelvin sign, s also the long s).
func foldSafe(lit string) []byte {
	best, start := "", 0
	for i := 0; i <= len(lit); i++ {
		if i == len(lit) || lit[i] >= utf8.RuneSelf || strings.IndexByte("kKsS", lit[i]) >= 0 {
			if i-start > len(best) {
				best = lit[start:i]
			}
			start = i + 1
		}
	}
	return []byte(best)
}

package edit

import (
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/mini-claude/mini-claude/internal/tools/fileaccess"
)

// span is one place old_string matched, as byte offsets into the file's content.
type span struct{ start, end int }

// grade says how strictly old_string matched.
type grade int

const (
	// exact is a byte-for-byte match.
	exact grade = iota
	// loose treats a CRLF line break like LF, and curly quotes like straight ones.
	loose
)

// The quote characters loose matching treats alike, per kind.
const (
	singleQuotes = "'‘’‚‛"
	doubleQuotes = "\"“”„‟"
)

// findMatches returns the non-overlapping places old occurs in content, in
// order. Exact matches win; only when there is none does it look again with
// line endings and quote styles forgiven. Whitespace is never forgiven.
func findMatches(content, old string) ([]span, grade) {
	if old == "" {
		return nil, exact
	}
	if spans := exactSpans(content, old); len(spans) > 0 {
		if old[0] == '\n' {
			takeCarriageReturns(content, spans)
		}
		return spans, exact
	}
	re := loosePattern(old)
	if re == nil || !utf8.ValidString(content) {
		return nil, exact
	}
	var spans []span
	for _, loc := range re.FindAllStringIndex(content, -1) {
		spans = append(spans, span{loc[0], loc[1]})
	}
	return spans, loose
}

func exactSpans(content, old string) []span {
	var spans []span
	for from := 0; ; {
		i := strings.Index(content[from:], old)
		if i < 0 {
			return spans
		}
		spans = append(spans, span{from + i, from + i + len(old)})
		from += i + len(old)
	}
}

// takeCarriageReturns widens spans that start with the LF of a CRLF to take
// its CR too, so a replacement never leaves half a line break behind.
func takeCarriageReturns(content string, spans []span) {
	for i, s := range spans {
		if s.start > 0 && content[s.start-1] == '\r' && (i == 0 || spans[i-1].end < s.start) {
			spans[i].start--
		}
	}
}

// loosePattern compiles old into a pattern where every line break matches LF
// or CRLF and every quote matches any quote of its kind; nil when old has
// nothing loose matching would forgive, or is too long to compile.
func loosePattern(old string) *regexp.Regexp {
	if !utf8.ValidString(old) || !strings.ContainsAny(old, "\r\n"+singleQuotes+doubleQuotes) {
		return nil
	}
	var b strings.Builder
	for _, r := range strings.ReplaceAll(old, fileaccess.CRLF, fileaccess.LF) {
		switch {
		case r == '\n':
			b.WriteString(`\r?\n`)
		case strings.ContainsRune(singleQuotes, r):
			b.WriteString("[" + singleQuotes + "]")
		case strings.ContainsRune(doubleQuotes, r):
			b.WriteString("[" + doubleQuotes + "]")
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil
	}
	return re
}

// replace returns content with every span replaced by new, its line breaks
// written as eol (the file's) and, after a loose match, its quotes in the
// style of the text it replaces. restyled reports whether quotes were changed.
func replace(content string, spans []span, old, new string, g grade, eol string) (result string, restyled bool) {
	var b strings.Builder
	b.Grow(len(content) + len(spans)*max(len(new)-len(old), 0))
	last := 0
	for _, s := range spans {
		b.WriteString(content[last:s.start])
		text := new
		if g == loose {
			text = matchQuotes(content[s.start:s.end], old, new)
			restyled = restyled || text != new
		}
		b.WriteString(fileaccess.ConvertLineEndings(text, eol))
		last = s.end
	}
	b.WriteString(content[last:])
	return b.String(), restyled
}

// matchQuotes rewrites new's quotes in the style of found, the file's text
// that old matched loosely, as Claude Code does: when found holds a curly
// double (single) quote, every straight double (single) quote of new turns
// curly. The other way round, when found is all straight and old used curly
// ones, new's curly quotes turn straight; Claude Code writes them as sent,
// into code that uses straight quotes.
func matchQuotes(found, old, new string) string {
	new = restyle(found, old, new, '"', doubleQuotes[1:], '“', '”')
	return restyle(found, old, new, '\'', singleQuotes[1:], '‘', '’')
}

func restyle(found, old, new string, straight rune, curly string, open, closing rune) string {
	switch {
	case strings.ContainsAny(found, curly):
		return curlify(new, straight, open, closing)
	case strings.ContainsRune(found, straight) && strings.ContainsAny(old, curly):
		return strings.Map(func(r rune) rune {
			if strings.ContainsRune(curly, r) {
				return straight
			}
			return r
		}, new)
	}
	return new
}

// opensQuote holds the characters after which a straight quote becomes an
// opening curly one (Claude Code's set); after any other it closes, so an
// apostrophe inside a word becomes ’.
const opensQuote = " \t\n\r([{—–"

// curlify turns each straight quote of s into an opening or a closing curly
// quote by the character before it.
func curlify(s string, straight, open, closing rune) string {
	var b strings.Builder
	prev := ' '
	for _, r := range s {
		switch {
		case r != straight:
			b.WriteRune(r)
		case strings.ContainsRune(opensQuote, prev):
			b.WriteRune(open)
		default:
			b.WriteRune(closing)
		}
		prev = r
	}
	return b.String()
}

package commands

import (
	"strconv"
	"strings"
	"unicode"
)

// expand fills a command's arguments into its text as Claude Code 2.1.332
// does: $ARGUMENTS is the whole argument string; $ARGUMENTS[N] and $N are the
// N-th argument counted from 0 ($0 is the first), the arguments split as a
// shell splits words, quotes grouping; a placeholder whose argument is
// missing stays as written, and \$ before a placeholder keeps it literal.
// Filled-in text is never read again for placeholders. When the text names
// no placeholder and there are arguments, they are appended after a blank
// line as "ARGUMENTS: …". Each filled-in value passes through escape.
func expand(text, args string, escape func(string) string) string {
	var words []string
	split := false
	arg := func(i int) (string, bool) {
		if !split {
			words, split = splitArgs(args), true
		}
		if i < len(words) {
			return words[i], true
		}
		return "", false
	}
	var b strings.Builder
	replaced := false
	for i := 0; i < len(text); {
		c := text[i]
		if c == '\\' && i+1 < len(text) && text[i+1] == '$' && (i == 0 || text[i-1] != '\\') && placeholderAt(text[i+1:]) {
			b.WriteByte('$')
			i += 2
			continue
		}
		if c != '$' {
			b.WriteByte(c)
			i++
			continue
		}
		rest := text[i+1:]
		if after, ok := strings.CutPrefix(rest, "ARGUMENTS"); ok {
			if n, size, ok := bracketIndex(after); ok {
				if v, ok := arg(n); ok {
					b.WriteString(escape(v))
					replaced = true
				} else {
					b.WriteString(text[i : i+1+len("ARGUMENTS")+size])
				}
				i += 1 + len("ARGUMENTS") + size
				continue
			}
			b.WriteString(escape(args))
			replaced = true
			i += 1 + len("ARGUMENTS")
			continue
		}
		if n, size, ok := leadingIndex(rest); ok {
			if v, ok := arg(n); ok {
				b.WriteString(escape(v))
				replaced = true
			} else {
				b.WriteString(text[i : i+1+size])
			}
			i += 1 + size
			continue
		}
		b.WriteByte(c)
		i++
	}
	out := b.String()
	if !replaced && args != "" {
		out += "\n\nARGUMENTS: " + escape(args)
	}
	return out
}

// placeholderAt reports whether s, starting at a $, holds a placeholder.
func placeholderAt(s string) bool {
	rest := s[1:]
	return strings.HasPrefix(rest, "ARGUMENTS") || len(rest) > 0 && rest[0] >= '0' && rest[0] <= '9'
}

// bracketIndex reads "[N]" at the start of s.
func bracketIndex(s string) (n, size int, ok bool) {
	if !strings.HasPrefix(s, "[") {
		return 0, 0, false
	}
	end := strings.IndexByte(s, ']')
	if end < 2 {
		return 0, 0, false
	}
	digits := s[1:end]
	if strings.TrimFunc(digits, func(r rune) bool { return r >= '0' && r <= '9' }) != "" {
		return 0, 0, false
	}
	n, err := strconv.Atoi(digits)
	return n, end + 1, err == nil
}

// leadingIndex reads the digits at the start of s when no word character follows them.
func leadingIndex(s string) (n, size int, ok bool) {
	for size < len(s) && s[size] >= '0' && s[size] <= '9' {
		size++
	}
	if size == 0 || size < len(s) && isWord(s[size]) {
		return 0, 0, false
	}
	n, err := strconv.Atoi(s[:size])
	return n, size, err == nil
}

func isWord(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// splitArgs splits an argument string into words as a shell would without
// expanding anything: blanks separate words, single and double quotes group
// and are removed, a backslash escapes the next character outside single
// quotes. Unbalanced quotes split on blanks alone.
func splitArgs(args string) []string {
	var words []string
	var cur strings.Builder
	inWord := false
	var quote rune
	escaped := false
	for _, r := range args {
		switch {
		case escaped:
			cur.WriteRune(r)
			escaped = false
		case r == '\\' && quote != '\'':
			escaped, inWord = true, true
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case unicode.IsSpace(r):
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 || escaped {
		return strings.Fields(args)
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
}

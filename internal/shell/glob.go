package shell

import (
	"path"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// maxBraceWords bounds the words one brace expansion may give
// ({1..100000}): a word giving more is taken as unknown.
const maxBraceWords = 1000

// maxBraceLists bounds the brace lists and sequences in one word: past ten
// lists of two the words are too many anyway, and expanding each would cost
// in proportion to the lists.
const maxBraceLists = 16

// globPatterns returns what bash matches against the file system for a word
// whose only expansions are globs and brace lists: one pattern per word the
// brace expansion gives, in which every quoted or escaped character is
// backslash-escaped, so that only the unquoted *, ? and [ are special (see
// ExpandGlob). An unquoted leading ~ is kept for the consumer to expand. It
// returns nil when the word cannot be written so: a part that expands
// otherwise, an extended glob, a brace expansion that gives too many words.
func globPatterns(wd *syntax.Word) []string {
	words := []*syntax.Word{wd}
	split := *wd
	if syntax.SplitBraces(&split) {
		if braceLists(&split) > maxBraceLists {
			return nil
		}
		words = words[:0]
		for w, err := range expand.BracesSeq(nil, &split) {
			if err != nil || len(words) == maxBraceWords {
				return nil
			}
			words = append(words, w)
		}
	}
	patterns := make([]string, 0, len(words))
	for _, w := range words {
		p, ok := patternOf(w)
		if !ok {
			return nil
		}
		patterns = append(patterns, p)
	}
	return patterns
}

// braceLists counts the brace expansions in a word, nested ones included,
// up to one past maxBraceLists.
func braceLists(wd *syntax.Word) int {
	n := 0
	for _, part := range wd.Parts {
		br, ok := part.(*syntax.BraceExp)
		if !ok {
			continue
		}
		n++
		for _, elem := range br.Elems {
			if n > maxBraceLists {
				return n
			}
			n += braceLists(elem)
		}
	}
	return n
}

// patternOf writes one brace-free word as a pattern; ok is false when a part
// is no literal text.
func patternOf(wd *syntax.Word) (pattern string, ok bool) {
	var sb strings.Builder
	for _, part := range wd.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			writeUnquoted(&sb, p.Value)
		case *syntax.SglQuoted, *syntax.DblQuoted:
			value, static := quoteRemoved([]syntax.WordPart{p})
			if !static {
				return "", false
			}
			writeQuoted(&sb, value)
		default:
			return "", false
		}
	}
	return sb.String(), true
}

// writeUnquoted copies an unquoted literal into a pattern: its glob
// characters stay special, a backslash-escaped character is escaped and a
// backslash-newline disappears.
func writeUnquoted(sb *strings.Builder, s string) {
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] != '\\':
			sb.WriteByte(s[i])
		case i+1 == len(s):
			writeQuoted(sb, `\`)
		case s[i+1] == '\n':
			i++
		default:
			_, size := utf8.DecodeRuneInString(s[i+1:])
			writeQuoted(sb, s[i+1:i+1+size])
			i += size
		}
	}
}

// writeQuoted copies quoted text into a pattern, escaping every character
// but the slash, which separates path components however it is quoted.
func writeQuoted(sb *strings.Builder, s string) {
	for i := 0; i < len(s); {
		_, size := utf8.DecodeRuneInString(s[i:])
		if s[i] != '/' {
			sb.WriteByte('\\')
		}
		sb.WriteString(s[i : i+size])
		i += size
	}
}

// quoteGlob returns s as a pattern that matches s itself.
func quoteGlob(s string) string {
	var sb strings.Builder
	writeQuoted(&sb, s)
	return sb.String()
}

// unescapeGlob removes a pattern's escapes: the word bash passes on when
// the pattern matches nothing.
func unescapeGlob(pattern string) string {
	if !strings.Contains(pattern, `\`) {
		return pattern
	}
	var sb strings.Builder
	for i := 0; i < len(pattern); i++ {
		if pattern[i] == '\\' && i+1 < len(pattern) {
			i++
		}
		sb.WriteByte(pattern[i])
	}
	return sb.String()
}

// argGlobs collects the patterns of a command's glob words, at their index
// (see Command.Globs).
func argGlobs(args []word) [][]string {
	var out [][]string
	for i, a := range args {
		if a.globs == nil {
			continue
		}
		if out == nil {
			out = make([][]string, len(args))
		}
		out[i] = a.globs
	}
	return out
}

// globIgnore is the variable whose patterns bash leaves out of every glob's
// matches; setting it also turns dotglob on.
const globIgnore = "GLOBIGNORE"

// changesGlobbing reports whether a command, or a bare assignment when args
// is nil, may change how later globs expand: shopt (dotglob, nocaseglob,
// globstar, extglob, failglob …), set -f or set -o noglob, or an assignment
// of GLOBIGNORE.
func changesGlobbing(args []word, assigns []assignment) bool {
	for _, a := range assigns {
		if a.name == globIgnore {
			return true
		}
	}
	if len(args) == 0 {
		return false
	}
	switch path.Base(args[0].text) {
	case "shopt":
		return true
	case "set":
		for _, a := range args[1:] {
			t := a.text
			if a.dynamic || t == "noglob" || len(t) > 1 && (t[0] == '-' || t[0] == '+') && t[1] != '-' && strings.ContainsRune(t, 'f') {
				return true
			}
		}
	}
	return false
}

package permission

import (
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// compiledRule is a rule's content prepared once, so that deciding a call of
// many parts against many rules stays in microseconds.
type compiledRule struct {
	kind kind
	// words and prefix are a Bash rule's command words and whether it is a prefix rule.
	words  []string
	prefix bool
	// root says what a path rule's pattern is under; rel is the pattern below
	// it, starting with "/", and literal the part of rel before any pattern
	// character (without a trailing slash). anyDepth rules ("*.md", ".env") match a path component at
	// any depth, name holding the component pattern.
	root     pathRoot
	rel      string
	literal  string
	anyDepth bool
	name     string
}

// pathRoot is what a path rule's pattern is relative to.
type pathRoot int

const (
	rootAbsolute pathRoot = iota
	rootHome
	rootBase
)

func compile(r Rule) *compiledRule {
	c := &compiledRule{kind: kindOf(r.Tool)}
	switch c.kind {
	case kindCommand:
		words, isPrefix := strings.CutSuffix(r.Content, ":*")
		if !isPrefix {
			words, isPrefix = strings.CutSuffix(r.Content, " *")
		}
		c.words, c.prefix = strings.Fields(words), isPrefix
	case kindRead, kindWrite:
		compilePath(c, r.Content)
	}
	return c
}

// compilePath splits a path rule as pathPattern reads it.
func compilePath(c *compiledRule, content string) {
	switch {
	case strings.HasPrefix(content, "//"):
		c.root, c.rel = rootAbsolute, filepath.Clean(content[1:])
	case content == "~" || strings.HasPrefix(content, "~/"):
		c.root, c.rel = rootHome, filepath.Clean("/"+strings.TrimPrefix(content, "~"))
	case strings.HasPrefix(content, "/"), strings.HasPrefix(content, "./"), strings.Contains(strings.TrimSuffix(content, "/"), "/"):
		c.root, c.rel = rootBase, filepath.Clean("/"+content)
	default:
		c.root, c.anyDepth, c.name = rootBase, true, strings.TrimSuffix(content, "/")
		c.rel = "/**/" + c.name
	}
	if c.root != rootAbsolute {
		// "~" and "/" name the root itself: the pattern is the root.
		c.rel = strings.TrimSuffix(c.rel, "/")
	}
	c.literal = c.rel
	if i := strings.IndexAny(c.rel, "*?[{\\"); i >= 0 {
		c.literal = c.rel[:i]
	}
	// "dir/**" matches dir itself: the literal stops before the slash.
	c.literal = strings.TrimSuffix(c.literal, "/")
}

// compiledOf returns the rule's compiled form, compiling a rule that was not
// made by ParseRule.
func compiledOf(r *Rule) *compiledRule {
	if r.compiled != nil {
		return r.compiled
	}
	return compile(*r)
}

// matchRulePath reports whether the path rule covers the absolute path or a
// directory above it, as matchPath on the rule's pattern does, but rejects
// paths outside the pattern's literal prefix without building the pattern.
func matchRulePath(r *Rule, home, path string, foldCase bool) bool {
	c := compiledOf(r)
	root := ""
	switch c.root {
	case rootHome:
		root = home
	case rootBase:
		root = r.Base
	}
	root = strings.TrimSuffix(root, "/")
	if !hasPrefix(path, root, foldCase) {
		return false
	}
	rest := path[len(root):]
	if rest != "" && rest[0] != '/' {
		return false
	}
	if c.anyDepth {
		return anyComponentMatches(c.name, rest, foldCase)
	}
	if !hasPrefix(rest, c.literal, foldCase) {
		return false
	}
	return matchPath(root+c.rel, path, foldCase)
}

func hasPrefix(s, prefix string, foldCase bool) bool {
	if len(s) < len(prefix) {
		return false
	}
	head := s[:len(prefix)]
	return head == prefix || foldCase && strings.EqualFold(head, prefix)
}

// anyComponentMatches reports whether a component of the slash-separated path
// matches the pattern, which has no slash.
func anyComponentMatches(pattern, path string, foldCase bool) bool {
	if foldCase {
		pattern = strings.ToLower(pattern)
	}
	for part := range strings.SplitSeq(path, "/") {
		if part == "" {
			continue
		}
		if foldCase {
			part = strings.ToLower(part)
		}
		if ok, err := doublestar.Match(pattern, part); err == nil && ok {
			return true
		}
	}
	return false
}

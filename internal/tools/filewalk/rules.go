package filewalk

import (
	"strings"
	"unicode"

	"github.com/bmatcuk/doublestar/v4"
)

// verdict is what a set of rules says about one path.
type verdict uint8

const (
	noVerdict verdict = iota
	ignored
	whitelisted
)

// ruleKind picks the cheapest test that is equivalent to matching a rule's glob.
type ruleKind uint8

const (
	generic     ruleKind = iota // doublestar match of the whole relative path
	baseGeneric                 // doublestar match of the last path component
	baseLiteral                 // the last component equals lit
	baseSuffix                  // the last component ends with lit
	basePrefix                  // the last component starts with lit
	pathLiteral                 // the whole relative path equals lit
	everything                  // matches every path
)

// rule is one line of an ignore file, or one --glob, compiled the way
// ripgrep's ignore crate compiles it.
type rule struct {
	glob      string
	lit       string
	kind      ruleKind
	whitelist bool
	dirOnly   bool
}

// ruleSet is the rules of one ignore file (or one list of globs), matched
// against paths relative to the directory the file lives in. The last rule
// that matches decides.
type ruleSet struct {
	rules []rule
}

// parseRules compiles gitignore-style lines. Lines that are not valid globs
// are skipped, as ripgrep skips them (it reports them and goes on).
func parseRules(lines []string) *ruleSet {
	var set ruleSet
	for _, line := range lines {
		if r, ok := compileRule(line); ok {
			set.rules = append(set.rules, r)
		}
	}
	if len(set.rules) == 0 {
		return nil
	}
	return &set
}

// compileRule follows GitignoreBuilder::add_line of ripgrep's ignore crate:
// comments, trailing blanks, "!" for whitelists, a leading "/" anchors, a
// trailing "/" matches directories only, a glob without a slash matches at any
// depth, and a trailing "/**" matches only what is inside the directory.
func compileRule(line string) (rule, bool) {
	var r rule
	if strings.HasPrefix(line, "#") {
		return r, false
	}
	if !strings.HasSuffix(line, "\\ ") {
		line = strings.TrimRightFunc(line, unicode.IsSpace)
	}
	if line == "" {
		return r, false
	}
	anchored := false
	if strings.HasPrefix(line, "\\!") || strings.HasPrefix(line, "\\#") {
		line = line[1:]
		anchored = strings.HasPrefix(line, "/")
	} else {
		if rest, ok := strings.CutPrefix(line, "!"); ok {
			r.whitelist = true
			line = rest
		}
		if rest, ok := strings.CutPrefix(line, "/"); ok {
			line = rest
			anchored = true
		}
	}
	if rest, ok := strings.CutSuffix(line, "/"); ok {
		r.dirOnly = true
		line = strings.TrimSuffix(rest, "\\")
	}
	glob := line
	if !anchored && !strings.Contains(line, "/") && !strings.HasPrefix(glob, "**/") && glob != "**" {
		glob = "**/" + glob
	}
	if strings.HasSuffix(glob, "/**") {
		glob += "/*"
	}
	if !doublestar.ValidatePattern(glob) {
		return r, false
	}
	r.glob = glob
	r.kind, r.lit = classify(glob)
	return r, true
}

func classify(glob string) (ruleKind, string) {
	if glob == "**" {
		return everything, ""
	}
	base, anyDepth := strings.CutPrefix(glob, "**/")
	if !anyDepth {
		if !hasMeta(glob) {
			return pathLiteral, glob
		}
		return generic, ""
	}
	if strings.Contains(base, "/") || strings.Contains(base, "**") {
		return generic, ""
	}
	switch {
	case !hasMeta(base):
		return baseLiteral, base
	case strings.HasPrefix(base, "*") && !hasMeta(base[1:]):
		return baseSuffix, base[1:]
	case strings.HasSuffix(base, "*") && !hasMeta(base[:len(base)-1]):
		return basePrefix, base[:len(base)-1]
	}
	return baseGeneric, base
}

func hasMeta(s string) bool {
	return strings.ContainsAny(s, "*?[{\\")
}

// matches reports whether the rule's glob matches path, whose last component is name.
func (r *rule) matches(path, name string) bool {
	switch r.kind {
	case everything:
		return true
	case pathLiteral:
		return path == r.lit
	case baseLiteral:
		return name == r.lit
	case baseSuffix:
		return strings.HasSuffix(name, r.lit)
	case basePrefix:
		return strings.HasPrefix(name, r.lit)
	case baseGeneric:
		return doublestar.MatchUnvalidated(r.glob[3:], name)
	}
	return doublestar.MatchUnvalidated(r.glob, path)
}

// match returns the verdict of the last rule matching path; directory-only
// rules do not apply to files.
func (s *ruleSet) match(path, name string, isDir bool) verdict {
	if s == nil {
		return noVerdict
	}
	for i := len(s.rules) - 1; i >= 0; i-- {
		r := &s.rules[i]
		if r.dirOnly && !isDir {
			continue
		}
		if r.matches(path, name) {
			if r.whitelist {
				return whitelisted
			}
			return ignored
		}
	}
	return noVerdict
}

// globSet is a list of --glob patterns: a plain glob selects, a glob with a
// leading "!" excludes, and once any glob selects, files no glob selects are
// left out (ripgrep's overrides).
type globSet struct {
	rules      *ruleSet
	selections int
}

func newGlobSet(globs []string) *globSet {
	set := parseRules(globs)
	if set == nil {
		return nil
	}
	g := &globSet{rules: set}
	for _, r := range set.rules {
		if !r.whitelist {
			g.selections++
		}
	}
	return g
}

// match is ripgrep's Override::matched: the ignore-file verdict inverted.
func (g *globSet) match(path, name string, isDir bool) verdict {
	if g == nil {
		return noVerdict
	}
	switch g.rules.match(path, name, isDir) {
	case ignored:
		return whitelisted
	case whitelisted:
		return ignored
	}
	if g.selections > 0 && !isDir {
		return ignored
	}
	return noVerdict
}

package bash

import (
	"os"
	"strings"

	"github.com/mini-claude/mini-claude/internal/shell"
)

// pathWord is a path a command line names: as written, whether it expands,
// and the glob patterns it expands from when only globs and brace lists do.
type pathWord struct {
	text    string
	dynamic bool
	globs   []string
}

// expander resolves the paths of one command line from its bases, expanding
// each glob pattern against the file system once per base, as bash will
// expand it. A line without glob words never reaches the file system here.
type expander struct {
	bases []string
	// unsure is set when the line may change how bash globs (shopt,
	// GLOBIGNORE, set -f): no expansion of it is then decided.
	unsure bool
	seen   map[[2]string]expansion
}

// expansion is the outcome of one pattern from one base.
type expansion struct {
	paths   []string
	decided bool
}

// paths resolves a path from every base. A static path is joined to each
// base; a glob gives the paths bash's expansion gives. ok is false when the
// path is only known when the line runs (a variable, a substitution, a glob
// whose expansion cannot be decided); the paths found are returned even
// then, so that a deny rule on one of them still denies.
func (x *expander) paths(p pathWord) (paths []string, ok bool) {
	switch {
	case p.text == "":
		return nil, false
	case !p.dynamic:
		return resolveAll(x.bases, p.text)
	case len(p.globs) == 0:
		return nil, false
	}
	ok = !x.unsure
	for _, pattern := range p.globs {
		for _, base := range x.bases {
			e := x.expand(base, pattern)
			paths = append(paths, e.paths...)
			ok = ok && e.decided
			if strings.HasPrefix(pattern, "/") || strings.HasPrefix(pattern, "~") {
				break
			}
		}
	}
	return paths, ok
}

func (x *expander) expand(base, pattern string) expansion {
	key := [2]string{base, pattern}
	if e, ok := x.seen[key]; ok {
		return e
	}
	paths, decided := expandFrom(base, pattern)
	if x.seen == nil {
		x.seen = make(map[[2]string]expansion)
	}
	x.seen[key] = expansion{paths: paths, decided: decided}
	return x.seen[key]
}

// expandFrom expands one pattern from base; a leading ~ or ~/ is the home
// directory, and ~user is not known.
func expandFrom(base, pattern string) (paths []string, decided bool) {
	if pattern == "~" || strings.HasPrefix(pattern, "~/") {
		home, err := os.UserHomeDir()
		if err != nil {
			return nil, false
		}
		base, pattern = home, strings.TrimPrefix(strings.TrimPrefix(pattern, "~"), "/")
	} else if strings.HasPrefix(pattern, "~") {
		return nil, false
	}
	paths, err := shell.ExpandGlob(pattern, base)
	return paths, err == nil
}

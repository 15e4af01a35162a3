package filewalk

import (
	_ "embed"
	"fmt"
	"strings"
	"sync"
)

// rgTypes is the output of `rg --type-list` (ripgrep 13): the file types that
// --type selects, one "name: glob, glob" line each.
//
//go:embed rgtypes.txt
var rgTypes string

var typeTable = sync.OnceValue(func() map[string][]string {
	table := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(rgTypes), "\n") {
		name, globs, ok := strings.Cut(line, ": ")
		if !ok {
			continue
		}
		table[name] = strings.Split(globs, ", ")
	}
	return table
})

// typeSet selects files by ripgrep file type: a file whose name matches one of
// the selected types' globs is selected, any other file is left out.
type typeSet struct {
	rules *ruleSet
}

// newTypeSet compiles the selected types; "all" selects every known type.
func newTypeSet(names []string) (*typeSet, error) {
	table := typeTable()
	var globs []string
	for _, name := range names {
		if name == "all" {
			for _, g := range table {
				globs = append(globs, g...)
			}
			continue
		}
		g, ok := table[name]
		if !ok {
			return nil, fmt.Errorf("unknown file type %q: use one of ripgrep's types, such as go, js, py, rust, java, c, cpp or ts (%d types in all), or filter by file name with a glob instead", name, len(table))
		}
		globs = append(globs, g...)
	}
	if len(globs) == 0 {
		return nil, nil
	}
	set := &ruleSet{}
	for _, g := range globs {
		kind, lit := classify("**/" + g)
		set.rules = append(set.rules, rule{glob: "**/" + g, kind: kind, lit: lit})
	}
	return &typeSet{rules: set}, nil
}

// match selects or leaves out a file by its name; directories are never left out.
func (t *typeSet) match(name string, isDir bool) verdict {
	if t == nil || isDir {
		return noVerdict
	}
	for i := range t.rules.rules {
		if t.rules.rules[i].matches(name, name) {
			return whitelisted
		}
	}
	return ignored
}

// KnownType reports whether --type accepts name: a known type or "all".
func KnownType(name string) bool {
	_, ok := typeTable()[name]
	return ok || name == "all"
}

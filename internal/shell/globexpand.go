package shell

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"syscall"
)

// Limits of one glob expansion. Beyond them the expansion is undecided: the
// caller must not allow the command by what was found.
const (
	// MaxGlobMatches bounds the paths one pattern may match (and the
	// directories it may pass through on the way).
	MaxGlobMatches = 1000
	// maxGlobLookups bounds the directory entries read and the paths
	// looked up for one pattern.
	maxGlobLookups = 100_000
	// maxGlobComponent bounds the length of a path component holding a
	// pattern: no file name is nearly as long, and a longer one is not
	// worth matching.
	maxGlobComponent = 1024
)

// errGlobTooLarge is returned when an expansion passes MaxGlobMatches
// paths, maxGlobLookups look-ups or maxGlobComponent bytes in a component.
var errGlobTooLarge = errors.New("too many paths to check")

// ExpandGlob returns the paths bash's pathname expansion makes of pattern (one
// of the Globs of a Read, a Write or a Command argument) in the directory
// dir, with bash's default options: *, ? and [...] never match a leading dot
// unless the pattern starts with one, ** is *, and a pattern that matches
// nothing is passed on as the word itself. A relative pattern gives paths
// under dir, joined without cleaning. A pattern starting with a dot also
// matches "." and "..", as bash did before 5.2 turned globskipdots on, so the
// result holds what any bash gives.
//
// The error is set when the expansion cannot be decided: a directory that
// cannot be read (other than one that does not exist), more than
// MaxGlobMatches paths or maxGlobLookups look-ups, a component longer than
// maxGlobComponent, a bracket expression that depends on the locale. The paths found so far are returned with it,
// or the directories every match would lie under, for the deny rules.
func ExpandGlob(pattern, dir string) ([]string, error) {
	comps := strings.Split(pattern, "/")
	g := &globber{root: dir}
	g.list = g.readNames
	if comps[0] == "" && len(comps) > 1 {
		g.root, comps = "/", comps[1:]
	}
	if !strings.ContainsAny(pattern, "*?[") {
		return []string{g.abs(unescapeGlob(strings.Join(comps, "/")))}, nil
	}
	if slices.ContainsFunc(comps, func(c string) bool { return len(c) > maxGlobComponent }) {
		return []string{g.root}, fmt.Errorf("expand %s in %s: %w", unescapeGlob(pattern), dir, errGlobTooLarge)
	}
	if !slices.ContainsFunc(comps, hasGlobMeta) {
		return []string{g.abs(unescapeGlob(strings.Join(comps, "/")))}, nil
	}
	found, err := g.expand(comps)
	if err != nil {
		return g.absAll(found), fmt.Errorf("expand %s in %s: %w", unescapeGlob(pattern), dir, err)
	}
	if len(found) == 0 || g.byLocale {
		// No match: bash passes the word on. A match found in one locale
		// only may be no match in the other.
		found = append(found, unescapeGlob(strings.Join(comps, "/")))
	}
	return g.absAll(found), nil
}

// globber expands one pattern from its root directory. Candidates are paths
// relative to the root, as the pattern writes them.
type globber struct {
	root string
	// list reads a candidate directory's entry names (readNames).
	list func(dir string) (names []string, isDir bool, err error)
	// lookups counts the entries read and paths looked up, against
	// maxGlobLookups.
	lookups int
	// byLocale is set when a name matched in one locale only.
	byLocale bool
}

func (g *globber) abs(rel string) string {
	switch {
	case rel == "":
		return g.root
	case strings.HasSuffix(g.root, "/"):
		return g.root + rel
	}
	return g.root + "/" + rel
}

func (g *globber) absAll(rels []string) []string {
	out := make([]string, len(rels))
	for i, r := range rels {
		out[i] = g.abs(r)
	}
	return out
}

// expand walks the components: a pattern is matched against the entries of
// every candidate directory; a name after a pattern must exist; an empty
// last component (a trailing slash) keeps only directories.
func (g *globber) expand(comps []string) ([]string, error) {
	cands := []string{""}
	globbed := false
	var err error
	for i, comp := range comps {
		switch {
		case comp == "":
			cands, err = g.slash(cands, globbed && i == len(comps)-1)
		case !hasGlobMeta(comp):
			cands, err = g.name(cands, unescapeGlob(comp), globbed)
		default:
			globbed = true
			cands, err = g.match(cands, comp)
		}
		if err != nil || len(cands) == 0 {
			return cands, err
		}
	}
	return cands, nil
}

// join appends a component to a candidate, keeping the slashes the pattern
// wrote ("sub//*" gives "sub//one.txt", as in bash).
func join(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

// slash adds a slash to every candidate, keeping only directories when
// dirsOnly.
func (g *globber) slash(cands []string, dirsOnly bool) ([]string, error) {
	out := make([]string, 0, len(cands))
	for _, c := range cands {
		if dirsOnly {
			if g.lookups++; g.lookups > maxGlobLookups {
				return cands, errGlobTooLarge
			}
			info, err := os.Stat(g.abs(c))
			if absent(err) || err == nil && !info.IsDir() {
				continue
			}
			if err != nil {
				return cands, fmt.Errorf("stat %s: %w", c, err)
			}
		}
		out = append(out, c+"/")
	}
	return out, nil
}

// name appends a literal component; after a pattern, bash keeps only the
// paths that exist (a dangling symlink does).
func (g *globber) name(cands []string, name string, mustExist bool) ([]string, error) {
	out := make([]string, 0, len(cands))
	for _, c := range cands {
		next := join(c, name)
		if mustExist {
			if g.lookups++; g.lookups > maxGlobLookups {
				return cands, errGlobTooLarge
			}
			_, err := os.Lstat(g.abs(next))
			if absent(err) {
				continue
			}
			if err != nil {
				return cands, fmt.Errorf("stat %s: %w", next, err)
			}
		}
		out = append(out, next)
	}
	return out, nil
}

// match replaces every candidate directory by its entries that the
// component matches.
func (g *globber) match(cands []string, comp string) ([]string, error) {
	m, err := compileGlob(comp)
	if err != nil {
		return cands, err
	}
	var out []string
	for _, dir := range cands {
		names, isDir, err := g.list(dir)
		if err != nil {
			return append(out, cands...), err
		}
		if isDir && m.explicitDot {
			names = append(names, ".", "..")
		}
		for _, n := range names {
			ok, byLocale, err := m.match(n)
			if err != nil {
				return append(out, cands...), err
			}
			g.byLocale = g.byLocale || byLocale
			if ok {
				out = append(out, join(dir, n))
			}
		}
		if len(out) > MaxGlobMatches {
			return out[:MaxGlobMatches], errGlobTooLarge
		}
	}
	return out, nil
}

// readNames lists a candidate directory; one that does not exist or is no
// directory has no entries, as for bash, and isDir false.
func (g *globber) readNames(dir string) (names []string, isDir bool, err error) {
	// Stat first: opening a FIFO the pattern passes through would block.
	if g.lookups++; g.lookups > maxGlobLookups {
		return nil, true, errGlobTooLarge
	}
	info, err := os.Stat(g.abs(dir))
	if absent(err) || err == nil && !info.IsDir() {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("stat %s: %w", g.abs(dir), err)
	}
	f, err := os.Open(g.abs(dir))
	if err != nil {
		return nil, false, fmt.Errorf("open %s: %w", g.abs(dir), err)
	}
	defer f.Close()
	for {
		batch, err := f.Readdirnames(256)
		names = append(names, batch...)
		g.lookups += len(batch)
		switch {
		case g.lookups > maxGlobLookups:
			return nil, true, errGlobTooLarge
		case err == io.EOF:
			return names, true, nil
		case absent(err):
			return nil, false, nil
		case err != nil:
			return nil, true, fmt.Errorf("read %s: %w", g.abs(dir), err)
		}
	}
}

// absent reports whether err says a path does not exist or passes through
// something that is no directory: bash finds nothing there, and neither
// does the analysis.
func absent(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

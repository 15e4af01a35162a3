package shell

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// globTree creates the entries under dir: a name ending in / is a
// directory, "name -> target" a symlink, anything else an empty file.
func globTree(t *testing.T, dir string, entries ...string) {
	t.Helper()
	for _, e := range entries {
		path := filepath.Join(dir, e)
		var err error
		switch name, target, link := strings.Cut(e, " -> "); {
		case link:
			err = os.Symlink(target, filepath.Join(dir, name))
		case strings.HasSuffix(e, "/"):
			err = os.MkdirAll(path, 0o755)
		default:
			if err = os.MkdirAll(filepath.Dir(path), 0o755); err == nil {
				err = os.WriteFile(path, nil, 0o644)
			}
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// bashExpands runs bash in dir and returns, for each word (shell source),
// the words bash expands it to, in the locale given.
func bashExpands(t *testing.T, dir, locale string, words []string) [][]string {
	t.Helper()
	var script strings.Builder
	for _, w := range words {
		fmt.Fprintf(&script, "printf '%%s\\n' %s; echo @@end@@\n", w)
	}
	cmd := exec.Command("bash", "-c", script.String())
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "LC_ALL="+locale)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("bash: %v", err)
	}
	var all [][]string
	for _, block := range strings.Split(string(out), "@@end@@\n")[:len(words)] {
		all = append(all, strings.Split(strings.TrimSuffix(block, "\n"), "\n"))
	}
	return all
}

// ourExpansion expands a word as the analysis and ExpandGlob do, relative
// to dir. Matches of "." and ".." (which bash 5.2 skips) are left out, and
// when nothing else is left the word itself is, as bash passes it on; the
// word itself is also there when a name matched in one locale only.
func ourExpansion(t *testing.T, dir, src string) (paths, words []string) {
	t.Helper()
	a, err := Analyze("cat " + src)
	if err != nil || len(a.Reads) != 1 {
		t.Fatalf("Analyze(cat %s): %v, %d reads", src, err, len(a.Reads))
	}
	r := a.Reads[0]
	if !r.Dynamic {
		return []string{r.Path}, nil
	}
	var out []string
	for _, p := range r.Globs {
		words = append(words, unescapeGlob(p))
		paths, err := ExpandGlob(p, dir)
		if err != nil {
			t.Fatalf("ExpandGlob(%q): %v", p, err)
		}
		var kept []string
		for _, path := range paths {
			rel := strings.TrimPrefix(path, dir+"/")
			if base := filepath.Base(rel); base != "." && base != ".." {
				kept = append(kept, rel)
			}
		}
		if len(kept) == 0 {
			kept = []string{unescapeGlob(p)}
		}
		out = append(out, kept...)
	}
	return out, words
}

// TestExpandGlobMatchesBash proves ExpandGlob against bash itself: for each
// word, the analysis finds every path bash finds in the UTF-8 and in the C
// locale, and nothing more but "." and ".." (which bash before 5.2 found)
// and the word itself (when a name matched in one locale only).
func TestExpandGlobMatchesBash(t *testing.T) {
	for _, tree := range []struct {
		entries, words []string
	}{
		{
			entries: []string{"a.txt", "b.txt", ".hidden", ".env", ".env.local", "sub/one.txt", "sub/.two",
				"private/notes.txt", "sp ace.txt", "é.txt", "[x].txt", "-rf", "star*", "q?", "ab]c", "x",
				"emptydir/", "dirlink -> sub", "dangling -> nowhere", "UPPER.TXT"},
			words: []string{`*`, `*.txt`, `.*`, `?.txt`, `??.txt`, `[ab].txt`, `[!a].txt`, `[^a]*`, `[a-c]*`,
				`[z-a]*`, `*/`, `*/*`, `*/one.txt`, `priv*/notes.txt`, `p?ivate/*`, `[p]rivate/*`, `nomatch*`,
				`sub/.*`, `.e*`, `'star'*`, `star\*`, `"sp ace"*`, `*' '*`, `\[x\].txt`, `[[]x].txt`, `*]*`,
				`[]]*`, `ab]*`, `*.TXT`, `[.]*`, `\.*`, `**/one.txt`, `*/../*.txt`, `dirlink/*`, `dang*`,
				`emptydir/*`, `x/*`, `{a,b}.txt`, `{a,b}*`, `sub*/`, `[a-]*`, `[!.]*`, `?`, `.?`, `*[`, `a[`,
				`*/.*`, `sub/*/`, `./*.txt`, `sub//*`, `[\]]*`, `"*"`, `*"*"*`, `priv*/`, `{priv,sub}*/*`},
		},
		{
			entries: []string{"a1", "B2", "c_3", "d-4", " e", "f\tg"},
			words: []string{`[[:alpha:]]*`, `[[:digit:]]*`, `*[[:digit:]]`, `[[:upper:]]*`, `[[:lower:]]*`,
				`[[:alnum:]][[:alnum:]]`, `*[[:punct:]]*`, `[[:space:]]*`, `*[[:blank:]]*`, `[![:alpha:]]*`,
				`[[:word:]]*`, `[[:xdigit:]]*`},
		},
	} {
		dir := t.TempDir()
		globTree(t, dir, tree.entries...)
		utf8 := bashExpands(t, dir, "C.UTF-8", tree.words)
		c := bashExpands(t, dir, "C", tree.words)
		for i, w := range tree.words {
			want := union(utf8[i], c[i])
			paths, words := ourExpansion(t, dir, w)
			got := union(paths)
			missing := slices.DeleteFunc(slices.Clone(want), func(p string) bool { return slices.Contains(got, p) })
			extra := slices.DeleteFunc(got, func(p string) bool { return slices.Contains(want, p) || slices.Contains(words, p) })
			if len(missing) > 0 || len(extra) > 0 {
				t.Errorf("%s: missing %q, extra %q; bash gives %q", w, missing, extra, want)
			}
		}
	}
}

func union(lists ...[]string) []string {
	var all []string
	for _, l := range lists {
		all = append(all, l...)
	}
	slices.Sort(all)
	return slices.Compact(all)
}

// TestExpandGlobAddsDotEntries proves the superset over bash 5.2: a pattern
// starting with a dot also gives "." and "..", as older bash did.
func TestExpandGlobAddsDotEntries(t *testing.T) {
	dir := t.TempDir()
	globTree(t, dir, ".env", "sub/")
	got, err := ExpandGlob(".*", dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{dir + "/.", dir + "/..", dir + "/.env"}
	if !slices.Equal(union(got), want) {
		t.Errorf("ExpandGlob(.*) = %q, want %q", got, want)
	}
	if got, _ := ExpandGlob(".*/", dir); !slices.Equal(union(got), []string{dir + "/../", dir + "/./"}) {
		t.Errorf("ExpandGlob(.*/) = %q, want the two dot directories", got)
	}
}

// TestExpandGlobFailsClosed proves that an expansion that cannot be decided
// returns an error, with what it found or the directories every match lies
// under.
func TestExpandGlobFailsClosed(t *testing.T) {
	dir := t.TempDir()
	var many []string
	for i := range MaxGlobMatches + 1 {
		many = append(many, fmt.Sprintf("big/f%04d", i))
	}
	globTree(t, dir, append(many, "locale/é", "locale/a", "sub/x")...)
	for _, tc := range []struct {
		pattern string
		err     error
		under   string
	}{
		{"big/*", errGlobTooLarge, dir + "/big/"},
		{"big/f*/x", errGlobTooLarge, dir + "/big/"},
		{"locale/[[:alpha:]]", errLocaleClass, dir + "/locale"},
		{"locale/[[=a=]]", errLocaleClass, dir + "/locale"},
		{"locale/[[.a.]]", errLocaleClass, dir + "/locale"},
		{"locale/[[:nonsense:]]", errLocaleClass, dir + "/locale"},
		{strings.Repeat("[", maxGlobComponent+1) + "*", errGlobTooLarge, dir},
	} {
		paths, err := ExpandGlob(tc.pattern, dir)
		if !errors.Is(err, tc.err) {
			t.Errorf("%s: error %v, want %v", tc.pattern, err, tc.err)
		}
		if len(paths) == 0 || !strings.HasPrefix(paths[0], tc.under) {
			t.Errorf("%s: paths %q, want some under %s", tc.pattern, paths[:min(len(paths), 3)], tc.under)
		}
	}
	if paths, err := ExpandGlob("locale/[[:alpha:]]", filepath.Join(dir, "sub")); err != nil || len(paths) != 1 {
		t.Errorf("a class over no directory: %q, %v; want the word itself", paths, err)
	}
}

// TestUnreadableDirectoryFailsClosed proves that a directory that cannot be
// read, unlike one that does not exist, leaves the expansion undecided.
func TestUnreadableDirectoryFailsClosed(t *testing.T) {
	denied := errors.New("permission denied")
	g := &globber{root: "/p", list: func(dir string) ([]string, bool, error) {
		if dir == "locked" {
			return nil, true, denied
		}
		return []string{"locked", "open"}, true, nil
	}}
	paths, err := g.expand([]string{"*", "x*"})
	if !errors.Is(err, denied) || !slices.Equal(paths, []string{"locked", "open"}) {
		t.Errorf("expand = %q, %v; want the candidate directories and the error", paths, err)
	}
	if paths, err := ExpandGlob("missing/*/x*", t.TempDir()); err != nil || len(paths) != 1 {
		t.Errorf("a missing directory: %q, %v; want the word itself and no error", paths, err)
	}
}

// TestExpandGlobDoesNotOpenFIFOs proves that a pattern passing through a
// FIFO neither blocks nor fails: a FIFO has no entries.
func TestExpandGlobDoesNotOpenFIFOs(t *testing.T) {
	dir := t.TempDir()
	if err := mkfifo(filepath.Join(dir, "pipe")); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	paths, err := ExpandGlob("*/x*", dir)
	if err != nil || !slices.Equal(paths, []string{dir + "/*/x*"}) {
		t.Errorf("ExpandGlob(*/x*) = %q, %v; want the word itself", paths, err)
	}
}

func mkfifo(path string) error { return exec.Command("mkfifo", path).Run() }

// TestLiteralPatternsTouchNothing proves that a pattern without an unquoted
// glob character (a brace list, a quoted star) is the path itself, found
// without reading the file system.
func TestLiteralPatternsTouchNothing(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "does-not-exist")
	for pattern, want := range map[string]string{
		`a.txt`: dir + "/a.txt", `\*`: dir + "/*", `/etc/\*`: "/etc/*", `a[`: dir + "/a[", ``: dir,
	} {
		paths, err := ExpandGlob(pattern, dir)
		if err != nil || !slices.Equal(paths, []string{want}) {
			t.Errorf("ExpandGlob(%q) = %q, %v; want %s", pattern, paths, err, want)
		}
	}
}

// TestGlobLookupsAreBounded proves that every look-up of an expansion
// (reading a directory, checking that a name exists, that a match is a
// directory) counts against maxGlobLookups, past which it is undecided.
func TestGlobLookupsAreBounded(t *testing.T) {
	dir := t.TempDir()
	globTree(t, dir, "sub/x")
	for _, comps := range [][]string{{"*"}, {"s*", "x"}, {"s*", ""}} {
		g := &globber{root: dir}
		g.list = g.readNames
		g.lookups = maxGlobLookups - 1
		if _, err := g.expand(comps); !errors.Is(err, errGlobTooLarge) {
			t.Errorf("%q at the limit: %v, want too large", comps, err)
		}
		g.lookups = 0
		if _, err := g.expand(comps); err != nil {
			t.Errorf("%q: %v", comps, err)
		}
	}
}

package filewalk

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// tree writes files (path → content) under a new temporary directory; a path
// ending in "/" is an empty directory and "link -> target" a symbolic link.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for path, content := range files {
		full := filepath.Join(root, path)
		if name, target, ok := strings.Cut(path, " -> "); ok {
			os.MkdirAll(filepath.Dir(filepath.Join(root, name)), 0o755)
			if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if strings.HasSuffix(path, "/") {
			os.MkdirAll(full, 0o755)
			continue
		}
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func walkAll(t *testing.T, opts Options) []string {
	t.Helper()
	w, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var got []string
	err = w.Walk(context.Background(), func(_ int, f File) error {
		mu.Lock()
		got = append(got, f.Rel)
		mu.Unlock()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	return got
}

var vcsGlobs = []string{"!.git", "!.svn", "!.hg", "!.bzr", "!.jj", "!.sl"}

var walkCases = []struct {
	name   string
	files  map[string]string
	globs  []string
	types  []string
	ignore bool
	want   []string
}{
	{
		name: "gitignore in a repository, nested and anchored rules, negation",
		files: map[string]string{
			".git/HEAD": "ref", ".gitignore": "*.log\n/build/\n!keep.log\nnode_modules\n",
			"a.log": "", "keep.log": "", "src/b.log": "", "src/main.go": "", "build/out": "", "src/build/x": "",
			"node_modules/m.js": "", "src/.gitignore": "/local.txt\ndeep/*.tmp\n", "src/local.txt": "",
			"src/sub/local.txt": "", "src/deep/a.tmp": "", "src/deep/more/b.tmp": "", ".hidden/h.txt": "",
		},
		globs: vcsGlobs, ignore: true,
		want: []string{".gitignore", ".hidden/h.txt", "keep.log", "src/.gitignore", "src/build/x", "src/deep/more/b.tmp", "src/main.go", "src/sub/local.txt"},
	},
	{
		name:  ".gitignore outside a repository does not count, .ignore and .rgignore do",
		files: map[string]string{".gitignore": "a.txt\n", ".ignore": "b.txt\n", ".rgignore": "!b.txt\nc.txt\n", "a.txt": "", "b.txt": "", "c.txt": ""},
		globs: vcsGlobs, ignore: true,
		want: []string{".gitignore", ".ignore", ".rgignore", "a.txt", "b.txt"},
	},
	{
		name:  "a selecting glob wins over .gitignore for files, not inside ignored directories",
		files: map[string]string{".git/HEAD": "", ".gitignore": "*.txt\nvendor/\n", "a.txt": "", "b.go": "", "vendor/c.txt": ""},
		globs: append(slices.Clone(vcsGlobs), "*.txt"), ignore: true,
		want: []string{"a.txt"},
	},
	{
		name:  "globs with a slash are anchored, braces and exclusions",
		files: map[string]string{"src/a.ts": "", "src/b.tsx": "", "lib/src/c.ts": "", "d.js": "", "src/e.test.ts": ""},
		globs: []string{"src/*.{ts,tsx}", "!*.test.ts"},
		want:  []string{"src/a.ts", "src/b.tsx"},
	},
	{
		name:  "types select by file name and leave directories alone",
		files: map[string]string{"a.go": "", "b.py": "", "sub/c.go": "", "Makefile": "", "x.h": ""},
		types: []string{"go", "c"},
		want:  []string{"a.go", "sub/c.go", "x.h"},
	},
	{
		name:  "symbolic links are not followed and VCS folders are skipped",
		files: map[string]string{"real/a.txt": "", "linkdir -> real": "", "link.txt -> real/a.txt": "", ".git/config": "", ".hg/x": "", "sub/.git": "gitdir: nowhere"},
		globs: vcsGlobs, ignore: true,
		want: []string{"real/a.txt"},
	},
	{
		name:  "no-ignore keeps ignored files",
		files: map[string]string{".git/HEAD": "", ".gitignore": "*.txt\n", "a.txt": ""},
		globs: vcsGlobs,
		want:  []string{".gitignore", "a.txt"},
	},
}

func TestWalk(t *testing.T) {
	for _, tt := range walkCases {
		t.Run(tt.name, func(t *testing.T) {
			root := tree(t, tt.files)
			got := walkAll(t, Options{Root: root, Ignore: tt.ignore, Globs: tt.globs, Types: tt.types})
			if !slices.Equal(got, tt.want) {
				t.Errorf("walk found\n  %q\nwant\n  %q", got, tt.want)
			}
		})
	}
}

// TestWalkMatchesRipgrep runs every case through `rg --files` too, when rg is
// installed, and requires the same files.
func TestWalkMatchesRipgrep(t *testing.T) {
	rg, err := exec.LookPath("rg")
	if err != nil {
		t.Skip("rg is not installed")
	}
	for _, tt := range walkCases {
		t.Run(tt.name, func(t *testing.T) {
			root := tree(t, tt.files)
			args := []string{"--no-config", "--files", "--hidden", "--no-follow"}
			if !tt.ignore {
				args = append(args, "--no-ignore")
			}
			for _, g := range tt.globs {
				args = append(args, "--glob", g)
			}
			for _, ty := range tt.types {
				args = append(args, "--type", ty)
			}
			cmd := exec.Command(rg, append(args, ".")...)
			cmd.Dir = root
			out, _ := cmd.Output()
			var want []string
			for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
				if line != "" {
					want = append(want, strings.TrimPrefix(line, "./"))
				}
			}
			slices.Sort(want)
			got := walkAll(t, Options{Root: root, Ignore: tt.ignore, Globs: tt.globs, Types: tt.types})
			if !slices.Equal(got, want) {
				t.Errorf("walk found\n  %q\nrg found\n  %q", got, want)
			}
		})
	}
}

func TestParentIgnoreFilesApply(t *testing.T) {
	root := tree(t, map[string]string{".git/HEAD": "", ".gitignore": "sub/skip.txt\n*.tmp\n", "sub/skip.txt": "", "sub/keep.txt": "", "sub/a.tmp": ""})
	got := walkAll(t, Options{Root: filepath.Join(root, "sub"), Ignore: true})
	if !slices.Equal(got, []string{"keep.txt"}) {
		t.Errorf("walk of a subdirectory found %q, want only keep.txt: the repository's .gitignore applies", got)
	}
}

func TestUnknownType(t *testing.T) {
	_, err := New(Options{Root: t.TempDir(), Types: []string{"nosuchtype"}})
	if err == nil || !strings.Contains(err.Error(), `unknown file type "nosuchtype"`) {
		t.Errorf("err = %v, want an unknown-type error", err)
	}
}

func TestWalkStopsEarly(t *testing.T) {
	files := map[string]string{}
	for _, d := range []string{"a", "b", "c", "d"} {
		for _, f := range []string{"1", "2", "3"} {
			files[d+"/"+f] = ""
		}
	}
	root := tree(t, files)
	w, _ := New(Options{Root: root, Workers: 1})
	n := 0
	err := w.Walk(context.Background(), func(int, File) error {
		n++
		if n == 2 {
			return SkipAll
		}
		return nil
	})
	if err != nil || n != 2 {
		t.Errorf("visited %d files, err %v; want 2 and no error after SkipAll", n, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := w.Walk(ctx, func(int, File) error { return nil }); err == nil {
		t.Error("a cancelled walk returned no error")
	}
}

package shell

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestMayRunGitUnlessEveryProgramIsKnownNotTo(t *testing.T) {
	for cmd, want := range map[string]bool{
		"ls -la && cat a.txt | grep x":    false,
		"rm -f x && mkdir y && cp a b":    false,
		"echo hi > out.txt":               false,
		"git status":                      true,
		"/usr/bin/git log":                true,
		"ls; git diff":                    true,
		"find . -name '*.go' | xargs git": true,
		"go build ./...":                  true, // runs git status to stamp the binary
		"make test":                       true,
		"$cmd status":                     true,
		"bash -c 'git status'":            true,
		"sed -i s/a/b/ f":                 true, // not read-only, and sed can run commands
	} {
		a, err := Analyze(cmd)
		if err != nil {
			t.Fatal(err)
		}
		if got := mayRunGit(a); got != want {
			t.Errorf("mayRunGit(%q) = %v, want %v", cmd, got, want)
		}
	}
}

func TestGitDirsFollowsCdAndDashC(t *testing.T) {
	env := []string{"HOME=/home/u"}
	for _, tc := range []struct {
		cmd     string
		dirs    []string
		unknown bool
	}{
		{"git status", []string{"/w"}, false},
		{"cd sub && git status", []string{"/w", "/w/sub"}, false},
		{"cd a && cd b && git status", []string{"/w", "/w/a", "/w/b", "/w/a/b"}, false},
		{"cd /abs; git log", []string{"/w", "/abs"}, false},
		{"cd ~/src && git diff", []string{"/w", "/home/u/src"}, false},
		{"git -C sub -C deeper status", []string{"/w", "/w/sub/deeper"}, false},
		{"cd a && git -C ../b status", []string{"/w", "/w/a", "/b", "/w/b"}, false},
		{`cd "$d" && git status`, []string{"/w"}, true},
		{"cd - && git status", []string{"/w"}, true},
		{`git -C "$d" status`, []string{"/w"}, true},
		{"git --git-dir=/x/.git log", []string{"/w"}, true},
		{"GIT_DIR=/x/.git git log", []string{"/w"}, true},
		{"export GIT_DIR=/x/.git; git log", []string{"/w"}, true},
		{"GIT_INDEX_FILE=/tmp/i git status", []string{"/w"}, true},
		{"env -C /x git status", []string{"/w"}, true},
		{"popd; git status", []string{"/w"}, true},
		{`find . -name .git -execdir git status \;`, []string{"/w"}, true},
		{`find . -type d -exec git -C {} log \;`, []string{"/w"}, true},
		{"ls | xargs git log", []string{"/w"}, true},
	} {
		a, err := Analyze(tc.cmd)
		if err != nil {
			t.Fatal(err)
		}
		dirs, unknown := gitDirs(a, "/w", env)
		if !slices.Equal(dirs, tc.dirs) || unknown != tc.unknown {
			t.Errorf("gitDirs(%q) = %q %v, want %q %v", tc.cmd, dirs, unknown, tc.dirs, tc.unknown)
		}
	}
	if dirs, unknown := gitDirs(nil, "/w", env); !slices.Equal(dirs, []string{"/w"}) || !unknown {
		t.Errorf("a line that does not parse: %q %v, want [/w] and unknown", dirs, unknown)
	}
}

// Reading a repository runs nothing of it: a repository where every
// vector is armed, the index refreshable, a nested repository armed too.
func TestReadingTheConfigurationRunsNothing(t *testing.T) {
	l := newGitLab(t)
	sub := filepath.Join(l.dir, "sub")
	l.initRepo(sub)
	l.gitIn(sub, "", "config", "core.fsmonitor", l.mark)
	l.git("add", "sub")
	l.git("commit", "-q", "-m", "nested")
	l.write(".gitattributes", "* filter=evil diff=evil\n")
	l.hook(".git/hooks/post-index-change")
	l.config("core.fsmonitor", l.mark, "filter.evil.clean", l.mark, "filter.evil.process", l.mark,
		"diff.evil.textconv", l.mark, "diff.external", l.mark, "core.pager", l.mark, "pager.config", l.mark,
		"pager.ls-files", l.mark, "alias.config", "!"+l.mark, "gpg.program", l.mark, "credential.helper", "!"+l.mark)
	l.write("a.txt", "HELLO\n")
	env, err := UntrustedGitEnv(context.Background(), "git status", l.dir, l.env)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(l.marker); err == nil {
		t.Fatal("reading the repositories ran a program of theirs")
	}
	for _, key := range []string{"diff.evil.textconv", "filter.evil.process", "pager.ls-files", "alias.config"} {
		if !guardsKey(env, key) {
			t.Errorf("the guard lacks %s", key)
		}
	}
}

// guardsKey reports whether env gives git a value for key.
func guardsKey(env []string, key string) bool {
	return slices.ContainsFunc(env, func(kv string) bool {
		name, ok := strings.CutSuffix(kv, "="+key)
		return ok && strings.HasPrefix(name, "GIT_CONFIG_KEY_")
	})
}

func TestUntrustedGitEnvCostsNothingWithoutGitOrRepository(t *testing.T) {
	l := newGitLab(t)
	l.config("diff.evil.textconv", l.mark)
	outside := t.TempDir()
	for _, tc := range []struct{ name, command, dir string }{
		{"a line that runs no git, in a repository", "ls -la && cat a.txt", l.dir},
		{"git outside any repository", "git status", outside},
		{"git cloning outside any repository", "git clone https://example.com/x.git && ls", outside},
	} {
		env, err := UntrustedGitEnv(context.Background(), tc.command, tc.dir, l.env)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(env, l.env) {
			t.Errorf("%s: the environment changed", tc.name)
		}
	}
}

func TestUntrustedGitEnvAppliesAlwaysKeysWhereTheDirectoryIsUnknown(t *testing.T) {
	l := newGitLab(t)
	env, err := UntrustedGitEnv(context.Background(), `cd "$1" && git status`, t.TempDir(), l.env)
	if err != nil {
		t.Fatal(err)
	}
	if !guardsKey(env, "core.fsmonitor") || !guardsKey(env, "core.hookspath") {
		t.Errorf("the always keys are missing: %q", env[len(l.env):])
	}
}

func TestUntrustedGitEnvRefusesAConfigurationGitCannotRead(t *testing.T) {
	l := newGitLab(t)
	l.write(".git/config", "[core\n")
	_, err := UntrustedGitEnv(context.Background(), "git status", l.dir, l.env)
	if err == nil || !strings.Contains(err.Error(), "read the git configuration") {
		t.Errorf("err %v, want one saying the configuration could not be read", err)
	}
}

func TestUntrustedGitEnvWithoutGitInstalled(t *testing.T) {
	l := newGitLab(t)
	t.Setenv("PATH", t.TempDir())
	env, err := UntrustedGitEnv(context.Background(), "git status", l.dir, l.env)
	if err != nil || !slices.Equal(env, l.env) {
		t.Errorf("got %v, %v; want the environment unchanged: no command can run git", err, env)
	}
}

func TestMayHaveGitlinksScansTheWholeIndex(t *testing.T) {
	dir := t.TempDir()
	big := bytes.Repeat([]byte{1}, 256<<10-2)
	for _, tc := range []struct {
		name    string
		content []byte
		want    bool
	}{
		{"no index", nil, false},
		{"plain entries", bytes.Repeat([]byte{0, 0, 0x81, 0xa4}, 100), false},
		{"a gitlink", append(bytes.Repeat([]byte{1}, 10), gitlinkMode...), true},
		{"a gitlink across two reads", append(slices.Clone(big), gitlinkMode...), true},
		{"a path with link in it", []byte("DIRC....src/linker.c...."), false},
		{"a split index", []byte("DIRC....link...."), true},
	} {
		index := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-"), "index")
		if err := os.MkdirAll(filepath.Dir(index), 0o755); err != nil {
			t.Fatal(err)
		}
		if tc.content != nil {
			if err := os.WriteFile(index, tc.content, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if tc.name == "a split index" {
			if err := os.WriteFile(filepath.Join(filepath.Dir(index), "sharedindex.0123"), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if got := mayHaveGitlinks(index); got != tc.want {
			t.Errorf("%s: mayHaveGitlinks = %v, want %v", tc.name, got, tc.want)
		}
	}
	if !mayHaveGitlinks("") {
		t.Error("an index that cannot be told is assumed to have none")
	}
}

// BenchmarkUntrustedGitEnv measures preparing a command's environment in a
// folder the user has not trusted.
func BenchmarkUntrustedGitEnv(b *testing.B) {
	l := newGitLab(b)
	l.config("diff.evil.textconv", l.mark, "filter.evil.clean", l.mark)
	outside := b.TempDir()
	withSub := newGitLab(b)
	sub := filepath.Join(withSub.dir, "sub")
	withSub.initRepo(sub)
	withSub.git("add", "sub")
	withSub.git("commit", "-q", "-m", "nested")
	for _, bc := range []struct{ name, command, dir string }{
		{"no git", "ls -la && cat a.txt | grep x", l.dir},
		{"git outside a repository", "git status", outside},
		{"git in a repository", "git status", l.dir},
		{"git in a repository with a nested one", "git status", withSub.dir},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := UntrustedGitEnv(context.Background(), bc.command, bc.dir, l.env); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// What git writes into a repository's configuration as it is cloned and
// worked in is known to the guard: ordinary repositories are not asked about.
func TestOrdinaryRepositoriesSetOnlyKnownKeys(t *testing.T) {
	l := newGitLab(t)
	lib := filepath.Join(l.root, "lib")
	l.initRepo(lib)
	l.git("-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "lib")
	l.write("docs/index.md", "docs\n")
	l.git("add", "docs")
	l.git("commit", "-q", "-m", "submodule and docs")
	clone := filepath.Join(l.root, "clone")
	l.gitIn(l.root, "", "-c", "protocol.file.allow=always", "clone", "-q", "--filter=blob:none", "--recurse-submodules", "file://"+l.dir, clone)
	for _, args := range [][]string{
		{"sparse-checkout", "set", "--cone", "docs"},
		{"worktree", "add", "-q", filepath.Join(l.root, "wt")},
		{"remote", "add", "upstream", "https://example.com/x.git"},
		{"branch", "-q", "--set-upstream-to=origin/main"},
		{"config", "pull.rebase", "true"},
		{"config", "user.name", "Someone"},
		{"config", "core.autocrlf", "input"},
		{"config", "extensions.worktreeConfig", "true"},
		{"config", "--worktree", "core.sparseCheckoutCone", "true"},
		{"gc", "-q"},
	} {
		l.gitIn(clone, "", args...)
	}
	for _, dir := range []string{clone, filepath.Join(clone, "lib"), filepath.Join(l.root, "wt")} {
		entries, err := listConfig(context.Background(), dir, l.env)
		if err != nil {
			t.Fatal(err)
		}
		if unknown := unknownKeys([][]configEntry{entries}); len(unknown) > 0 {
			t.Errorf("%s: unknown keys %q", dir, unknown)
		}
	}
}

func TestUnknownGitKeysOfTheRepositoriesALineUses(t *testing.T) {
	l := newGitLab(t)
	sub := filepath.Join(l.dir, "sub")
	l.initRepo(sub)
	l.gitIn(sub, "", "config", "lfs.customtransfer.x.path", l.mark)
	l.config("gitflow.branch.master", "main")
	for _, tc := range []struct {
		command string
		want    []string
	}{
		{"git status", []string{"gitflow.branch.master"}},
		{"cd sub && git status", []string{"gitflow.branch.master", "lfs.customtransfer.x.path"}},
		{"ls -la", nil},
	} {
		a, err := Analyze(tc.command)
		if err != nil {
			t.Fatal(err)
		}
		if got := UnknownGitKeys(context.Background(), a, l.dir, l.env); !slices.Equal(got, tc.want) {
			t.Errorf("%q: %q, want %q", tc.command, got, tc.want)
		}
	}
}

// BenchmarkUnknownGitKeys measures what the permission check of a Bash
// command adds in a folder the user has not trusted: the same reading of the
// repositories as UntrustedGitEnv's, before the command is run.
func BenchmarkUnknownGitKeys(b *testing.B) {
	l := newGitLab(b)
	l.config("gitflow.branch.master", "main")
	a, err := Analyze("git status")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if keys := UnknownGitKeys(context.Background(), a, l.dir, l.env); len(keys) != 1 {
			b.Fatalf("keys %q", keys)
		}
	}
}

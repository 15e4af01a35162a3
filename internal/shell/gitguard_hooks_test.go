package shell

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Keys of newer git than Debian's 2.39: their vectors run the newest git the
// machine has.

// requireGit puts first on PATH, for the test, a git of version major.minor
// or later: the one on PATH, else one built at /tmp/gbin; the lab, the guard
// and the command all run it. Without one the test is skipped, saying what
// it needs. It is called before any lab is made, and not from a parallel
// test.
func requireGit(t *testing.T, major, minor int, feature string) {
	t.Helper()
	candidates := []string{"/tmp/gbin/git"}
	if path, err := exec.LookPath("git"); err == nil {
		candidates = append([]string{path}, candidates...)
	}
	for _, git := range candidates {
		out, err := exec.Command(git, "--version").Output()
		m := regexp.MustCompile(`git version (\d+)\.(\d+)`).FindSubmatch(out)
		if err != nil || m == nil {
			continue
		}
		gotMajor, _ := strconv.Atoi(string(m[1]))
		gotMinor, _ := strconv.Atoi(string(m[2]))
		if gotMajor > major || gotMajor == major && gotMinor >= minor {
			t.Setenv("PATH", filepath.Dir(git)+string(os.PathListSeparator)+os.Getenv("PATH"))
			return
		}
	}
	t.Skipf("this test needs git %d.%d or later (%s), on PATH or at /tmp/gbin/git; the git here is older and cannot run it", major, minor, feature)
}

func TestGuardConfiguredHooks(t *testing.T) {
	requireGit(t, 2, 54, "configured hooks")
	testVectors(t, []gitVector{
		{name: "a hook the configuration defines runs when status refreshes the index", command: "touch new.txt a.txt && git status --short",
			want: "?? new.txt", setup: func(l *gitLab) {
				l.config("hook.pwn.event", "post-index-change", "hook.pwn.command", l.mark)
			}},
		{name: "a hook the configuration defines runs on commit through reference-transaction, which reads its input",
			command: "git commit -q --allow-empty -m second && git log -1 --format=%s", want: "second",
			setup: func(l *gitLab) { l.config("hook.pwn.event", "reference-transaction", "hook.pwn.command", l.touch()) }},
		{name: "the user's own hook of the same name keeps the user's command", command: "touch new.txt a.txt && git status --short",
			want: "the user's hook", setup: func(l *gitLab) {
				l.write(l.global, "[hook \"lint\"]\n\tcommand = echo \"the user's hook\" >&2\n")
				l.config("hook.lint.event", "post-index-change", "hook.lint.command", l.touch())
			}},
		{name: "alias.<name>.command runs a shell command", command: "git st", want: "expansion of alias 'st' failed",
			setup: func(l *gitLab) { l.config("alias.st.command", "!"+l.mark) }},
	})
}

// git gc, prune and repack (git 2.42 on) run every gc.recentObjectsHook, the
// repository's too: no value given after it takes it back, so the guard runs
// no git command at all there.
func TestGuardRefusesGCRecentObjectsHook(t *testing.T) {
	requireGit(t, 2, 42, "gc.recentObjectsHook")
	l := newGitLab(t)
	id := strings.TrimSpace(l.gitIn(l.dir, "unreachable\n", "hash-object", "-w", "--stdin"))
	old := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := os.Chtimes(filepath.Join(l.dir, ".git", "objects", id[:2], id[2:]), old, old); err != nil {
		t.Fatal(err)
	}
	l.config("gc.recentObjectsHook", l.touch())
	if out, ran := l.run("git prune", false); !ran {
		t.Fatalf("control: git prune did not run the repository's program, so the test proves nothing; output:\n%s", out)
	}
	if err := os.Remove(l.marker); err != nil {
		t.Fatal(err)
	}
	for _, command := range []string{"git prune", "git status"} {
		_, err := UntrustedGitEnv(context.Background(), command, l.dir, l.env)
		if err == nil || !strings.Contains(err.Error(), "gc.recentobjectshook") {
			t.Errorf("%s: err %v, want one naming gc.recentobjectshook", command, err)
		}
	}
	if _, err := os.Stat(l.marker); err == nil {
		t.Error("refusing ran the repository's program")
	}
	if env, err := UntrustedGitEnv(context.Background(), "ls -la", l.dir, l.env); err != nil || len(env) != len(l.env) {
		t.Errorf("a line that runs no git: %v, want it to run unchanged", err)
	}
}

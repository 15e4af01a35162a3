// Package worktreetest makes the git repositories the worktree tests work
// on: one commit on main holding base.txt, by a fixed author.
package worktreetest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Repo makes dir a git repository on main with one commit holding base.txt
// ("base\n") and returns dir with its symbolic links resolved, as git names it.
func Repo(t testing.TB, dir string) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "base.txt"), []byte("base\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "."}, {"commit", "-qm", "initial"}} {
		Git(t, dir, args...)
	}
	return dir
}

// Git runs git in dir as the author t <t@example.com> and returns its
// output; t fails when git does.
func Git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v: %s", args, err, out)
	}
	return string(out)
}

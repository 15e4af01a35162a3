package worktreetest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRepoHasOneCommitOnMainWithBaseTxt(t *testing.T) {
	link := filepath.Join(t.TempDir(), "link")
	target := t.TempDir()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	dir := Repo(t, link)
	if want, _ := filepath.EvalSymlinks(target); dir != want {
		t.Errorf("Repo = %s, want the resolved %s", dir, want)
	}
	tests := []struct{ args, want string }{
		{"branch --show-current", "main\n"},
		{"log --format=%s|%an", "initial|t\n"},
		{"ls-files", "base.txt\n"},
		{"status --short", ""},
	}
	for _, tt := range tests {
		if got := Git(t, dir, strings.Fields(tt.args)...); got != tt.want {
			t.Errorf("git %s = %q, want %q", tt.args, got, tt.want)
		}
	}
}

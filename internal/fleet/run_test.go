package fleet

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", args[0], err, out)
	}
}

func TestGitDiffShowsChangedAndNewFilesAndLeavesTheIndexAlone(t *testing.T) {
	dir := t.TempDir()
	git(t, dir, "init", "-q")
	os.WriteFile(filepath.Join(dir, "kept.txt"), []byte("one\n"), 0o644)
	git(t, dir, "add", "kept.txt")
	git(t, dir, "commit", "-q", "-m", "start")
	os.WriteFile(filepath.Join(dir, "kept.txt"), []byte("two\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "new.txt"), []byte("fresh\n"), 0o644)
	indexBefore, _ := os.ReadFile(filepath.Join(dir, ".git", "index"))

	diff, err := gitDiff(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"-one", "+two", "new file mode", "+fresh"} {
		if !strings.Contains(diff, want) {
			t.Errorf("diff lacks %q:\n%s", want, diff)
		}
	}
	if indexAfter, _ := os.ReadFile(filepath.Join(dir, ".git", "index")); string(indexAfter) != string(indexBefore) {
		t.Error("the repository's index changed")
	}
}

func TestGitDiffOfARepositoryWithoutCommitsAndOfAPlainFolder(t *testing.T) {
	repo := t.TempDir()
	git(t, repo, "init", "-q")
	os.WriteFile(filepath.Join(repo, "a.txt"), []byte("a\n"), 0o644)
	if diff, err := gitDiff(context.Background(), repo); err != nil || !strings.Contains(diff, "+a") {
		t.Errorf("repository without commits: %q, %v", diff, err)
	}
	if diff, err := gitDiff(context.Background(), t.TempDir()); err != nil || diff != "" {
		t.Errorf("plain folder: %q, %v", diff, err)
	}
}

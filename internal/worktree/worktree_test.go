package worktree

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/worktree/worktreetest"
)

func TestCheckNameAcceptsClaudeCodesNames(t *testing.T) {
	tests := []struct {
		name string
		ok   bool
	}{
		{"feat", true},
		{"fix/login-page", true},
		{"v1.2_rc", true},
		{"", false},
		{"main: do the task.", false},
		{"a//b", false},
		{"/abs", false},
		{"../escape", false},
		{"a/./b", false},
		{strings.Repeat("x", 64), true},
		{strings.Repeat("x", 65), false},
	}
	for _, tt := range tests {
		err := CheckName(tt.name)
		if (err == nil) != tt.ok {
			t.Errorf("CheckName(%q) = %v, want ok %v", tt.name, err, tt.ok)
		}
	}
}

func TestRandomNameIsAValidName(t *testing.T) {
	for range 50 {
		name := RandomName()
		if err := CheckName(name); err != nil || strings.Count(name, "-") != 2 {
			t.Fatalf("RandomName() = %q (%v), want three words joined by dashes", name, err)
		}
	}
}

func TestCreateMakesWorktreeAndBranchUnderTheMainCheckout(t *testing.T) {
	ctx := context.Background()
	repo := worktreetest.Repo(t, t.TempDir())
	sub := filepath.Join(repo, "pkg")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	tree, err := Create(ctx, sub, "feat")
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(repo, ".mini-claude", "worktrees", "feat")
	if tree.Path != want || tree.Branch != "worktree-feat" || tree.Repo != repo {
		t.Fatalf("Create = %+v, want path %s on worktree-feat", tree, want)
	}
	if got := worktreetest.Git(t, tree.Path, "branch", "--show-current"); got != "worktree-feat\n" {
		t.Errorf("branch in the worktree = %q", got)
	}
	if data, err := os.ReadFile(filepath.Join(tree.Path, "base.txt")); err != nil || string(data) != "base\n" {
		t.Errorf("base.txt in the worktree = %q, %v", data, err)
	}
	// A worktree made from inside a worktree goes beside it, in the main checkout.
	nested, err := Create(ctx, tree.Path, "second")
	if err != nil {
		t.Fatal(err)
	}
	if nested.Path != filepath.Join(repo, ".mini-claude", "worktrees", "second") {
		t.Errorf("nested worktree at %s, want it in the main checkout", nested.Path)
	}
	if _, err := Create(ctx, repo, "feat"); err == nil {
		t.Error("Create of an existing worktree succeeded")
	}
}

func TestCreateOutsideARepositoryIsErrNotRepo(t *testing.T) {
	_, err := Create(context.Background(), t.TempDir(), "x")
	if !errors.Is(err, ErrNotRepo) {
		t.Fatalf("Create outside a repository = %v, want ErrNotRepo", err)
	}
}

func TestChangesCountsUncommittedFilesAndCommits(t *testing.T) {
	ctx := context.Background()
	tree, err := Create(ctx, worktreetest.Repo(t, t.TempDir()), "work")
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		do   func()
		want Changes
	}{
		{func() {}, Changes{}},
		{func() { os.WriteFile(filepath.Join(tree.Path, "new.txt"), []byte("x"), 0o644) }, Changes{Files: 1}},
		{func() { os.WriteFile(filepath.Join(tree.Path, "base.txt"), []byte("y"), 0o644) }, Changes{Files: 2}},
		{func() { worktreetest.Git(t, tree.Path, "commit", "-qam", "one") }, Changes{Files: 1, Commits: 1}},
		{func() { os.Remove(filepath.Join(tree.Path, "new.txt")) }, Changes{Commits: 1}},
	}
	for i, s := range steps {
		s.do()
		got, err := tree.Changes(ctx)
		if err != nil || got != s.want {
			t.Fatalf("step %d: Changes = %+v, %v; want %+v", i, got, err, s.want)
		}
	}
}

func TestRemoveDeletesWorktreeAndBranch(t *testing.T) {
	ctx := context.Background()
	repo := worktreetest.Repo(t, t.TempDir())
	tree, err := Create(ctx, repo, "gone")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(tree.Path, "dirty.txt"), []byte("x"), 0o644)
	if err := tree.Remove(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(tree.Path); !os.IsNotExist(err) {
		t.Errorf("worktree folder still there: %v", err)
	}
	if branches := worktreetest.Git(t, repo, "branch", "--list", "worktree-gone"); branches != "" {
		t.Errorf("branch still there: %q", branches)
	}
	if list := worktreetest.Git(t, repo, "worktree", "list"); strings.Contains(list, "gone") {
		t.Errorf("git still lists the worktree: %s", list)
	}
}

func TestCreateHonoursContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Create(ctx, worktreetest.Repo(t, t.TempDir()), "late"); err == nil {
		t.Fatal("Create with a cancelled context succeeded")
	}
}

func TestFindReturnsAListedWorktreeOnly(t *testing.T) {
	ctx := context.Background()
	repo := worktreetest.Repo(t, t.TempDir())
	made, err := Create(ctx, repo, "listed")
	if err != nil {
		t.Fatal(err)
	}
	got, err := Find(ctx, repo, made.Path)
	if err != nil || got.Path != made.Path || got.Branch != made.Branch || got.Base != made.Base || got.Repo != repo {
		t.Fatalf("Find = %+v, %v; want %+v", got, err, made)
	}
	if _, err := Find(ctx, repo, filepath.Join(repo, "base.txt")); err == nil {
		t.Error("Find accepted a path git does not list")
	}
}

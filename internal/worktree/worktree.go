// Package worktree makes and removes the git worktrees sessions and
// sub-agents work in: each under <repository>/.mini-claude/worktrees/<name>,
// on a new branch worktree-<name> from the current HEAD. It runs the real
// git binary, so what it makes is what `git worktree list` shows.
package worktree

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

// Dir is where worktrees are kept, relative to the repository's main checkout.
const Dir = ".mini-claude/worktrees"

// BranchPrefix starts the name of every worktree's branch, as in Claude Code.
const BranchPrefix = "worktree-"

// maxName is the longest name a worktree may have.
const maxName = 64

// ErrNotRepo is returned for a directory that is in no git repository.
var ErrNotRepo = errors.New("not a git repository")

// Tree is one worktree made by Create.
type Tree struct {
	// Name is the worktree's name, Path its directory and Branch its branch.
	Name   string
	Path   string
	Branch string
	// Repo is the repository's main checkout, where git commands about the
	// worktree run.
	Repo string
	// Base is the commit the branch started at.
	Base string
}

var segment = regexp.MustCompile(`^[A-Za-z0-9._-]+$`)

// CheckName reports why name cannot name a worktree: each "/"-separated
// segment must be non-empty and hold only letters, digits, dots,
// underscores and dashes, "." and ".." are not segments, and the whole is
// at most 64 characters.
func CheckName(name string) error {
	bad := fmt.Errorf("invalid worktree name %q: each \"/\"-separated segment must be non-empty and contain only letters, digits, dots, underscores, and dashes; max %d chars total", name, maxName)
	if name == "" || len(name) > maxName {
		return bad
	}
	for _, seg := range strings.Split(name, "/") {
		if !segment.MatchString(seg) || seg == "." || seg == ".." {
			return bad
		}
	}
	return nil
}

// Root returns the main checkout of the repository dir is in: for a
// directory inside a linked worktree, the checkout the worktree belongs to,
// so worktrees made from worktrees all live in one place. It returns an
// error wrapping ErrNotRepo when dir is in no repository.
func Root(ctx context.Context, dir string) (string, error) {
	out, err := git(ctx, dir, "rev-parse", "--path-format=absolute", "--git-common-dir", "--show-toplevel")
	if err != nil {
		if strings.Contains(err.Error(), "not a git repository") {
			return "", fmt.Errorf("%s: %w", dir, ErrNotRepo)
		}
		return "", err
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		return "", fmt.Errorf("git rev-parse in %s said %q", dir, out)
	}
	common, top := lines[0], lines[1]
	if filepath.Base(common) == ".git" {
		return filepath.Dir(common), nil
	}
	return top, nil
}

// Create makes the worktree name of the repository dir is in, on the new
// branch worktree-<name> from dir's HEAD. It fails when the name is invalid,
// dir is in no repository (ErrNotRepo), or the worktree or branch exists.
func Create(ctx context.Context, dir, name string) (Tree, error) {
	if err := CheckName(name); err != nil {
		return Tree{}, err
	}
	repo, err := Root(ctx, dir)
	if err != nil {
		return Tree{}, err
	}
	base, err := git(ctx, dir, "rev-parse", "--verify", "--quiet", "HEAD^{commit}")
	if err != nil {
		return Tree{}, fmt.Errorf("the repository at %s has no commit yet to start a worktree from: %w", repo, err)
	}
	t := Tree{Name: name, Path: filepath.Join(repo, Dir, filepath.FromSlash(name)), Branch: BranchPrefix + name,
		Repo: repo, Base: strings.TrimSpace(base)}
	if _, err := os.Stat(t.Path); err == nil {
		return Tree{}, fmt.Errorf("worktree %s already exists at %s", name, t.Path)
	}
	if err := os.MkdirAll(filepath.Dir(t.Path), 0o755); err != nil {
		return Tree{}, fmt.Errorf("make the worktrees folder: %w", err)
	}
	if _, err := git(ctx, repo, "worktree", "add", "--quiet", "-b", t.Branch, t.Path, t.Base); err != nil {
		return Tree{}, fmt.Errorf("create worktree %s: %w", name, err)
	}
	return t, nil
}

// Changes is the work in a worktree that removing it would lose.
type Changes struct {
	// Files counts uncommitted files: changed, staged, new or deleted.
	Files int
	// Commits counts the commits on the branch since its base.
	Commits int
}

// Any reports whether there is any work to lose.
func (c Changes) Any() bool { return c.Files > 0 || c.Commits > 0 }

// Changes returns the work in the worktree since Create made it.
func (t Tree) Changes(ctx context.Context) (Changes, error) {
	status, err := git(ctx, t.Path, "status", "--porcelain", "--untracked-files=all")
	if err != nil {
		return Changes{}, err
	}
	count, err := git(ctx, t.Path, "rev-list", "--count", t.Base+"..HEAD")
	if err != nil {
		return Changes{}, err
	}
	var c Changes
	for _, line := range strings.Split(status, "\n") {
		if strings.TrimSpace(line) != "" {
			c.Files++
		}
	}
	if _, err := fmt.Sscan(count, &c.Commits); err != nil {
		return Changes{}, fmt.Errorf("count the commits of %s: %w", t.Branch, err)
	}
	return c, nil
}

// Remove deletes the worktree, its uncommitted files with it, and its branch.
func (t Tree) Remove(ctx context.Context) error {
	if _, err := git(ctx, t.Repo, "worktree", "remove", "--force", "--force", t.Path); err != nil {
		return fmt.Errorf("remove worktree %s: %w", t.Name, err)
	}
	if _, err := git(ctx, t.Repo, "branch", "-D", t.Branch); err != nil {
		return fmt.Errorf("delete branch %s: %w", t.Branch, err)
	}
	return nil
}

// git runs git in dir and returns its stdout; a failure carries git's stderr.
func git(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "LC_ALL=C")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return "", fmt.Errorf("git %s: %s", args[0], msg)
	}
	return stdout.String(), nil
}

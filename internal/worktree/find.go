package worktree

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
)

// Find returns the worktree at path among those `git worktree list` shows
// for the repository dir is in; its Base is its HEAD now. It fails when
// git does not list path.
func Find(ctx context.Context, dir, path string) (Tree, error) {
	repo, err := Root(ctx, dir)
	if err != nil {
		return Tree{}, err
	}
	want, err := filepath.EvalSymlinks(path)
	if err != nil {
		return Tree{}, fmt.Errorf("worktree %s: %w", path, err)
	}
	list, err := git(ctx, repo, "worktree", "list", "--porcelain")
	if err != nil {
		return Tree{}, err
	}
	for _, entry := range strings.Split(list, "\n\n") {
		t := Tree{Repo: repo}
		for _, line := range strings.Split(entry, "\n") {
			key, value, _ := strings.Cut(line, " ")
			switch key {
			case "worktree":
				t.Path = value
			case "HEAD":
				t.Base = value
			case "branch":
				t.Branch = strings.TrimPrefix(value, "refs/heads/")
			}
		}
		if real, err := filepath.EvalSymlinks(t.Path); err == nil && real == want {
			t.Path, t.Name = real, filepath.Base(real)
			return t, nil
		}
	}
	return Tree{}, fmt.Errorf("%s is not a worktree of the repository at %s: `git worktree list` does not show it", path, repo)
}

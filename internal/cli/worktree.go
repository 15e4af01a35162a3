package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/mini-claude/mini-claude/internal/worktree"
)

// joinWorktreeValue reads `-w <name>` and `--worktree <name>` as the flag's
// value, as Claude Code reads its optional value: the next argument, unless
// it is a flag (so in `-p -w "fix it"` the prompt is taken for the name, and
// refused as one). A bare -w becomes --worktree= (a name is made up).
func joinWorktreeValue(args []string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		if a != "-w" && a != "--worktree" {
			out = append(out, a)
			continue
		}
		if i+1 < len(args) && args[i+1] != "--" && !strings.HasPrefix(args[i+1], "-") {
			out = append(out, "--worktree="+args[i+1])
			i++
			continue
		}
		out = append(out, "--worktree=")
	}
	return out
}

// startInWorktree makes the worktree --worktree asks for, named or with a
// made-up name, and returns a Factory whose working directory is the
// worktree, so the whole session (settings, permissions, tools, transcript)
// runs there; the checkout it was made from is recorded in opts, so writes
// to it are refused.
func startInWorktree(ctx context.Context, f *Factory, opts *Options) (*Factory, worktree.Tree, error) {
	cwd, err := f.Getwd()
	if err != nil {
		return nil, worktree.Tree{}, &ExitError{Code: ExitUsage, Err: fmt.Errorf("find the working directory: %w", err)}
	}
	name := opts.Worktree
	if name == "" {
		name = worktree.RandomName()
	}
	tree, err := worktree.Create(ctx, cwd, name)
	switch {
	case errors.Is(err, worktree.ErrNotRepo):
		return nil, tree, usageError("Can only use --worktree in a git repository, but %s is not a git repository. Run mini-claude without --worktree there, or make it a repository with a first commit (git init && git add -A && git commit -m initial)", cwd)
	case err != nil:
		return nil, tree, usageError("creating worktree: %v", err)
	}
	opts.checkout = tree.Repo
	moved := *f
	moved.Getwd = func() (string, error) { return tree.Path, nil }
	return &moved, tree, nil
}

// worktreeKept tells the user, as the UI closes, where the session's
// worktree stays and how to remove it.
func worktreeKept(tree worktree.Tree) string {
	return fmt.Sprintf("The worktree is kept at %s on branch %s. Remove it with: git worktree remove %s && git branch -D %s\n",
		tree.Path, tree.Branch, tree.Path, tree.Branch)
}

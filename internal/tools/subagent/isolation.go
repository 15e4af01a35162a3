package subagent

import (
	"context"
	"errors"
	"fmt"

	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/worktree"
)

// isolationWorktree is the isolation value that runs an agent in a git
// worktree of its own.
const isolationWorktree = "worktree"

// checkRepository refuses isolation outside a git repository before the
// agent starts, in the foreground or the background, with Claude Code's words.
func checkRepository(ctx context.Context, cwd string) error {
	_, err := worktree.Root(ctx, cwd)
	switch {
	case errors.Is(err, worktree.ErrNotRepo):
		return &tool.OutputError{Text: "Cannot create agent worktree: not in a git repository. Leave out isolation to run the agent in the working directory, or start mini-claude in a git repository."}
	case err != nil:
		return &tool.OutputError{Text: fmt.Sprintf("Cannot create agent worktree: %v", err)}
	}
	return nil
}

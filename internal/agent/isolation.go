package agent

import (
	"context"
	"fmt"

	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/worktree"
)

// isolate moves a sub-agent's session into a new worktree named after the
// agent, agent-<id> on the branch worktree-agent-<id>. The error is the
// text the model gets, as Claude Code words it.
func isolate(ctx context.Context, session *tool.Session, agentID string) (worktree.Tree, error) {
	tree, err := worktree.Create(ctx, session.Cwd(), "agent-"+agentID)
	if err != nil {
		return tree, &tool.OutputError{Text: fmt.Sprintf("Cannot create agent worktree: %v", err)}
	}
	session.MoveRoot(tree.Path)
	return tree, nil
}

// settleWorktree keeps an isolated sub-agent's worktree when it changed
// something there, naming it in the report, and removes it, branch and
// all, when it did not. A worktree whose state cannot be read is kept.
// The caller passes a context that outlives the sub-agent's, so an
// interrupted sub-agent's worktree is settled too.
func settleWorktree(ctx context.Context, tree worktree.Tree, report *tool.SubAgentReport) {
	changes, err := tree.Changes(ctx)
	if err == nil && !changes.Any() && tree.Remove(ctx) == nil {
		return
	}
	report.WorktreePath, report.WorktreeBranch = tree.Path, tree.Branch
}

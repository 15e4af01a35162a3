package worktrees

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/worktree"
)

// ExitInput is ExitWorktree's input, Claude Code's schema.
type ExitInput struct {
	Action         string `json:"action" jsonschema:"enum=keep,enum=remove" jsonschema_description:"\"keep\" leaves the worktree and branch on disk; \"remove\" deletes the worktree and its branch."`
	DiscardChanges bool   `json:"discard_changes,omitempty" jsonschema_description:"Required true when action is \"remove\" and the worktree has uncommitted files or unmerged commits. The tool will refuse and list them otherwise, so set it only after the user has confirmed."`
}

// ExitOutput is where the session went back to.
type ExitOutput struct {
	Action         string `json:"action"`
	WorktreePath   string `json:"worktreePath"`
	WorktreeBranch string `json:"worktreeBranch,omitempty"`
	OriginalCwd    string `json:"originalCwd"`
	Message        string `json:"message"`
}

const exitDescription = `Leaves the worktree an EnterWorktree call of this session moved into and returns the session to the directory it was in before.

It acts only on that worktree: not on worktrees made by hand with git worktree add, nor on those of earlier sessions. Called with no such worktree, it does nothing and says so.

Call it only when the user asks to leave the worktree.

- action "keep" leaves the worktree and its branch on disk, to come back to later or to merge.
- action "remove" deletes the worktree and its branch. When the worktree has uncommitted files or commits of its own, it refuses and lists them; confirm with the user, then call again with discard_changes: true, or use "keep".
- A worktree entered with EnterWorktree's path is never removed; leave it with "keep".`

// Exit is the ExitWorktree tool.
var Exit = tool.MustBuild(tool.Def[ExitInput, ExitOutput]{
	Name:               ExitName,
	SearchHint:         "leave the worktree session, keeping or removing it",
	Description:        exitDescription,
	MaxResultSizeChars: 10_000,
	ShouldDefer:        true,
	IsReadOnly:         tool.Never[ExitInput],
	IsConcurrencySafe:  tool.Never[ExitInput],
	IsDestructive:      func(in ExitInput) bool { return in.Action == "remove" },
	ValidateInput:      validateExit,
	CheckPermissions:   allow[ExitInput],
	Call:               exit,
	MapResult:          func(out ExitOutput) []llm.ContentBlock { return []llm.ContentBlock{llm.TextBlock(out.Message)} },
})

func validateExit(ctx context.Context, in ExitInput, env *tool.Env) error {
	if in.Action != "keep" && in.Action != "remove" {
		return fmt.Errorf("action %q is not known: use \"keep\" to leave the worktree on disk or \"remove\" to delete it", in.Action)
	}
	e := stateOf(env.Session).get()
	if e == nil {
		return errors.New("No-op: there is no active EnterWorktree session to exit. This tool only operates on worktrees created by EnterWorktree in the current session — it will not touch worktrees created manually or in a previous session. No filesystem changes were made.")
	}
	if in.Action == "keep" {
		return nil
	}
	if !e.created {
		return fmt.Errorf("The worktree at “%s” was entered with EnterWorktree's path, not created by this session, so this tool will not remove it. Use action: \"keep\" to return to “%s”.", e.tree.Path, e.fromRoot)
	}
	if in.DiscardChanges {
		return nil
	}
	changes, err := e.tree.Changes(ctx)
	if err != nil {
		return fmt.Errorf("Could not verify worktree state (%v). Refusing to remove without explicit confirmation. Confirm with the user, then re-invoke with discard_changes: true to proceed — or use action: \"keep\" to preserve the worktree.", err)
	}
	if changes.Any() {
		return fmt.Errorf("Worktree has %s. Removing will discard this work permanently. Confirm with the user, then re-invoke with discard_changes: true — or use action: \"keep\" to preserve the worktree.",
			describe(changes, e.tree.Branch, false))
	}
	return nil
}

func exit(ctx context.Context, in ExitInput, env *tool.Env, _ tool.Progress) (ExitOutput, error) {
	st := stateOf(env.Session)
	e := st.get()
	if e == nil {
		return ExitOutput{}, validateExit(ctx, in, env)
	}
	out := ExitOutput{Action: in.Action, WorktreePath: e.tree.Path, WorktreeBranch: e.tree.Branch, OriginalCwd: e.fromRoot}
	if in.Action == "keep" {
		leave(env.Session, st, e)
		out.Message = fmt.Sprintf("Exited worktree. Your work is preserved at “%s” on branch “%s”. Session is now back in “%s”.",
			e.tree.Path, e.tree.Branch, e.fromRoot)
		return out, nil
	}
	changes, _ := e.tree.Changes(ctx)
	leave(env.Session, st, e)
	if err := e.tree.Remove(ctx); err != nil {
		return ExitOutput{}, &tool.OutputError{Text: fmt.Sprintf("Session is back in “%s”, but the worktree at “%s” could not be removed: %v. It is still on disk; remove it with git worktree remove.",
			e.fromRoot, e.tree.Path, err)}
	}
	discarded := ""
	if changes.Any() {
		discarded = " Discarded " + describe(changes, e.tree.Branch, true) + "."
	}
	out.Message = fmt.Sprintf("Exited and removed worktree at “%s”.%s Session is now back in “%s”.", e.tree.Path, discarded, e.fromRoot)
	return out, nil
}

// leave moves the session back to where it was before EnterWorktree.
func leave(s *tool.Session, st *state, e *entered) {
	s.MoveRoot(e.fromRoot)
	s.SetCwd(e.fromCwd)
	st.set(nil)
}

// describe words the work in a worktree as Claude Code does: "1 uncommitted
// file and 2 commits on “branch”" before a refusal, "2 commits and 1
// uncommitted file" once discarded.
func describe(c worktree.Changes, branch string, discarded bool) string {
	files := plural(c.Files, "uncommitted file")
	commits := plural(c.Commits, "commit")
	if !discarded && c.Commits > 0 {
		commits += " on “" + branch + "”"
	}
	parts := []string{files, commits}
	if discarded {
		parts = []string{commits, files}
	}
	var kept []string
	for _, p := range parts {
		if !strings.HasPrefix(p, "0 ") {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, " and ")
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

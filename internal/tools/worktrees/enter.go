// Package worktrees holds the EnterWorktree and ExitWorktree tools: the
// model moves the session into a new git worktree (or an existing one) and
// back, keeping or removing it. Both are deferred behind ToolSearch, as in
// Claude Code, and their results use Claude Code's words.
package worktrees

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/worktree"
)

// EnterName and ExitName are the tools' names in the API.
const (
	EnterName = "EnterWorktree"
	ExitName  = "ExitWorktree"
)

// entered is the worktree an EnterWorktree call moved the session into, and
// where the session was before.
type entered struct {
	tree worktree.Tree
	// created says EnterWorktree made it, so ExitWorktree may remove it.
	created           bool
	fromRoot, fromCwd string
}

type stateKey struct{}

// state is a session's worktree, nil when EnterWorktree has not moved it.
type state struct {
	mu     sync.Mutex
	active *entered
}

func stateOf(s *tool.Session) *state {
	return tool.Value(s, stateKey{}, func() *state { return &state{} })
}

func (st *state) get() *entered {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.active
}

func (st *state) set(e *entered) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.active = e
}

// EnterInput is EnterWorktree's input, Claude Code's schema.
type EnterInput struct {
	// The tags are interpreted strings, to hold Claude Code's backquotes.
	Name string "json:\"name,omitempty\" jsonschema_description:\"Optional name for a new worktree. Each \\\"/\\\"-separated segment may contain only letters, digits, dots, underscores, and dashes; max 64 chars total. A random name is generated if not provided. Mutually exclusive with `path`.\""
	Path string "json:\"path,omitempty\" jsonschema_description:\"Path to an existing worktree to switch into instead of creating a new one. Must appear in `git worktree list` for the current repo. Mutually exclusive with `name`.\""
}

// EnterOutput is where the session went.
type EnterOutput struct {
	WorktreePath   string `json:"worktreePath"`
	WorktreeBranch string `json:"worktreeBranch,omitempty"`
	Created        bool   `json:"created"`
	Message        string `json:"message"`
}

const enterDescription = `Moves this session into a git worktree: an isolated checkout of the repository on a branch of its own, so your edits do not touch the user's working copy.

Use it only when the user, or the project's instructions (CLAUDE.md), explicitly ask for a worktree. To switch or create branches, use git through Bash instead.

- With no input, or a name, it creates .mini-claude/worktrees/<name> on the new branch worktree-<name>, from the current HEAD (a name is made up when you give none), and moves the session there: the working directory, relative paths and the directories you may edit without asking all follow.
- With path, it moves the session into a worktree that already exists (one git worktree list shows); ExitWorktree will not remove that one.
- Only one worktree session at a time: to make another, leave this one with ExitWorktree first.
- The repository must be a git repository with at least one commit.
- Use ExitWorktree to come back (keeping or removing the worktree); a worktree still entered when the session ends is kept.`

// Enter is the EnterWorktree tool.
var Enter = tool.MustBuild(tool.Def[EnterInput, EnterOutput]{
	Name:               EnterName,
	SearchHint:         "create a git worktree and switch the session into it",
	Description:        enterDescription,
	MaxResultSizeChars: 10_000,
	ShouldDefer:        true,
	IsReadOnly:         tool.Never[EnterInput],
	IsConcurrencySafe:  tool.Never[EnterInput],
	ValidateInput:      validateEnter,
	CheckPermissions:   allow[EnterInput],
	Call:               enter,
	MapResult:          func(out EnterOutput) []llm.ContentBlock { return []llm.ContentBlock{llm.TextBlock(out.Message)} },
})

// allow vouches for a call: a worktree is made inside the project, and
// leaving one refuses to lose work unless told to.
func allow[In any](context.Context, In, *tool.Env) tool.PermissionResult {
	return tool.PermissionResult{Behavior: tool.Allow}
}

func validateEnter(_ context.Context, in EnterInput, env *tool.Env) error {
	switch {
	case in.Name != "" && in.Path != "":
		return errors.New("`name` and `path` are mutually exclusive: pass `name` to create a new worktree, or `path` to switch into an existing one")
	case in.Path == "" && stateOf(env.Session).get() != nil:
		return errors.New("Already in a worktree session. Pass `path` to switch into another existing worktree, or use ExitWorktree to leave this one before creating a new worktree.")
	case in.Name != "":
		if err := worktree.CheckName(in.Name); err != nil {
			return err
		}
	}
	return nil
}

func enter(ctx context.Context, in EnterInput, env *tool.Env, _ tool.Progress) (EnterOutput, error) {
	st := stateOf(env.Session)
	from := &entered{fromRoot: env.Session.OriginalCwd(), fromCwd: env.Session.Cwd()}
	if prev := st.get(); prev != nil {
		from.fromRoot, from.fromCwd = prev.fromRoot, prev.fromCwd
	}
	if in.Path != "" {
		path := in.Path
		if !filepath.IsAbs(path) {
			path = filepath.Join(env.Cwd, path)
		}
		tree, err := worktree.Find(ctx, env.Cwd, path)
		if err != nil {
			return EnterOutput{}, &tool.OutputError{Text: "Cannot enter the worktree: " + err.Error()}
		}
		from.tree = tree
		env.Session.MoveRoot(tree.Path)
		st.set(from)
		return EnterOutput{WorktreePath: tree.Path, WorktreeBranch: tree.Branch, Message: fmt.Sprintf(
			"Switched to worktree at “%s” on branch “%s”. The session is now working in the worktree. Use ExitWorktree with action: \"keep\" to return to “%s”.",
			tree.Path, tree.Branch, from.fromRoot)}, nil
	}
	name := in.Name
	if name == "" {
		name = worktree.RandomName()
	}
	tree, err := worktree.Create(ctx, env.Cwd, name)
	switch {
	case errors.Is(err, worktree.ErrNotRepo):
		return EnterOutput{}, &tool.OutputError{Text: "Cannot create a worktree: not in a git repository. Worktrees need git; continue in the current directory."}
	case err != nil:
		return EnterOutput{}, &tool.OutputError{Text: "Cannot create a worktree: " + err.Error()}
	}
	from.tree, from.created = tree, true
	env.Session.MoveRoot(tree.Path)
	st.set(from)
	return EnterOutput{WorktreePath: tree.Path, WorktreeBranch: tree.Branch, Created: true, Message: fmt.Sprintf(
		"Created worktree at “%s” on branch “%s”. The session is now working in the worktree. Use ExitWorktree to leave mid-session; the worktree is kept when the session ends.",
		tree.Path, tree.Branch)}, nil
}

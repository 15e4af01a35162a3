package worktrees

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/worktree/worktreetest"
)

// call runs t with input in the session and returns its text and whether it failed.
func call(t *testing.T, s *tool.Session, tl tool.Tool, input string) (string, bool) {
	t.Helper()
	env := &tool.Env{Cwd: s.Cwd(), Session: s}
	res, err := tool.Exec(context.Background(), tl, env, json.RawMessage(input), nil)
	if err != nil {
		return err.Error(), true
	}
	var parts []string
	for _, b := range res.Content {
		if b.Type == llm.BlockText {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, ""), false
}

// step is one call and what it must answer, $CWD standing for the checkout,
// $TREE for the worktree.
type step struct {
	tool    tool.Tool
	input   string
	want    string
	failed  bool
	prepare func(tree string)
}

// The texts are Claude Code 2.1.332's (e2e/testdata/worktree/enter_*.json),
// with .mini-claude for .claude and our own last sentence on creation.
func TestEnterAndExitAnswerAsClaudeCodeDoes(t *testing.T) {
	write := func(name string) func(string) {
		return func(tree string) { os.WriteFile(filepath.Join(tree, name), []byte("x\n"), 0o644) }
	}
	commit := func(tree string) {
		f, err := os.OpenFile(filepath.Join(tree, "base.txt"), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString("more\n")
		f.Close()
		worktreetest.Git(t, tree, "commit", "-qam", "wip")
	}
	created := "Created worktree at “$TREE” on branch “worktree-try”. The session is now working in the worktree. Use ExitWorktree to leave mid-session; the worktree is kept when the session ends."
	tests := []struct {
		name  string
		steps []step
	}{
		{"keep", []step{
			{tool: Enter, input: `{"name":"try"}`, want: created},
			{tool: Enter, input: `{"name":"again"}`, failed: true,
				want: "Already in a worktree session. Pass `path` to switch into another existing worktree, or use ExitWorktree to leave this one before creating a new worktree."},
			{tool: Exit, input: `{"action":"remove"}`, prepare: write("made.txt"), failed: true,
				want: `Worktree has 1 uncommitted file. Removing will discard this work permanently. Confirm with the user, then re-invoke with discard_changes: true — or use action: "keep" to preserve the worktree.`},
			{tool: Exit, input: `{"action":"keep"}`,
				want: "Exited worktree. Your work is preserved at “$TREE” on branch “worktree-try”. Session is now back in “$CWD”."},
			{tool: Exit, input: `{"action":"keep"}`, failed: true,
				want: "No-op: there is no active EnterWorktree session to exit. This tool only operates on worktrees created by EnterWorktree in the current session — it will not touch worktrees created manually or in a previous session. No filesystem changes were made."},
		}},
		{"remove clean", []step{
			{tool: Enter, input: `{"name":"try"}`, want: created},
			{tool: Exit, input: `{"action":"remove"}`,
				want: "Exited and removed worktree at “$TREE”. Session is now back in “$CWD”."},
		}},
		{"remove dirty", []step{
			{tool: Enter, input: `{"name":"try"}`, want: created},
			{tool: Exit, input: `{"action":"remove"}`, prepare: func(tree string) { write("a.txt")(tree); commit(tree) }, failed: true,
				want: `Worktree has 1 uncommitted file and 1 commit on “worktree-try”. Removing will discard this work permanently. Confirm with the user, then re-invoke with discard_changes: true — or use action: "keep" to preserve the worktree.`},
			{tool: Exit, input: `{"action":"remove"}`, prepare: func(tree string) { write("b.txt")(tree); commit(tree) }, failed: true,
				want: `Worktree has 2 uncommitted files and 2 commits on “worktree-try”. Removing will discard this work permanently. Confirm with the user, then re-invoke with discard_changes: true — or use action: "keep" to preserve the worktree.`},
			{tool: Exit, input: `{"action":"remove","discard_changes":true}`,
				want: "Exited and removed worktree at “$TREE”. Discarded 2 commits and 2 uncommitted files. Session is now back in “$CWD”."},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			repo := worktreetest.Repo(t, t.TempDir())
			tree := filepath.Join(repo, ".mini-claude", "worktrees", "try")
			s := tool.NewSession(repo)
			expand := strings.NewReplacer("$TREE", tree, "$CWD", repo)
			for i, st := range tt.steps {
				if st.prepare != nil {
					st.prepare(tree)
				}
				got, failed := call(t, s, st.tool, st.input)
				if want := expand.Replace(st.want); got != want || failed != st.failed {
					t.Fatalf("step %d (%s %s) = %q (failed %v)\nwant %q (failed %v)", i, st.tool.Name(), st.input, got, failed, want, st.failed)
				}
			}
		})
	}
}

func TestEnterMovesTheSessionAndExitBringsItBack(t *testing.T) {
	repo := worktreetest.Repo(t, t.TempDir())
	s := tool.NewSession(repo)
	if err := os.Mkdir(filepath.Join(repo, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	s.SetCwd(filepath.Join(repo, "sub"))
	if _, failed := call(t, s, Enter, `{}`); failed {
		t.Fatal("EnterWorktree without a name failed")
	}
	tree := s.OriginalCwd()
	if !strings.HasPrefix(tree, filepath.Join(repo, ".mini-claude", "worktrees")+"/") || s.Cwd() != tree || s.Moved() != tree {
		t.Fatalf("after EnterWorktree: root %q, cwd %q, moved %q", tree, s.Cwd(), s.Moved())
	}
	if branch := worktreetest.Git(t, tree, "branch", "--show-current"); branch != "worktree-"+filepath.Base(tree)+"\n" {
		t.Errorf("the worktree is on %q", branch)
	}
	call(t, s, Exit, `{"action":"remove"}`)
	if s.OriginalCwd() != repo || s.Cwd() != filepath.Join(repo, "sub") {
		t.Errorf("after ExitWorktree: root %q, cwd %q; want them as before", s.OriginalCwd(), s.Cwd())
	}
	if _, err := os.Stat(tree); !os.IsNotExist(err) {
		t.Errorf("the removed worktree is still there: %v", err)
	}
	if branches := worktreetest.Git(t, repo, "branch", "--list", "worktree-*"); branches != "" {
		t.Errorf("its branch is still there: %s", branches)
	}
}

func TestAWorktreeEnteredByPathIsNeverRemoved(t *testing.T) {
	repo := worktreetest.Repo(t, t.TempDir())
	other := filepath.Join(repo, "..", filepath.Base(repo)+"-other")
	worktreetest.Git(t, repo, "worktree", "add", "-q", "-b", "other", other)
	other, _ = filepath.EvalSymlinks(other)
	s := tool.NewSession(repo)
	got, failed := call(t, s, Enter, `{"path":"`+other+`"}`)
	if failed || s.Cwd() != other || !strings.HasPrefix(got, "Switched to worktree at “"+other+"” on branch “other”.") {
		t.Fatalf("EnterWorktree path = %q (failed %v), cwd %s", got, failed, s.Cwd())
	}
	if got, failed := call(t, s, Exit, `{"action":"remove","discard_changes":true}`); !failed || !strings.Contains(got, "so this tool will not remove it") {
		t.Errorf("ExitWorktree remove = %q (failed %v), want a refusal", got, failed)
	}
	if _, failed := call(t, s, Exit, `{"action":"keep"}`); failed || s.Cwd() != repo {
		t.Errorf("ExitWorktree keep left the session in %s", s.Cwd())
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("the worktree entered by path is gone: %v", err)
	}
}

func TestEnterOutsideARepositoryFails(t *testing.T) {
	s := tool.NewSession(t.TempDir())
	got, failed := call(t, s, Enter, `{"name":"x"}`)
	if !failed || !strings.HasPrefix(got, "Cannot create a worktree: not in a git repository.") {
		t.Errorf("EnterWorktree outside a repository = %q (failed %v)", got, failed)
	}
	if s.Moved() != "" {
		t.Errorf("the session moved to %q", s.Moved())
	}
}

func TestBothToolsAreDeferred(t *testing.T) {
	for _, tl := range []tool.Tool{Enter, Exit} {
		if !tl.ShouldDefer() || tl.AlwaysLoad() {
			t.Errorf("%s is not deferred; Claude Code offers it through ToolSearch only", tl.Name())
		}
	}
}

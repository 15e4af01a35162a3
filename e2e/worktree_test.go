package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
	"github.com/mini-claude/mini-claude/internal/worktree/worktreetest"
)

// worktreeRepo makes the run's folder a git repository on main with one
// commit holding base.txt, and returns the folder with symlinks resolved,
// which the run then uses.
func worktreeRepo(t *testing.T, r *run) string {
	t.Helper()
	r.dir = worktreetest.Repo(t, r.dir)
	return r.dir
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestWorktreeFlagRunsThePromptInANewWorktree(t *testing.T) {
	r := newRun(t)
	repo := worktreeRepo(t, r)
	tree := filepath.Join(repo, ".mini-claude", "worktrees", "feat")
	r.srv.Push(
		calls(llmtest.ToolUse("b", "Bash", `{"command":"pwd; git branch --show-current"}`)),
		calls(llmtest.ToolUse("w1", "Write", `{"file_path":"new.txt","content":"written\n"}`)),
		calls(llmtest.ToolUse("w2", "Write", `{"file_path":"`+filepath.Join(repo, "stray.txt")+`","content":"stray\n"}`)),
		text("done"),
	)
	out := r.exec("-p", "work on it", "--worktree", "feat", "--permission-mode", "bypassPermissions",
		"--output-format", "stream-json", "--verbose")
	if out.code != 0 {
		t.Fatalf("exit %d: %s", out.code, out.stderr)
	}
	if cwd := lines(t, out.stdout)[0]["cwd"]; cwd != tree {
		t.Errorf("init cwd = %v, want the worktree %s", cwd, tree)
	}
	if got := contentText(lastResults(t, r.srv, 1)[0]); got != tree+"\nworktree-feat" {
		t.Errorf("Bash ran in %q, want the worktree on its branch", got)
	}
	if got := readFile(t, filepath.Join(tree, "new.txt")); got != "written\n" {
		t.Errorf("new.txt in the worktree = %q", got)
	}
	if _, err := os.Stat(filepath.Join(repo, "new.txt")); !os.IsNotExist(err) {
		t.Errorf("new.txt reached the checkout: %v", err)
	}
	refused := lastResults(t, r.srv, 3)[0]
	want := "This session is isolated in the worktree " + tree + ". Edit the worktree copy of this file instead of the shared-checkout path."
	if !refused.IsError || contentText(refused) != want {
		t.Errorf("a Write to the checkout got %q (error %v), want Claude Code's refusal, even with permissions bypassed", contentText(refused), refused.IsError)
	}
	if _, err := os.Stat(filepath.Join(repo, "stray.txt")); !os.IsNotExist(err) {
		t.Errorf("stray.txt reached the checkout: %v", err)
	}
	if list := worktreetest.Git(t, repo, "worktree", "list", "--porcelain"); !strings.Contains(list, "worktree "+tree+"\n") ||
		!strings.Contains(list, "branch refs/heads/worktree-feat\n") {
		t.Errorf("git worktree list:\n%s", list)
	}
	if out.stderr != "" {
		t.Errorf("stderr = %q, want nothing (the worktree is kept silently in -p, as in Claude Code)", out.stderr)
	}
}

func TestWorktreeFlagWithoutANameMakesOneUp(t *testing.T) {
	r := newRun(t)
	repo := worktreeRepo(t, r)
	r.srv.Push(text("done"))
	out := r.exec("-p", "hello", "--output-format", "stream-json", "--verbose", "-w")
	if out.code != 0 {
		t.Fatalf("exit %d: %s", out.code, out.stderr)
	}
	cwd, _ := lines(t, out.stdout)[0]["cwd"].(string)
	name, ok := strings.CutPrefix(cwd, filepath.Join(repo, ".mini-claude", "worktrees")+"/")
	if !ok || !regexp.MustCompile(`^[a-z]+-[a-z]+-[a-z]+$`).MatchString(name) {
		t.Fatalf("init cwd = %q, want a worktree with a made-up three-word name", cwd)
	}
	if branch := worktreetest.Git(t, cwd, "branch", "--show-current"); branch != "worktree-"+name+"\n" {
		t.Errorf("the worktree is on %q", branch)
	}
}

func TestWorktreeFlagNeedsAGitRepository(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		stderr string
	}{
		{"not a repository", []string{"-p", "hello", "--worktree", "x"}, "Can only use --worktree in a git repository, but "},
		{"the prompt taken for a name", []string{"-p", "-w", "fix the bug"}, `invalid worktree name "fix the bug"`},
		{"a flag the run refuses", []string{"-p", "--worktree", "x", "--output-format", "yaml", "hello"}, `--output-format "yaml"`},
		{"a stream-json flag the run refuses", []string{"--input-format", "stream-json", "--worktree", "x", "--output-format", "json"},
			"--input-format stream-json needs --output-format stream-json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRun(t)
			if tt.name != "not a repository" {
				worktreeRepo(t, r)
			}
			out := r.exec(tt.args...)
			if out.code != 2 || !strings.Contains(out.stderr, tt.stderr) {
				t.Fatalf("exit %d, stderr %q; want 2 and %q", out.code, out.stderr, tt.stderr)
			}
			if len(r.srv.Requests()) != 0 {
				t.Error("the model was asked although the session could not start")
			}
			if _, err := os.Stat(filepath.Join(r.dir, ".mini-claude", "worktrees")); err == nil {
				t.Error("a run that could not start left a worktree behind")
			}
		})
	}
}

// isolatedAgent is an Agent call that runs prompt in a worktree of its own.
func isolatedAgent(id, prompt string) llm.ContentBlock {
	return agentCall(id, "edit "+id, prompt, `,"isolation":"worktree"`)
}

func TestIsolatedSubAgentsEditTheSameFileInTheirOwnWorktrees(t *testing.T) {
	r := newRun(t)
	repo := worktreeRepo(t, r)
	r.srv.Route(llmtest.FirstUserText("try both"),
		calls(isolatedAgent("a1", "variant alpha"), isolatedAgent("a2", "variant beta")), text("both tried"))
	for _, name := range []string{"alpha", "beta"} {
		r.srv.Route(llmtest.FirstUserText("variant "+name),
			calls(llmtest.ToolUse("r-"+name, "Read", `{"file_path":"base.txt"}`)),
			calls(llmtest.ToolUse("e-"+name, "Edit", `{"file_path":"base.txt","old_string":"base","new_string":"`+name+`"}`)),
			text(name+" done"))
	}
	out := r.exec("-p", "try both", "--permission-mode", "acceptEdits")
	if out.code != 0 {
		t.Fatalf("exit %d: %s", out.code, out.stderr)
	}
	results := lastOf(request(t, r.srv, "try both", 1))
	paths := map[string]bool{}
	for i, name := range []string{"alpha", "beta"} {
		got := contentText(results[i])
		m := regexp.MustCompile(`\nagentId: (a[0-9a-f]{16})\nworktreePath: (.+)\nworktreeBranch: (.+)\n<usage>`).FindStringSubmatch(got)
		if results[i].IsError || m == nil {
			t.Fatalf("Agent result %d = %q, want the kept worktree's path and branch", i, got)
		}
		if want := filepath.Join(repo, ".mini-claude", "worktrees", "agent-"+m[1]); m[2] != want || m[3] != "worktree-agent-"+m[1] {
			t.Errorf("agent %s reports %s on %s, want %s on worktree-agent-%s", name, m[2], m[3], want, m[1])
		}
		if got := readFile(t, filepath.Join(m[2], "base.txt")); got != name+"\n" {
			t.Errorf("base.txt in %s's worktree = %q", name, got)
		}
		if edit := lastOf(request(t, r.srv, "variant "+name, 2))[0]; edit.IsError {
			t.Errorf("%s's Edit failed: %s", name, contentText(edit))
		}
		paths[m[2]] = true
	}
	if len(paths) != 2 {
		t.Errorf("the agents shared a worktree: %v", paths)
	}
	if got := readFile(t, filepath.Join(repo, "base.txt")); got != "base\n" {
		t.Errorf("the checkout's base.txt = %q, want it unchanged", got)
	}
	if diff := worktreetest.Git(t, repo, "diff", "--stat", "HEAD"); diff != "" {
		t.Errorf("the checkout changed:\n%s", diff)
	}
}

func TestAnIsolatedSubAgentThatChangesNothingLeavesNoWorktree(t *testing.T) {
	r := newRun(t)
	repo := worktreeRepo(t, r)
	r.srv.Route(llmtest.FirstUserText("look only"), calls(isolatedAgent("a1", "just read")), text("looked"))
	r.srv.Route(llmtest.FirstUserText("just read"),
		calls(llmtest.ToolUse("b", "Bash", `{"command":"pwd"}`)),
		calls(llmtest.ToolUse("r", "Read", `{"file_path":"base.txt"}`)), text("read it"))
	out := r.exec("-p", "look only", "--permission-mode", "bypassPermissions")
	if out.code != 0 {
		t.Fatalf("exit %d: %s", out.code, out.stderr)
	}
	ran := contentText(lastOf(request(t, r.srv, "just read", 1))[0])
	if !strings.HasPrefix(ran, filepath.Join(repo, ".mini-claude", "worktrees", "agent-a")) {
		t.Errorf("the sub-agent ran in %q, want its own worktree", ran)
	}
	result := contentText(lastOf(request(t, r.srv, "look only", 1))[0])
	if strings.Contains(result, "worktree") || !strings.Contains(result, "  read it\nagentId: ") {
		t.Errorf("Agent result = %q, want the plain report", result)
	}
	if list := worktreetest.Git(t, repo, "worktree", "list", "--porcelain"); strings.Count(list, "worktree ") != 1 {
		t.Errorf("a worktree was left behind:\n%s", list)
	}
	if branches := worktreetest.Git(t, repo, "branch", "--list", "worktree-*"); branches != "" {
		t.Errorf("a branch was left behind: %s", branches)
	}
}

func TestIsolationOutsideAGitRepositoryIsRefused(t *testing.T) {
	r := newRun(t)
	r.srv.Route(llmtest.FirstUserText("isolate"), calls(isolatedAgent("a1", "never runs")), text("ok"))
	out := r.exec("-p", "isolate")
	if out.code != 0 {
		t.Fatalf("exit %d: %s", out.code, out.stderr)
	}
	got := lastOf(request(t, r.srv, "isolate", 1))[0]
	if !got.IsError || !strings.HasPrefix(contentText(got), "Cannot create agent worktree: not in a git repository.") {
		t.Errorf("Agent result = %q (error %v), want Claude Code's refusal", contentText(got), got.IsError)
	}
	for _, req := range r.srv.Requests() {
		if llmtest.FirstUserText("never runs")(req) {
			t.Fatal("the sub-agent started outside a repository")
		}
	}
}

func TestEnterAndExitWorktreeAreFoundThroughToolSearchAndWork(t *testing.T) {
	r := newRun(t)
	repo := worktreeRepo(t, r)
	tree := filepath.Join(repo, ".mini-claude", "worktrees", "try")
	r.srv.Push(
		calls(llmtest.ToolUse("s", "ToolSearch", `{"query":"select:EnterWorktree,ExitWorktree"}`)),
		calls(llmtest.ToolUse("e", "EnterWorktree", `{"name":"try"}`)),
		calls(llmtest.ToolUse("w", "Write", `{"file_path":"made.txt","content":"in the tree\n"}`)),
		calls(llmtest.ToolUse("x", "ExitWorktree", `{"action":"keep"}`)),
		calls(llmtest.ToolUse("b", "Bash", `{"command":"pwd"}`)),
		text("done"),
	)
	out := r.exec("-p", "use a worktree", "--permission-mode", "acceptEdits")
	if out.code != 0 {
		t.Fatalf("exit %d: %s", out.code, out.stderr)
	}
	reqs := r.srv.Requests()
	first := reqs[0]
	for _, spec := range first.Tools {
		if spec.Name == "EnterWorktree" || spec.Name == "ExitWorktree" {
			t.Errorf("%s was sent in the first request; Claude Code defers it", spec.Name)
		}
	}
	if !strings.Contains(first.System, "EnterWorktree") || !strings.Contains(first.System, "ExitWorktree") {
		t.Error("the system prompt does not name the deferred worktree tools")
	}
	if found := contentText(lastResults(t, r.srv, 1)[0]); !strings.Contains(found, `"name":"EnterWorktree"`) || !strings.Contains(found, `"name":"ExitWorktree"`) {
		t.Errorf("ToolSearch found %q", found)
	}
	var loaded []string
	for _, spec := range reqs[1].Tools {
		loaded = append(loaded, spec.Name)
	}
	if !slices.Contains(loaded, "EnterWorktree") || !slices.Contains(loaded, "ExitWorktree") {
		t.Errorf("after ToolSearch the tools are %v, want both worktree tools loaded", loaded)
	}
	want := []string{
		"Created worktree at “" + tree + "” on branch “worktree-try”. The session is now working in the worktree. Use ExitWorktree to leave mid-session; the worktree is kept when the session ends.",
		"",
		"Exited worktree. Your work is preserved at “" + tree + "” on branch “worktree-try”. Session is now back in “" + repo + "”.",
		repo,
	}
	for i, w := range want {
		res := lastResults(t, r.srv, i+2)[0]
		if res.IsError || w != "" && contentText(res) != w {
			t.Errorf("result %d = %q (error %v), want %q", i+2, contentText(res), res.IsError, w)
		}
	}
	if got := readFile(t, filepath.Join(tree, "made.txt")); got != "in the tree\n" {
		t.Errorf("made.txt in the worktree = %q", got)
	}
	if _, err := os.Stat(filepath.Join(repo, "made.txt")); !os.IsNotExist(err) {
		t.Errorf("made.txt reached the checkout: %v", err)
	}
}

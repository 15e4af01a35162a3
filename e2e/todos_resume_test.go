package e2e

import (
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
	"github.com/mini-claude/mini-claude/internal/session"
)

// todoInput is a TodoWrite call's input and todoCarried the list as a
// compaction carries it, item for item.
const (
	todoInput   = `{"todos":[{"content":"Read the code","status":"completed","activeForm":"Reading the code"},{"content":"Fix the parser","status":"in_progress","activeForm":"Fixing the parser"},{"content":"Run the tests","status":"pending","activeForm":"Running the tests"}]}`
	todoCarried = "<todo-list>\n1. [completed] Read the code\n2. [in_progress] Fix the parser\n3. [pending] Run the tests\n</todo-list>"
)

// TestTodosSurviveResumeAndCompaction: a session writes its todo list and
// ends; resumed (-c, and -r ID), a compaction of the resumed session carries
// the list verbatim in the request after the summary; resumed once more,
// after that compaction, the next compaction carries it again (the list is
// restored from the call before the compact boundary).
func TestTodosSurviveResumeAndCompaction(t *testing.T) {
	for _, how := range []string{"-c", "-r"} {
		t.Run(how, func(t *testing.T) {
			r := newRun(t)
			id := session.NewID()
			r.srv.Push(calls(llmtest.ToolUse("t1", "TodoWrite", todoInput)), text("Planned."))
			if out := r.exec("-p", "plan the fix", "--session-id", id); out.code != 0 {
				t.Fatalf("first run: exit %d, %s", out.code, out.stderr)
			}
			resume := []string{"-c"}
			if how == "-r" {
				resume = []string{"-r", id}
			}
			for round := 1; round <= 2; round++ {
				sent := len(r.srv.Requests())
				r.srv.Push(
					// The system prompt and tools take about 6,000 tokens; 20,000
					// characters of output take the next request over 9,000.
					llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("", "Bash", `{"command":"head -c 20000 /dev/zero | tr '\\0' y"}`)},
						Usage: llm.Usage{InputTokens: 6000, OutputTokens: 30}},
					text("<summary>The parser fix is under way.</summary>"),
					text("Going on."),
				)
				args := append(append([]string{}, resume...), "-p", "go on", "--dangerously-skip-permissions", "--compact-threshold", "9000")
				if out := r.exec(args...); out.code != 0 {
					t.Fatalf("round %d: exit %d, %s", round, out.code, out.stderr)
				}
				reqs := r.srv.Requests()[sent:]
				if len(reqs) != 3 || !strings.Contains(reqs[1].Messages[len(reqs[1].Messages)-1].Text(), "Write that summary now.") {
					t.Fatalf("round %d: %d requests, want a turn, the summary and the turn after it", round, len(reqs))
				}
				after := reqs[2].Messages
				if len(after) != 1 || !strings.Contains(after[0].Text(), todoCarried) {
					t.Errorf("round %d: the request after the summary does not carry the todo list verbatim:\n%s", round, jsonOf(after))
				}
			}
		})
	}
}

// TestTUITodosAfterResume: /todos in a resumed session shows the list the
// session's last TodoWrite call left.
func TestTUITodosAfterResume(t *testing.T) {
	r := newRun(t)
	r.srv.Push(calls(llmtest.ToolUse("t1", "TodoWrite", todoInput)), text("Planned."))
	if out := r.exec("-p", "plan the fix"); out.code != 0 {
		t.Fatalf("first run: exit %d, %s", out.code, out.stderr)
	}
	s := openScreen(t, r, "-c")
	s.typeLine("/todos")
	s.waitFor("1. [completed] Read the code", "2. [in_progress] Fix the parser", "3. [pending] Run the tests")
}

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
	"github.com/mini-claude/mini-claude/internal/mcp/mcptest"
	"github.com/mini-claude/mini-claude/internal/session"
)

// transcriptsOf returns the run's project transcripts (not the prompt history) that mention text.
func transcriptsOf(t *testing.T, r *run, text string) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(filepath.Dir(r.transcriptPath("x")), "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	for _, p := range paths {
		if session.ValidID(strings.TrimSuffix(filepath.Base(p), ".jsonl")) != nil {
			continue
		}
		if data, err := os.ReadFile(p); err == nil && strings.Contains(string(data), text) {
			found = append(found, p)
		}
	}
	return found
}

// exit leaves the UI with /exit and waits for the binary to end.
func (s *screen) exit() {
	s.t.Helper()
	s.typeLine("/exit")
	if !s.exited() {
		s.t.Fatalf("/exit did not leave the UI:\n%s", s.capture())
	}
}

// TestTUIResumePicksAnEarlierSession saves an interactive session, then
// resumes it from a second one with /resume and from a third with a bare -r:
// the model gets the earlier conversation.
func TestTUIResumePicksAnEarlierSession(t *testing.T) {
	r := newRun(t)
	r.srv.Push(text("Noted: 42."))
	first := openScreen(t, r)
	first.typeLine("remember the number 42")
	first.waitFor("Noted: 42.")
	first.exit()
	saved := transcriptsOf(t, r, "remember the number 42")
	if len(saved) != 1 || len(transcriptsOf(t, r, "Noted: 42.")) != 1 {
		t.Fatalf("the interactive session wrote %d transcripts holding its prompt and answer, want 1", len(saved))
	}

	r.srv.Push(text("The number was 42."))
	second := openScreen(t, r)
	second.typeLine("/resume")
	second.waitFor("Resume a session", "❯ just now · 2 messages · remember the number 42")
	second.keys("Enter")
	second.waitFor("Resumed session "+strings.TrimSuffix(filepath.Base(saved[0]), ".jsonl"), "> remember the number 42", "Noted: 42.")
	second.typeLine("what was the number?")
	second.waitFor("The number was 42.")
	second.exit()
	if all := transcriptsOf(t, r, ""); len(all) != 1 {
		t.Errorf("%d transcripts after resuming, want 1: the second session got no message of its own", len(all))
	}
	msgs := r.srv.Requests()[1].Messages
	if len(msgs) != 3 || msgs[0].Text() != "remember the number 42" || msgs[1].Text() != "Noted: 42." || msgs[2].Text() != "what was the number?" {
		t.Fatalf("the resumed request holds %d messages: %+v", len(msgs), msgs)
	}

	r.srv.Push(text("Still 42."))
	third := openScreen(t, r, "-r")
	third.waitFor("Resume a session", "4 messages · remember the number 42")
	third.keys("Enter")
	third.waitFor("> what was the number?", "The number was 42.")
	third.typeLine("and now?")
	third.waitFor("Still 42.")
	if n := len(r.srv.Requests()[2].Messages); n != 5 {
		t.Errorf("the request after a bare -r holds %d messages, want 5", n)
	}
	if saved := transcriptsOf(t, r, "and now?"); len(saved) != 1 || !strings.Contains(saved[0], filepath.Base(transcriptsOf(t, r, "remember the number 42")[0])) {
		t.Errorf("the resumed session's prompt went to %v, want the first session's transcript", saved)
	}
}

func TestTUITodosAfterTodoWrite(t *testing.T) {
	r := newRun(t)
	todos := `{"todos":[{"content":"Read the code","status":"completed","activeForm":"Reading the code"},{"content":"Write the plan","status":"in_progress","activeForm":"Writing the plan"}]}`
	r.srv.Push(calls(llmtest.ToolUse("t1", "TodoWrite", todos)), text("Planned."))
	s := openScreen(t, r)
	s.typeLine("/todos")
	s.waitFor("No todos.")
	s.typeLine("plan the work")
	s.waitFor("Planned.")
	s.typeLine("/todos")
	s.waitFor("1. [completed] Read the code", "2. [in_progress] Write the plan")
}

// TestTUICompact compacts by hand: the summary request carries the
// instructions, and the next turn's history is the summary alone.
func TestTUICompact(t *testing.T) {
	r := newRun(t)
	r.srv.Push(text("The build uses make."), text("<summary>The user asked about the build; it uses make.</summary>"), text("Yes, make."))
	s := openScreen(t, r)
	s.typeLine("how is it built?")
	s.waitFor("The build uses make.")
	s.typeLine("/compact keep the build tool")
	s.waitFor("Conversation compacted: 2 messages summarised")
	s.typeLine("still make?")
	s.waitFor("Yes, make.")
	reqs := r.srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3 (turn, summary, turn)", len(reqs))
	}
	if got := reqs[1].Messages[len(reqs[1].Messages)-1].Text(); !strings.Contains(got, "keep the build tool") {
		t.Errorf("the summary request does not carry the instructions: %.300q", got)
	}
	next := reqs[2].Messages
	if len(next) != 1 || len(next[0].Content) != 2 || !strings.Contains(next[0].Content[0].Text, "The user asked about the build; it uses make.") ||
		strings.Contains(next[0].Content[0].Text, "The build uses make.") || next[0].Content[1].Text != "still make?" {
		t.Errorf("the request after /compact holds %d messages: %+v", len(next), next)
	}
}

// TestTUIMCPServers connects the project's MCP servers under the open UI: a
// failed one is reported on screen, a working one's tools are called.
func TestTUIMCPServers(t *testing.T) {
	servers := mcptest.Find(t)
	r := newRun(t)
	openEchoSession(t, r, map[string]any{
		"everything": map[string]any{"command": servers.Node, "args": []string{servers.Everything, "stdio"}},
		"broken":     map[string]any{"command": servers.Node, "args": []string{"-e", `console.error("no database"); process.exit(2)`}},
	}, "broken")
	if got := contentText(lastResults(t, r.srv, len(r.srv.Requests())-1)[0]); !strings.Contains(got, "through the UI") {
		t.Errorf("the MCP tool returned %q", got)
	}
}

// TestTUISubAgents shows a line per sub-agent start and finish, and gives the
// model a background agent's report in a turn of its own once it ends.
func TestTUISubAgents(t *testing.T) {
	r := newRun(t)
	r.srv.Route(llmtest.FirstUserText("start the audit"),
		calls(agentCall("bg", "Audit deps", "task audit", `,"run_in_background":true`)),
		text("The audit runs in the background."),
		text("The audit found nothing."))
	r.srv.Route(llmtest.FirstUserText("task audit"),
		calls(llmtest.ToolUse("s", "Sleep", `{"label":"audit","ms":400}`)),
		text("no vulnerable dependencies"))
	s := openScreen(t, r, "--tools", "Agent,Sleep")
	s.typeLine("start the audit")
	s.waitFor("Agent(Audit deps)", "Backgrounded agent", "The audit runs in the background.",
		"Agent general-purpose: Audit deps finished · 1 tool use ·", "The audit found nothing.")
	notice := lastOf(request(t, r.srv, "start the audit", 2))
	if len(notice) != 1 || !strings.Contains(notice[0].Text, "<result>no vulnerable dependencies</result>") {
		t.Fatalf("the report turn got %+v", notice)
	}
}

func TestTUIClearStartsANewSession(t *testing.T) {
	r := newRun(t)
	r.srv.Push(text("One."), text("Two."))
	s := openScreen(t, r)
	s.typeLine("first question")
	s.waitFor("One.")
	s.typeLine("/clear")
	s.waitFor("Started a new conversation.")
	s.typeLine("second question")
	s.waitFor("Two.")
	if msgs := r.srv.Requests()[1].Messages; len(msgs) != 1 || msgs[0].Text() != "second question" {
		t.Errorf("the request after /clear holds %+v", msgs)
	}
	first, second := transcriptsOf(t, r, "first question"), transcriptsOf(t, r, "second question")
	if len(first) != 1 || len(second) != 1 || first[0] == second[0] {
		t.Errorf("transcripts %v and %v, want one for each conversation", first, second)
	}
}

// TestTUISessionIDThenContinue names the session of an interactive run, then
// continues it with -c: the conversation is on screen and goes to the model.
func TestTUISessionIDThenContinue(t *testing.T) {
	r := newRun(t)
	const id = "3f2b8c1e-7d4a-4e59-9b1f-0a6c2d8e4f71"
	r.srv.Push(text("Named."), text("Continued."))
	first := openScreen(t, r, "--session-id", id)
	first.typeLine("name this session")
	first.waitFor("Named.")
	first.exit()
	if data, err := os.ReadFile(r.transcriptPath(id)); err != nil || !strings.Contains(string(data), "name this session") {
		t.Fatalf("the transcript of --session-id: %v %.200q", err, data)
	}
	second := openScreen(t, r, "-c")
	second.waitFor("> name this session", "Named.", "Resumed the session's conversation.")
	second.typeLine("go on")
	second.waitFor("Continued.")
	if msgs := r.srv.Requests()[1].Messages; len(msgs) != 3 {
		t.Errorf("the continued request holds %d messages, want 3", len(msgs))
	}
	if data, _ := os.ReadFile(r.transcriptPath(id)); !strings.Contains(string(data), "go on") {
		t.Errorf("-c did not append to the session's transcript")
	}
}

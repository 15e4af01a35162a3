package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// below reports whether, on the screen, a line holding want comes after the
// line holding title and is indented under it.
func below(shot, title, want string) bool {
	lines := strings.Split(shot, "\n")
	for i, l := range lines {
		if !strings.Contains(l, title) {
			continue
		}
		for _, after := range lines[i+1:] {
			if strings.Contains(after, want) {
				return strings.HasPrefix(after, "  ")
			}
		}
	}
	return false
}

// TestTUISubAgentToolCallsDrawUnderTheAgentCall runs an Agent call whose
// sub-agent reads a file and runs a slow command: while it works, its calls
// show under the Agent call; once done, the call condenses to its Done line,
// and Ctrl-O lists the calls again.
func TestTUISubAgentToolCallsDrawUnderTheAgentCall(t *testing.T) {
	r := newRun(t)
	file := filepath.Join(r.dir, "notes.txt")
	if err := os.WriteFile(file, []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bash := "sleep 2; echo slow done"
	r.srv.Route(llmtest.FirstUserText("inspect the notes"),
		calls(agentCall("a1", "Inspect the notes", "task inspect", "")),
		text("Inspected."))
	r.srv.Route(llmtest.FirstUserText("task inspect"),
		calls(llmtest.ToolUse("r1", "Read", fmt.Sprintf(`{"file_path":%q}`, file))),
		calls(llmtest.ToolUse("b1", "Bash", fmt.Sprintf(`{"command":%q}`, bash))),
		text("two lines, and the command is slow"))
	s := openScreen(t, r, "--tools", "Agent,Read,Bash", "--allowedTools", "Bash")
	s.typeLine("inspect the notes")
	shot := s.waitFor("Agent(Inspect the notes)", "Read("+file+")", "Bash("+bash+")")
	for _, call := range []string{"Read(" + file + ")", "Bash(" + bash + ")"} {
		if !below(shot, "Agent(Inspect the notes)", call) {
			t.Errorf("%s is not drawn under the Agent call:\n%s", call, shot)
		}
	}
	shot = s.waitFor("Done (2 tool uses", "Inspected.")
	if !below(shot, "Agent(Inspect the notes)", "Done (2 tool uses") || strings.Contains(shot, "Read("+file+")") {
		t.Errorf("the finished Agent call does not condense to its Done line:\n%s", shot)
	}
	s.keys("C-o")
	shot = s.waitFor("Read("+file+")", "Bash("+bash+")", "Done (2 tool uses")
	if !below(shot, "Agent(Inspect the notes)", "Bash("+bash+")") {
		t.Errorf("Ctrl-O does not list the sub-agent's calls under the Agent call:\n%s", shot)
	}
}

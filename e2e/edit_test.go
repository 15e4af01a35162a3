package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// TestEditAfterWrite seeds the session with a Write of a new file (which
// records it as seen) and edits it, in a CRLF file, with an LF old_string.
func TestEditAfterWrite(t *testing.T) {
	r := newRun(t)
	path := filepath.Join(r.dir, "app.py")
	unread := filepath.Join(r.dir, "unread.py")
	os.WriteFile(unread, []byte("x = 1\n"), 0o644)
	r.srv.Push(
		calls(llmtest.ToolUse("w", "Write", toolInput(t, map[string]any{"file_path": path, "content": "def f():\r\n    return 1\r\n"}))),
		calls(
			llmtest.ToolUse("e1", "Edit", toolInput(t, map[string]any{"file_path": path, "old_string": "def f():\n    return 1", "new_string": "def f():\n    return 2"})),
			llmtest.ToolUse("e2", "Edit", toolInput(t, map[string]any{"file_path": path, "old_string": "return 3", "new_string": "return 4"})),
			llmtest.ToolUse("e3", "Edit", toolInput(t, map[string]any{"file_path": unread, "old_string": "x = 1", "new_string": "x = 2"})),
		),
		text("edited"),
	)
	out := r.exec("-p", "edit", "--allowedTools", "Write,Edit")
	if out.code != 0 || out.stdout != "edited\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	results := lastResults(t, r.srv, 2)
	if got := contentText(results[0]); results[0].IsError || got != "The file "+path+" has been updated successfully. (file state is current in your context — no need to Read it back)" {
		t.Errorf("edit: %q (error %v)", got, results[0].IsError)
	}
	if got := contentText(results[1]); !results[1].IsError || !strings.Contains(got, "String to replace not found") || !strings.Contains(got, "2\t    return 2") {
		t.Errorf("missing string: %q, want a miss that shows the closest line", got)
	}
	if got := contentText(results[2]); !results[2].IsError || !strings.Contains(got, "has not been read") {
		t.Errorf("unread file: %q", got)
	}
	if data, _ := os.ReadFile(path); string(data) != "def f():\r\n    return 2\r\n" {
		t.Errorf("file holds %q, want the edit with CRLF kept", data)
	}
	if data, _ := os.ReadFile(unread); string(data) != "x = 1\n" {
		t.Errorf("the unread file was edited: %q", data)
	}
}

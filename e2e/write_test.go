package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// toolInput encodes a tool's input object for a scripted tool_use.
func toolInput(t *testing.T, fields map[string]any) string {
	t.Helper()
	raw, err := json.Marshal(fields)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

func TestWriteCreatesFilesAndRefusesUnreadOnes(t *testing.T) {
	r := newRun(t)
	existing := filepath.Join(r.dir, "existing.txt")
	os.WriteFile(existing, []byte("keep me\n"), 0o644)
	created := filepath.Join(r.dir, "notes", "new.txt")
	r.srv.Push(
		calls(
			llmtest.ToolUse("w1", "Write", toolInput(t, map[string]any{"file_path": created, "content": "first\n"})),
			llmtest.ToolUse("w2", "Write", toolInput(t, map[string]any{"file_path": existing, "content": "clobbered\n"})),
		),
		calls(llmtest.ToolUse("w3", "Write", toolInput(t, map[string]any{"file_path": created, "content": "second\n"}))),
		text("done"),
	)
	out := r.exec("-p", "write", "--permission-mode", "acceptEdits")
	if out.code != 0 || out.stdout != "done\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	first := lastResults(t, r.srv, 1)
	if got := contentText(first[0]); first[0].IsError || got != "File created successfully at: "+created+" (file state is current in your context — no need to Read it back)" {
		t.Errorf("new file: %q (error %v)", got, first[0].IsError)
	}
	if got := contentText(first[1]); !first[1].IsError || !strings.Contains(got, "has not been read") {
		t.Errorf("unread file: %q (error %v), want a refusal asking to Read it", got, first[1].IsError)
	}
	if got := contentText(lastResults(t, r.srv, 2)[0]); got != "The file "+created+" has been updated successfully. (file state is current in your context — no need to Read it back)" {
		t.Errorf("second write of the file it created: %q", got)
	}
	if data, _ := os.ReadFile(existing); string(data) != "keep me\n" {
		t.Errorf("the unread file was overwritten: %q", data)
	}
	if data, _ := os.ReadFile(created); string(data) != "second\n" {
		t.Errorf("created file holds %q", data)
	}
}

func TestWriteNeedsPermissionInDefaultMode(t *testing.T) {
	r := newRun(t)
	target := filepath.Join(r.dir, "x.txt")
	r.srv.Push(calls(llmtest.ToolUse("w", "Write", toolInput(t, map[string]any{"file_path": target, "content": "x"}))), text("denied"))
	if out := r.exec("-p", "write"); out.code != 0 {
		t.Fatalf("exit %d: %s", out.code, out.stderr)
	}
	if result := lastResults(t, r.srv, 1)[0]; !result.IsError || !strings.Contains(contentText(result), "--allowedTools Write") {
		t.Errorf("result %q, want a denial naming --allowedTools Write", contentText(result))
	}
	if _, err := os.Stat(target); err == nil {
		t.Error("the denied Write created the file")
	}
}

package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// A prompt's @path mention attaches the file as Claude Code does, before the
// prompt, and counts as a read: the model may edit the file straight away.
func TestMentionAttachesTheFile(t *testing.T) {
	r := newRun(t)
	path := filepath.Join(r.dir, "notes.txt")
	if err := os.WriteFile(path, []byte("alpha\nbeta\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	edit := fmt.Sprintf(`{"file_path":%q,"old_string":"beta","new_string":"gamma"}`, path)
	r.srv.Push(calls(llmtest.ToolUse("e1", "Edit", edit)), text("Edited."))
	out := r.exec("-p", "fix @notes.txt and ignore @missing.txt", "--permission-mode", "acceptEdits")
	if out.code != 0 {
		t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	first := r.srv.Requests()[0].Messages[0]
	blocks := first.Content
	if len(blocks) != 3 || blocks[2].Text != "fix @notes.txt and ignore @missing.txt" {
		t.Fatalf("first message %q, want the read's call and result, then the prompt as typed", first.Text())
	}
	wantCall := fmt.Sprintf("Called the Read tool with the following input: {\"file_path\":%q}", path)
	if !strings.Contains(blocks[0].Text, wantCall) || !strings.Contains(blocks[1].Text, "Result of calling the Read tool:\n1\talpha\n2\tbeta\n") {
		t.Errorf("attached %q / %q, want the Read call on %s and the numbered lines", blocks[0].Text, blocks[1].Text, path)
	}
	result := lastResults(t, r.srv, 1)[0]
	if result.IsError {
		t.Errorf("the edit after the mention failed: %s", contentText(result))
	}
	if got, _ := os.ReadFile(path); string(got) != "alpha\ngamma\n" {
		t.Errorf("file holds %q after the edit", got)
	}
}

// In the UI, a mention completed with Tab attaches the file too, and the
// conversation says it was read.
func TestTUIMentionAttachesTheFile(t *testing.T) {
	r := newRun(t)
	if err := os.WriteFile(filepath.Join(r.dir, "notes.txt"), []byte("alpha\nbeta\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r.srv.Push(text("Noted."))
	s := openScreen(t, r)
	s.run("send-keys", "-t", "0", "-l", "summarize @no")
	s.keys("Tab")
	s.waitFor("summarize @notes.txt")
	s.keys("Enter")
	s.waitFor("Read notes.txt", "Noted.")
	first := r.srv.Requests()[0].Messages[0]
	if first.PromptText() != "summarize @notes.txt" || !strings.Contains(first.Text(), "Result of calling the Read tool:\n1\talpha\n2\tbeta\n") {
		t.Errorf("the model got %q, want the file's numbered lines before the prompt", first.Text())
	}
}

package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// A prompt's @path mention attaches the file, or with #L the lines asked for,
// with Claude Code's blocks: the Read call, then its result and the prompt,
// in one user message (Claude Code sends the call as a message of its own;
// roles alternate in every request of mini-claude's). It counts as a read: the model may edit the file
// straight away.
func TestMentionAttachesTheFile(t *testing.T) {
	tests := []struct {
		name, mention, input, lines string
	}{
		{"whole file", "@notes.txt", `{"file_path":%q}`, "1\talpha\n2\tbeta\n3\t\n"},
		{"line range", "@notes.txt#L2-3", `{"file_path":%q,"offset":2,"limit":2}`, "2\tbeta\n3\t\n"},
		{"one line", "@notes.txt#L2", `{"file_path":%q,"offset":2,"limit":1}`, "2\tbeta\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRun(t)
			path := filepath.Join(r.dir, "notes.txt")
			if err := os.WriteFile(path, []byte("alpha\nbeta\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			edit := fmt.Sprintf(`{"file_path":%q,"old_string":"beta","new_string":"gamma"}`, path)
			r.srv.Push(calls(llmtest.ToolUse("e1", "Edit", edit)), text("Edited."))
			prompt := "fix " + tt.mention + " and ignore @missing.txt"
			out := r.exec("-p", prompt, "--permission-mode", "acceptEdits")
			if out.code != 0 {
				t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
			}
			msgs := r.srv.Requests()[0].Messages
			wantCall := "<system-reminder>\nCalled the Read tool with the following input: " + fmt.Sprintf(tt.input, path) + "\n</system-reminder>"
			wantResult := "<system-reminder>\nResult of calling the Read tool:\n" + tt.lines + "</system-reminder>\n"
			if len(msgs) != 1 || len(msgs[0].Content) != 3 {
				t.Fatalf("first request %+v, want one user message: the Read call, its result and the prompt", msgs)
			}
			if got := msgs[0].Content[0].Text; got != wantCall {
				t.Errorf("call %q, want %q", got, wantCall)
			}
			if got := msgs[0].Content[1].Text; got != wantResult {
				t.Errorf("result %q, want %q", got, wantResult)
			}
			if got := msgs[0].Content[2].Text; got != prompt {
				t.Errorf("prompt %q, want %q as typed", got, prompt)
			}
			result := lastResults(t, r.srv, 1)[0]
			if result.IsError {
				t.Errorf("the edit after the mention failed: %s", contentText(result))
			}
			if got, _ := os.ReadFile(path); string(got) != "alpha\ngamma\n" {
				t.Errorf("file holds %q after the edit", got)
			}
		})
	}
}

// In the UI, a mention completed with Tab attaches the file too, a #L suffix
// typed after it reads only those lines, and the conversation says the file
// was read.
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
	s.keys("BSpace")
	s.run("send-keys", "-t", "0", "-l", "#L2")
	s.keys("Tab")
	s.waitFor("summarize @notes.txt#L2")
	s.keys("Enter")
	s.waitFor("Read notes.txt", "Noted.")
	msgs := r.srv.Requests()[0].Messages
	if len(msgs) != 1 || len(msgs[0].Content) != 3 || !strings.Contains(msgs[0].Content[0].Text, `"offset":2,"limit":1}`) {
		t.Fatalf("the model got %+v, want the Read call of line 2 first in the prompt's message", msgs)
	}
	if got := msgs[0].PromptText(); got != "summarize @notes.txt#L2" {
		t.Errorf("the prompt reached the model as %q", got)
	}
	if got := msgs[0].Text(); !strings.Contains(got, "Result of calling the Read tool:\n2\tbeta\n</system-reminder>") {
		t.Errorf("the model got %q, want line 2 numbered before the prompt", got)
	}
}

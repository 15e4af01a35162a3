package e2e

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// rewindFiles are the files of the rewind scenario as they are before it:
// line endings and a last line without a newline must come back exactly.
func rewindFiles() map[string][]byte {
	return map[string][]byte{
		"crlf.txt":    []byte("one\r\ntwo\r\n"),
		"noeol.sh":    []byte("#!/bin/sh\necho alpha\necho beta"),
		"watched.txt": []byte("watch me\n"),
	}
}

func fileUse(id, name, file string, fields string) llmtest.Turn {
	return calls(llmtest.ToolUse(id, name, fmt.Sprintf(`{"file_path":%q%s}`, file, fields)))
}

// TestTUIRewindRestoresCodeAndConversation runs three prompts that edit,
// create and empty files, one of them binary, changes one outside
// mini-claude, then goes back before the second with /rewind: every file
// gets its exact bytes and mode back, the one created since is deleted, the
// one changed outside is reported and kept, the prompt is back in the input,
// and the next request holds only the conversation before it. Deleting a
// file with Bash would not be tracked, so "deleted" here is what the
// tracked tools do: a file the session created goes away, and one emptied
// by Write gets its content back. (mini-claude's Read and Write refuse
// files that are not UTF-8, so the binary file is one with NUL and control
// bytes that Write itself made.) The session is then resumed with -c, and Esc
// Esc restores the code from checkpoints written before the resume.
func TestTUIRewindRestoresCodeAndConversation(t *testing.T) {
	r := newRun(t)
	original := rewindFiles()
	path := func(name string) string { return filepath.Join(r.dir, name) }
	for name, data := range original {
		mode := os.FileMode(0o644)
		if strings.HasSuffix(name, ".sh") {
			mode = 0o755
		}
		os.WriteFile(path(name), data, mode)
		os.Chmod(path(name), mode)
	}
	r.srv.Push(text("Hi."),
		calls(llmtest.ToolUse("r1", "Read", fmt.Sprintf(`{"file_path":%q}`, path("crlf.txt"))),
			llmtest.ToolUse("r2", "Read", fmt.Sprintf(`{"file_path":%q}`, path("noeol.sh"))),
			llmtest.ToolUse("r3", "Read", fmt.Sprintf(`{"file_path":%q}`, path("watched.txt")))),
		calls(llmtest.ToolUse("e1", "Edit", fmt.Sprintf(`{"file_path":%q,"old_string":"two","new_string":"TWO"}`, path("crlf.txt"))),
			llmtest.ToolUse("e2", "Edit", fmt.Sprintf(`{"file_path":%q,"old_string":"beta","new_string":"gamma"}`, path("noeol.sh"))),
			llmtest.ToolUse("w0", "Write", fmt.Sprintf(`{"file_path":%q,"content":"\u0000\u0001\u00ff\r\nbinary\u001b\u0000"}`, path("blob.dat")))),
		text("Edited."),
		calls(llmtest.ToolUse("w1", "Write", fmt.Sprintf(`{"file_path":%q,"content":"brand new\n"}`, path("new.txt"))),
			llmtest.ToolUse("w2", "Write", fmt.Sprintf(`{"file_path":%q,"content":"now plain text\n"}`, path("blob.dat")))),
		text("Created."),
		calls(llmtest.ToolUse("w3", "Write", fmt.Sprintf(`{"file_path":%q,"content":""}`, path("noeol.sh"))),
			llmtest.ToolUse("e3", "Edit", fmt.Sprintf(`{"file_path":%q,"old_string":"watch me","new_string":"watched"}`, path("watched.txt"))),
			llmtest.ToolUse("e4", "Edit", fmt.Sprintf(`{"file_path":%q,"old_string":"TWO","new_string":"2"}`, path("crlf.txt")))),
		text("Emptied."),
	)
	s := openScreen(t, r, "--permission-mode", "acceptEdits")
	var before map[string][]byte // the files as the first prompt left them
	for _, p := range []struct{ prompt, answer string }{
		{"hello", "Hi."}, {"edit the files", "Edited."}, {"create a file", "Created."}, {"empty a file", "Emptied."},
	} {
		s.typeLine(p.prompt)
		s.waitFor(p.answer)
		if p.answer == "Edited." {
			before = map[string][]byte{}
			for _, name := range []string{"crlf.txt", "noeol.sh", "blob.dat"} {
				before[name], _ = os.ReadFile(path(name))
			}
		}
	}
	if !bytes.Equal(before["crlf.txt"], []byte("one\r\nTWO\r\n")) || !bytes.Equal(before["noeol.sh"], []byte("#!/bin/sh\necho alpha\necho gamma")) ||
		!bytes.Contains(before["blob.dat"], []byte{0, 1, 0xc3, 0xbf, '\r', '\n'}) {
		t.Fatalf("the first prompt left %q", before)
	}
	if data, _ := os.ReadFile(path("noeol.sh")); len(data) != 0 {
		t.Fatalf("the third prompt did not empty noeol.sh: %q", data)
	}
	os.WriteFile(path("watched.txt"), []byte("changed outside\n"), 0o644)

	s.typeLine("/rewind")
	s.waitFor("Restore the code and/or conversation to the point before…", "hello · No code changes",
		"edit the files · 3 files changed", "create a file · 2 files changed", "❯ empty a file · 3 files changed",
		"Changes made by Bash commands are not tracked")
	s.keys("Up", "Enter")
	s.waitFor("Restore to the point before you sent this message:", "│ create a file", "1. Restore code and conversation",
		"2. Restore conversation", "3. Restore code", "4. Never mind", "The conversation goes back to before this message.",
		"The code will be restored in new.txt and 4 other files.", "Changed outside mini-claude since: watched.txt")
	s.keys("Enter")
	s.waitFor("These files changed since mini-claude last wrote them", "watched.txt", "1. Keep them, restore the rest")
	s.keys("Enter")
	s.waitFor(`Rewound the code and conversation to before "create a file".`,
		"Kept (changed outside mini-claude): watched.txt", "Deleted (created since): new.txt", "> create a file")

	for name, want := range before {
		if got, _ := os.ReadFile(path(name)); !bytes.Equal(got, want) {
			t.Errorf("%s holds %q after the rewind, want %q", name, got, want)
		}
	}
	if info, _ := os.Stat(path("noeol.sh")); info.Mode().Perm() != 0o755 {
		t.Errorf("noeol.sh has mode %v after the rewind, want 0755", info.Mode().Perm())
	}
	if _, err := os.Stat(path("new.txt")); !os.IsNotExist(err) {
		t.Errorf("new.txt, created after the prompt, is still there (%v)", err)
	}
	if got, _ := os.ReadFile(path("watched.txt")); string(got) != "changed outside\n" {
		t.Errorf("the file changed outside was clobbered: %q", got)
	}

	// The prompt is back in the input: send it again, this time changing crlf.txt.
	r.srv.Push(fileUse("r5", "Read", path("crlf.txt"), ""),
		fileUse("e5", "Edit", path("crlf.txt"), `,"old_string":"one","new_string":"ONE"`), text("Again."))
	s.keys("Enter")
	s.waitFor("Again.")
	sent := r.srv.Requests()[8].Messages
	if len(sent) != 9 || sent[8].Text() != "create a file" || sent[7].Text() != "Edited." {
		t.Fatalf("the request after the rewind holds %d messages, the last %q, want the 8 before the prompt and the prompt", len(sent), sent[len(sent)-1].Text())
	}
	for _, m := range sent {
		if text := m.Text(); strings.Contains(text, "Created.") || strings.Contains(text, "empty a file") {
			t.Errorf("the request after the rewind still holds %q", text)
		}
	}
	s.exit()

	resumed := openScreen(t, r, "-c")
	resumed.waitFor("Resumed the session's conversation.", "Again.")
	resumed.keys("Escape")
	resumed.keys("Escape")
	resumed.waitFor("hello · No code changes", "edit the files · 3 files changed", "❯ create a file · 1 file changed")
	resumed.keys("Enter")
	resumed.waitFor("The code will be restored in crlf.txt.")
	resumed.keys("3")
	resumed.waitFor(`Rewound the code to before "create a file".`, "Restored: crlf.txt")
	if got, _ := os.ReadFile(path("crlf.txt")); !bytes.Equal(got, before["crlf.txt"]) {
		t.Errorf("after the resume, crlf.txt holds %q, want %q", got, before["crlf.txt"])
	}
}

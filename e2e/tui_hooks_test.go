package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The hooks in the interactive UI, in tmux.

// hookSettings writes the project's settings with hooks and trusts the folder.
func hookSettings(t *testing.T, r *run, hooks string) {
	t.Helper()
	writeSettings(t, r.dir, ".claude/settings.json", `{"hooks": `+hooks+`}`)
	r.trust(false)
}

// logHook is a command that appends its stdin, one line each, to file in the project.
func logHook(file string) string {
	return `{"type": "command", "command": "cat >> \"$CLAUDE_PROJECT_DIR\"/` + file + `; echo >> \"$CLAUDE_PROJECT_DIR\"/` + file + `"}`
}

// logged reads the inputs a logHook wrote, waiting until n are there.
func logged(t *testing.T, r *run, file string, n int) []map[string]any {
	t.Helper()
	deadline := time.Now().Add(screenTimeout)
	for {
		data, _ := os.ReadFile(filepath.Join(r.dir, file))
		var inputs []map[string]any
		for _, line := range strings.Split(string(data), "\n") {
			var in map[string]any
			if json.Unmarshal([]byte(line), &in) == nil {
				inputs = append(inputs, in)
			}
		}
		if len(inputs) >= n {
			return inputs
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s holds %d hook inputs, want %d:\n%s", file, len(inputs), n, data)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestTUIHookBlockedCallShowsTheReason(t *testing.T) {
	r := newRun(t)
	hookSettings(t, r, `{"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
		"command": "grep -q 'rm -rf' && { echo 'rm -rf is not allowed here' >&2; exit 2; }; exit 0"}]}]}`)
	os.Mkdir(filepath.Join(r.dir, "build"), 0o755)
	r.srv.Push(calls(bashUse("b1", "rm -rf build")), text("I will not delete it."))
	s := openScreen(t, r, "--permission-mode", "bypassPermissions")
	s.typeLine("clean the build")
	s.waitFor("Bash(rm -rf build)", "Blocked by the PreToolUse:Bash hook", "rm -rf is not allowed here", "hook: grep -q", "I will not delete it.")
	if _, err := os.Stat(filepath.Join(r.dir, "build")); err != nil {
		t.Error("the blocked rm -rf ran")
	}
	if got := contentText(lastResults(t, r.srv, 1)[0]); !strings.HasSuffix(got, "]: rm -rf is not allowed here\n") {
		t.Errorf("the model was told %q", got)
	}
}

func TestTUIHookBlockedPromptStaysInTheInput(t *testing.T) {
	r := newRun(t)
	hookSettings(t, r, `{"UserPromptSubmit": [{"hooks": [{"type": "command",
		"command": "grep -q deploy && { echo 'No deploys on Friday' >&2; exit 2; }; exit 0"}]}]}`)
	r.srv.Push(text("Fixed."))
	s := openScreen(t, r)
	s.typeLine("deploy to prod")
	shot := s.waitFor("UserPromptSubmit operation blocked by hook: No deploys on Friday", "Your prompt is back in the input")
	if !strings.Contains(shot, "> deploy to prod") {
		t.Errorf("the blocked prompt is not back in the input:\n%s", shot)
	}
	if n := len(r.srv.Requests()); n != 0 {
		t.Errorf("%d requests reached the model, want none", n)
	}
	s.keys("C-u")
	s.typeLine("fix the bug")
	s.waitFor("Fixed.")
}

func TestTUIHooksCommandListsTheHooks(t *testing.T) {
	r := newRun(t)
	hookSettings(t, r, `{"PostToolUse": [{"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "gofmt -w .", "timeout": 5}]}],
		"Stop": [{"hooks": [{"type": "command", "command": "make test"}]}]}`)
	r.userSettings(`{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}]}}`)
	s := openScreen(t, r)
	s.typeLine("/ho\t")
	shot := s.waitFor("Hooks (3):", "PreToolUse", "./guard.sh", "PostToolUse", "Edit|Write", "gofmt -w .", ".claude/settings.json · timeout 5s", "make test")
	if !strings.Contains(shot, filepath.Join(".mini-claude", "settings.json")) {
		t.Errorf("/hooks does not name the user's settings file:\n%s", shot)
	}
}

func TestTUIHookNotificationOnAWaitingPermissionDialog(t *testing.T) {
	r := newRun(t)
	hookSettings(t, r, `{"Notification": [{"hooks": [`+logHook("notified.jsonl")+`]}]}`)
	r.setenv("MINI_CLAUDE_PERMISSION_NOTIFY_MS=300")
	r.setenv("MINI_CLAUDE_IDLE_NOTIFY_MS=300")
	r.srv.Push(calls(bashUse("b1", "touch made-by-bash")), text("Finished."))
	s := openScreen(t, r)
	s.typeLine("make the file")
	s.waitFor("Bash wants permission")
	first := logged(t, r, "notified.jsonl", 1)[0]
	if first["message"] != "Claude needs your permission" || first["notification_type"] != "permission_prompt" || first["hook_event_name"] != "Notification" {
		t.Errorf("the dialog's notification = %v", first)
	}
	s.run("send-keys", "-t", "0", "-l", "1")
	s.waitFor("Finished.")
	idle := logged(t, r, "notified.jsonl", 2)[1]
	if idle["message"] != "Claude is waiting for your input" || idle["notification_type"] != "idle_prompt" || idle["prompt_id"] == "" {
		t.Errorf("the idle notification = %v", idle)
	}
}

func TestTUIHookSessionStartAndEnd(t *testing.T) {
	r := newRun(t)
	hookSettings(t, r, `{"SessionStart": [{"hooks": [{"type": "command", "command": "echo 'Team rules: run make test'"}, `+logHook("started.jsonl")+`]}],
		"SessionEnd": [{"hooks": [`+logHook("ended.jsonl")+`]}]}`)
	r.srv.Push(text("Noted."), text("Fresh."))
	s := openScreen(t, r)
	s.typeLine("hello")
	s.waitFor("Noted.")
	first := r.srv.Requests()[0].Messages[0].Content
	if len(first) < 2 || first[0].Text != "<system-reminder>\nSessionStart:startup hook success: Team rules: run make test\n</system-reminder>" {
		t.Errorf("first message = %+v, want the SessionStart context first", first)
	}
	started := logged(t, r, "started.jsonl", 1)[0]
	if started["source"] != "startup" || started["model"] == nil {
		t.Errorf("SessionStart input = %v", started)
	}
	s.typeLine("/clear")
	s.waitFor("Started a new conversation.")
	ended := logged(t, r, "ended.jsonl", 1)[0]
	cleared := logged(t, r, "started.jsonl", 2)[1]
	if ended["reason"] != "clear" || ended["session_id"] != started["session_id"] || ended["prompt_id"] == nil {
		t.Errorf("SessionEnd on /clear = %v", ended)
	}
	if cleared["source"] != "clear" || cleared["session_id"] == started["session_id"] {
		t.Errorf("SessionStart after /clear = %v", cleared)
	}
	s.typeLine("again")
	s.waitFor("Fresh.")
	if got := r.srv.Requests()[1].Messages[0].Content[0].Text; !strings.Contains(got, "SessionStart:clear hook success: Team rules") {
		t.Errorf("the first message after /clear starts %q", got)
	}
	s.typeLine("/exit")
	if !s.exited() {
		t.Fatal("/exit did not leave")
	}
	last := logged(t, r, "ended.jsonl", 2)[1]
	if last["reason"] != "prompt_input_exit" || last["session_id"] != cleared["session_id"] {
		t.Errorf("SessionEnd on /exit = %v", last)
	}
}

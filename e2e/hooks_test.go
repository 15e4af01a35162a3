package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// teamHooks is the README's team example: no writes to migrations/, the
// ticket in every prompt, and context at the start of the session.
const teamHooks = `{"hooks": {
	"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
		"command": "grep -q 'migrations/' && { echo 'migrations/ is frozen' >&2; exit 2; }; exit 0"}]}],
	"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "echo 'Ticket ABC-123: fix the login bug'"}]}],
	"SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": "echo 'Team rules: run make test'"}]}]}}`

func TestProjectHooksRunOnlyInATrustedFolder(t *testing.T) {
	r := newRun(t)
	writeSettings(t, r.dir, ".claude/settings.json", teamHooks)
	os.MkdirAll(filepath.Join(r.dir, "migrations"), 0o755)
	r.srv.Push(calls(bashUse("b1", "touch migrations/0001.sql")), text("done"))
	out := r.exec("-p", "add a migration", "--allowedTools", "Bash(touch:*)", "--permission-mode", "acceptEdits")
	if out.code != 0 || !strings.Contains(out.stderr, "hook PreToolUse (grep -q") || !strings.Contains(out.stderr, "not trusted") {
		t.Fatalf("untrusted: exit %d, stderr %q; want the hooks named as ignored", out.code, out.stderr)
	}
	if _, err := os.Stat(filepath.Join(r.dir, "migrations", "0001.sql")); err != nil {
		t.Fatal("the allowed touch did not run: an untrusted folder's hook blocked it")
	}

	r = newRun(t)
	writeSettings(t, r.dir, ".claude/settings.json", teamHooks)
	os.MkdirAll(filepath.Join(r.dir, "migrations"), 0o755)
	r.trust(false)
	r.srv.Push(calls(bashUse("b1", "touch migrations/0001.sql")), text("done"))
	if out := r.exec("-p", "add a migration", "--allowedTools", "Bash(touch:*)", "--permission-mode", "acceptEdits"); out.code != 0 {
		t.Fatalf("trusted: exit %d: %s", out.code, out.stderr)
	}
	if _, err := os.Stat(filepath.Join(r.dir, "migrations", "0001.sql")); err == nil {
		t.Error("the hook did not block the write to migrations/ in a trusted folder")
	}
	first := r.srv.Requests()[0].Messages[0].Content
	if len(first) < 3 || first[0].Text != "<system-reminder>\nSessionStart:startup hook success: Team rules: run make test\n</system-reminder>" ||
		first[1].Text != "<system-reminder>\nUserPromptSubmit hook success: Ticket ABC-123: fix the login bug\n</system-reminder>" {
		t.Errorf("first message = %+v", first)
	}
	result := lastResults(t, r.srv, 1)[0]
	want := "PreToolUse:Bash hook error: [grep -q 'migrations/' && { echo 'migrations/ is frozen' >&2; exit 2; }; exit 0]: migrations/ is frozen\n"
	if got := contentText(result); got != want || !result.IsError {
		t.Errorf("tool_result %q (is_error %v), want %q", got, result.IsError, want)
	}
}

func TestAHooksSystemMessageIsAnInformationalEventInStreamJSON(t *testing.T) {
	r := newRun(t)
	r.userSettings(`{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
		"command": "echo '{\"systemMessage\": \"Note from hook\"}'"}]}]}}`)
	r.srv.Push(calls(bashUse("b1", "echo hi")), text("done"))
	out := r.exec("-p", "say hi", "--output-format", "stream-json", "--verbose")
	want := `{"type":"system","subtype":"informational","content":"PreToolUse:Bash says: Note from hook","level":"notice","uuid":"`
	if out.code != 0 || !strings.Contains(out.stdout, want) {
		t.Errorf("exit %d, stream lacks %s:\n%s", out.code, want, out.stdout)
	}
	for _, kv := range r.srv.Requests()[1].Messages {
		for _, b := range kv.Content {
			if strings.Contains(contentText(b)+b.Text, "Note from hook") {
				t.Error("a systemMessage reached the model")
			}
		}
	}
	r.srv.Push(calls(bashUse("b1", "echo hi")), text("done"))
	if out := r.exec("-p", "say hi"); strings.Contains(out.stdout+out.stderr, "Note from hook") {
		t.Errorf("text mode printed the system message: %q %q", out.stdout, out.stderr)
	}
}

func TestTUIRunsSessionHooks(t *testing.T) {
	r := newRun(t)
	ended := filepath.Join(t.TempDir(), "ended.json")
	r.userSettings(`{"hooks": {
		"SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": "echo 'Team rules: run make test'"}]}],
		"SessionEnd": [{"hooks": [{"type": "command", "command": "cat > ` + ended + `"}]}]}}`)
	r.srv.Push(text("Understood."))
	s := openScreen(t, r)
	s.typeLine("hello")
	s.waitFor("Understood.")
	first := r.srv.Requests()[0].Messages[0].Content
	if len(first) < 2 || first[0].Text != "<system-reminder>\nSessionStart:startup hook success: Team rules: run make test\n</system-reminder>" {
		t.Errorf("first message = %+v", first)
	}
	s.exit()
	data, _ := os.ReadFile(ended)
	if !strings.Contains(string(data), `"hook_event_name":"SessionEnd","reason":"prompt_input_exit"`) {
		t.Errorf("SessionEnd input = %s", data)
	}
}

func TestStreamJSONReportsHookRunsAsClaudeCode(t *testing.T) {
	r := newRun(t)
	r.userSettings(`{"hooks": {
		"SessionStart": [{"hooks": [{"type": "command", "command": "echo 'SessionStart context line'"}]}],
		"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo oops >&2; exit 1"}]}]}}`)
	r.srv.Push(calls(bashUse("b1", "echo hi")), text("done"))
	out := r.exec("-p", "say hi", "--output-format", "stream-json", "--verbose")
	lines := strings.Split(out.stdout, "\n")
	if len(lines) < 3 || !strings.Contains(lines[0], `"subtype":"hook_started","hook_id":"`) || !strings.Contains(lines[0], `"hook_name":"SessionStart:startup","hook_event":"SessionStart"`) ||
		!strings.Contains(lines[1], `"output":"SessionStart context line\n","stdout":"SessionStart context line\n","stderr":"","exit_code":0,"outcome":"success"`) ||
		!strings.Contains(lines[2], `"subtype":"init"`) {
		t.Fatalf("the stream does not start with the SessionStart hook's run, then init:\n%s", out.stdout)
	}
	if strings.Contains(out.stdout, `"hook_name":"PreToolUse:Bash"`) {
		t.Error("a PreToolUse run was reported without --include-hook-events")
	}
	r.srv.Push(calls(bashUse("b1", "echo hi")), text("done"))
	out = r.exec("-p", "say hi", "--output-format", "stream-json", "--verbose", "--include-hook-events")
	if !strings.Contains(out.stdout, `"hook_name":"PreToolUse:Bash","hook_event":"PreToolUse","output":"oops\n","stdout":"","stderr":"oops\n","exit_code":1,"outcome":"error"`) {
		t.Errorf("--include-hook-events does not report the failing PreToolUse hook:\n%s", out.stdout)
	}
}

package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// What hooks' answers do in the interactive UI, in tmux: to the call, to
// what the model reads next, and on the screen.

// hooksOn is a "hooks" setting of one event with one matcher group of
// commands ("" leaves the matcher out).
func hooksOn(event, matcher string, commands ...map[string]any) string {
	group := map[string]any{"hooks": commands}
	if matcher != "" {
		group["matcher"] = matcher
	}
	data, _ := json.Marshal(map[string]any{event: []any{group}})
	return string(data)
}

// command is a hook running line.
func command(line string) map[string]any { return map[string]any{"type": "command", "command": line} }

// answering is a hook command printing v as its JSON answer.
func answering(v any) map[string]any {
	data, _ := json.Marshal(v)
	return command("echo " + shellQuote(string(data)))
}

// preToolUse is a PreToolUse answer of hookSpecificOutput fields.
func preToolUse(fields map[string]any) map[string]any {
	fields["hookEventName"] = "PreToolUse"
	return answering(map[string]any{"hookSpecificOutput": fields})
}

func TestTUIHookAnswersToACall(t *testing.T) {
	cases := []struct {
		name    string
		hooks   string
		call    string // the Bash command the model runs
		answer  string // the key answering the permission dialog, when one opens
		screen  []string
		told    string // what the model reads as the call's result
		refused bool
		made    string // a file the call leaves in the project
		notMade string // a file it must not
	}{{
		name:  "deny refuses the call",
		hooks: hooksOn("PreToolUse", "Bash", preToolUse(map[string]any{"permissionDecision": "deny", "permissionDecisionReason": "Denied by hook policy"})),
		call:  "touch made.txt", screen: []string{"Blocked by the PreToolUse:Bash hook", "Denied by hook policy"},
		told: "PreToolUse:Bash hook error: Denied by hook policy", refused: true, notMade: "made.txt",
	}, {
		name:  "allow runs a call that would ask, without asking",
		hooks: hooksOn("PreToolUse", "Bash", preToolUse(map[string]any{"permissionDecision": "allow", "permissionDecisionReason": "Allowed by hook policy"})),
		call:  "touch made.txt", screen: []string{"Bash(touch made.txt)"}, told: "(Bash completed with no output)", made: "made.txt",
	}, {
		name:  "ask opens the dialog, naming the hook",
		hooks: hooksOn("PreToolUse", "Bash", preToolUse(map[string]any{"permissionDecision": "ask", "permissionDecisionReason": "Hook wants a human to confirm"})),
		call:  "echo hi", answer: "1",
		screen: []string{"Bash wants permission", "Hook PreToolUse:Bash requires confirmation for this command:", "Hook wants a human to confirm", "2. No"},
		told:   "hi",
	}, {
		name:  "ask refused in the dialog",
		hooks: hooksOn("PreToolUse", "Bash", preToolUse(map[string]any{"permissionDecision": "ask", "permissionDecisionReason": "Hook wants a human to confirm"})),
		call:  "touch made.txt", answer: "2", screen: []string{"Hook wants a human to confirm"},
		told: "The user refused this Bash call. Do not retry it the same way; ask the user how to proceed.", refused: true, notMade: "made.txt",
	}, {
		name: "updatedInput runs the rewritten command",
		hooks: hooksOn("PreToolUse", "Bash", preToolUse(map[string]any{"permissionDecision": "allow",
			"updatedInput": map[string]any{"command": "touch rewritten.txt", "description": "Rewritten"}})),
		call: "touch original.txt", screen: []string{"Bash(touch original.txt)"},
		told: "(Bash completed with no output)", made: "rewritten.txt", notMade: "original.txt",
	}, {
		name: "PostToolUse additionalContext reaches the model with the result",
		hooks: hooksOn("PostToolUse", "Bash", answering(map[string]any{"hookSpecificOutput": map[string]any{
			"hookEventName": "PostToolUse", "additionalContext": "Context from PostToolUse"}})),
		call: "echo hi", screen: []string{"Bash(echo hi)"},
		told: "hi\n\n<system-reminder>\nPostToolUse:Bash hook additional context: Context from PostToolUse\n</system-reminder>",
	}, {
		name:  "a failing hook does not block, and the user sees it",
		hooks: hooksOn("PreToolUse", "Bash", command("echo 'hook failed on purpose' >&2; exit 1")),
		call:  "touch made.txt", answer: "1",
		screen: []string{`PreToolUse hook "echo 'hook failed on purpose' >&2; exit 1" failed with status 1: hook failed on purpose`},
		told:   "(Bash completed with no output)", made: "made.txt",
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := newRun(t)
			hookSettings(t, r, c.hooks)
			r.srv.Push(calls(bashUse("b1", c.call)), text("Finished."))
			s := openScreen(t, r)
			s.typeLine("Do the task.")
			if c.answer != "" {
				s.waitFor(append(c.screen, "Bash wants permission")...)
				s.run("send-keys", "-t", "0", "-l", c.answer)
				s.waitFor("Finished.")
			} else {
				s.waitFor(append(c.screen, "Finished.")...)
			}
			result := lastResults(t, r.srv, 1)[0]
			if got := contentText(result); got != c.told || result.IsError != c.refused {
				t.Errorf("the model read %q (is_error %v), want %q (%v)", got, result.IsError, c.told, c.refused)
			}
			if _, err := os.Stat(filepath.Join(r.dir, c.made)); c.made != "" && err != nil {
				t.Errorf("the call did not make %s", c.made)
			}
			if _, err := os.Stat(filepath.Join(r.dir, c.notMade)); c.notMade != "" && err == nil {
				t.Errorf("%s was made", c.notMade)
			}
		})
	}
}

func TestTUIHookPastItsTimeoutIsKilledWithItsChildren(t *testing.T) {
	r := newRun(t)
	hook := command(`echo $$ > "$CLAUDE_PROJECT_DIR/hook.pid"; (sleep 3; touch "$CLAUDE_PROJECT_DIR/child-survived.txt") & sleep 3; touch "$CLAUDE_PROJECT_DIR/hook-survived.txt"`)
	hook["timeout"] = 1
	hookSettings(t, r, hooksOn("PreToolUse", "Bash", hook))
	r.srv.Push(calls(bashUse("b1", "echo hi")), text("Finished."), text("Still here."))
	s := openScreen(t, r)
	s.typeLine("Do the task.")
	s.waitFor("A hook didn't answer in time, so it didn't check this action.", "Finished.")
	if got := contentText(lastResults(t, r.srv, 1)[0]); got != "hi" {
		t.Errorf("the call's result %q, want it run", got)
	}
	data, err := os.ReadFile(filepath.Join(r.dir, "hook.pid"))
	if err != nil {
		t.Fatal("the hook did not start")
	}
	if pgid := strings.TrimSpace(string(data)); groupAlive(t, pgid) {
		t.Errorf("the hook's process group %s is still there after its timeout", pgid)
	}
	s.typeLine("Are you there?")
	s.waitFor("Still here.")
	time.Sleep(3 * time.Second)
	for _, f := range []string{"hook-survived.txt", "child-survived.txt"} {
		if _, err := os.Stat(filepath.Join(r.dir, f)); err == nil {
			t.Errorf("%s: the hook or its child outlived the timeout", f)
		}
	}
}

// groupAlive reports whether a live process of the process group exists:
// killed processes nobody reaped yet (zombies) are not.
func groupAlive(t *testing.T, pgid string) bool {
	t.Helper()
	out, err := exec.Command("ps", "-eo", "pgid=,stat=").Output()
	if err != nil {
		t.Fatalf("ps: %v", err)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == pgid && !strings.HasPrefix(f[1], "Z") {
			return true
		}
	}
	return false
}

func TestTUIHookUserPromptSubmitContextGoesWithThePrompt(t *testing.T) {
	r := newRun(t)
	hookSettings(t, r, hooksOn("UserPromptSubmit", "", command("echo 'Ticket ABC-123: fix the login bug'")))
	r.srv.Push(text("On it."))
	s := openScreen(t, r)
	s.typeLine("Do the task.")
	s.waitFor("On it.")
	first := r.srv.Requests()[0].Messages[0].Content
	if len(first) != 2 || first[0].Text != "<system-reminder>\nUserPromptSubmit hook success: Ticket ABC-123: fix the login bug\n</system-reminder>" ||
		first[1].Text != "Do the task." {
		t.Errorf("the prompt's message = %+v, want the hook's context, then the prompt", first)
	}
}

func TestTUIHookStopBlockForcesOneMoreTurn(t *testing.T) {
	r := newRun(t)
	hookSettings(t, r, hooksOn("Stop", "", command(`in=$(cat); printf '%s\n' "$in" >> "$CLAUDE_PROJECT_DIR/stop.jsonl"; `+
		`case "$in" in *'"stop_hook_active":false'*) echo '{"decision":"block","reason":"Run the tests first"}' ;; esac`)))
	r.srv.Push(text("Done."), text("Tests pass now."))
	s := openScreen(t, r)
	s.typeLine("Do the task.")
	s.waitFor("Done.", "Stop hook feedback:", "Run the tests first", "Tests pass now.")
	inputs := logged(t, r, "stop.jsonl", 2)
	time.Sleep(500 * time.Millisecond)
	if reqs := r.srv.Requests(); len(reqs) != 2 || len(inputs) != 2 {
		t.Fatalf("%d requests, %d Stop runs; want 2 of each", len(reqs), len(inputs))
	}
	if inputs[0]["stop_hook_active"] != false || inputs[1]["stop_hook_active"] != true || inputs[1]["last_assistant_message"] != "Tests pass now." {
		t.Errorf("the Stop inputs = %v", inputs)
	}
	last := r.srv.Requests()[1].Messages
	feedback := last[len(last)-1].Content
	if n := len(feedback); n != 2 || !strings.HasSuffix(feedback[n-1].Text, "Stop hook feedback:\nRun the tests first\n</system-reminder>") {
		t.Errorf("the second request ends with %+v, want the Stop hook's feedback", feedback)
	}
}

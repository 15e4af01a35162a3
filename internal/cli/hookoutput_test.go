package cli

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/hooks"
)

// recorded returns the lines of Claude Code's recorded stream of scenario
// (e2e/testdata/hooks/effects) whose system subtype is one of subtypes, or
// that are synthetic user messages when subtypes holds "synthetic".
func recorded(t *testing.T, scenario, file string, subtypes ...string) []string {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "e2e", "testdata", "hooks", "effects", scenario, file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		line := sc.Text()
		for _, s := range subtypes {
			if strings.HasPrefix(line, `{"type":"system","subtype":"`+s+`"`) || (s == "synthetic" && strings.Contains(line, `"isSynthetic":true`)) {
				out = append(out, normalize(line))
			}
		}
	}
	return out
}

var (
	placeholder = regexp.MustCompile(`"<(uuid|hook_id|session_id|timestamp)(_\d+)?>"`)
	volatile    = regexp.MustCompile(`"(uuid|hook_id|session_id|timestamp)":"[^"]*"`)
)

// normalize puts one placeholder in place of each volatile value, recorded or not.
func normalize(line string) string {
	line = placeholder.ReplaceAllString(line, `"<$1>"`)
	return volatile.ReplaceAllString(line, `"$1":"<$1>"`)
}

// printed feeds events to a stream-json printer and returns its lines, normalized.
func printed(includeHooks bool, events ...agent.Event) []string {
	var out bytes.Buffer
	p := &printer{format: formatStreamJSON, out: &out, errOut: &out, includeHooks: includeHooks, sessionID: "s"}
	for _, e := range events {
		p.event(e)
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		if l != "" {
			lines = append(lines, normalize(l))
		}
	}
	return lines
}

func hookRun(name, event, command, stdout, stderr string, code int) []agent.Event {
	r := hooks.Result{Hook: hooks.Hook{Event: event, Command: command}, ExitCode: code, Stdout: stdout, Stderr: stderr}
	return []agent.Event{
		agent.HookEvent(hooks.Progress{ID: "h", Name: name, Hook: r.Hook}),
		agent.HookEvent(hooks.Progress{ID: "h", Name: name, Hook: r.Hook, Result: &r}),
	}
}

func sameLines(t *testing.T, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("printed\n%s\nwant (recorded)\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestPrinterReportsHookRunsAsRecorded(t *testing.T) {
	cmd := "echo 'Blocked by hook: no echo here' >&2; exit 2"
	sameLines(t, printed(true, hookRun("PreToolUse:Bash", hooks.PreToolUse, cmd, "", "Blocked by hook: no echo here\n", 2)...),
		recorded(t, "pre_exit2", "stream_hook_events.jsonl", "hook_started", "hook_response"))
	sameLines(t, printed(false, hookRun("PreToolUse:Bash", hooks.PreToolUse, cmd, "", "x\n", 2)...), nil)

	cmd = "echo 'stdout of a failing hook'; echo 'stderr of a failing hook' >&2; exit 1"
	sameLines(t, printed(true, hookRun("PreToolUse:Bash", hooks.PreToolUse, cmd, "stdout of a failing hook\n", "stderr of a failing hook\n", 1)...),
		recorded(t, "pre_exit1_stdout", "stream_hook_events.jsonl", "hook_started", "hook_response"))

	json := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"ignored?"}}` + "\n"
	sameLines(t, printed(true, hookRun("PreToolUse:Bash", hooks.PreToolUse, "x", json, "exit 2 reason\n", 2)...),
		recorded(t, "pre_exit2_json_stdout", "stream_hook_events.jsonl", "hook_started", "hook_response"))

	// SessionStart's runs are reported without --include-hook-events.
	sameLines(t, printed(false, hookRun("SessionStart:startup", hooks.SessionStart, "echo 'SessionStart context line'", "SessionStart context line\n", "", 0)...),
		recorded(t, "session_start_stdout", "stream.jsonl", "hook_started", "hook_response"))
	// SessionEnd's and PreCompact's never are.
	sameLines(t, printed(true, hookRun("SessionEnd:other", hooks.SessionEnd, "true", "", "", 0)...), nil)

	timedOut := hooks.Result{Hook: hooks.Hook{Event: hooks.PreToolUse, Command: "sleep 3"}, ExitCode: -1, TimedOut: true}
	got := printed(true, agent.HookEvent(hooks.Progress{ID: "h", Name: "PreToolUse:Bash", Hook: timedOut.Hook, Result: &timedOut}))
	if len(got) != 1 || !strings.Contains(got[0], `"output":"","stdout":"","stderr":"","exit_code":1,"outcome":"cancelled"`) {
		t.Errorf("a timed-out hook: %v", got)
	}
}

func TestPrinterPrintsHookNoticesAsRecorded(t *testing.T) {
	sameLines(t, printed(false, agent.HookNotice{Level: "notice", Text: "PreToolUse:Bash says: Note from hook", Event: hooks.PreToolUse}),
		recorded(t, "pre_system_message", "stream.jsonl", "informational"))
	sameLines(t, printed(false, agent.HookNotice{Level: "warning", Text: "A hook didn't answer in time, so it didn't check this action.",
		Kind: agent.NoticeNoVerdict, Event: hooks.PreToolUse, ToolUseID: "toolu_llmtest_1_0"}),
		recorded(t, "pre_timeout", "stream.jsonl", "informational"))
	sameLines(t, printed(false, agent.HookNotice{Level: "warning", Kind: agent.NoticePromptBlocked, Event: hooks.UserPromptSubmit,
		Text: "UserPromptSubmit operation blocked by hook:\nPrompt blocked by policy\n\nOriginal prompt: Do the task.", Reason: "Prompt blocked by policy"}),
		recorded(t, "prompt_block", "stream.jsonl", "informational"))
	// A failing hook is reported only in its hook_response.
	sameLines(t, printed(true, agent.HookNotice{Level: "error", Text: "PreToolUse hook failed", Event: hooks.PreToolUse}), nil)
}

func TestPrinterPrintsStopHookFeedbackAsRecorded(t *testing.T) {
	feedback := agent.StopHookFeedback{Event: hooks.Stop, Text: "Stop hook feedback:\nRun the tests first"}
	sameLines(t, printed(false, feedback), recorded(t, "stop_block", "stream.jsonl", "synthetic", "notification"))
	if got := printed(false, feedback, feedback); len(got) != 3 {
		t.Errorf("two blocks printed %d lines, want two messages and one notification", len(got))
	}
}

func TestPrinterReportsAHookAskRefusedAsRecorded(t *testing.T) {
	denied := agent.PermissionDenied{Denial: agent.Denial{ToolName: "Bash", ToolUseID: "toolu_llmtest_1_0"}, Message: "Hook wants a human to confirm",
		ByHook: true, Asked: true}
	sameLines(t, printed(false, denied), recorded(t, "pre_ask", "stream.jsonl", "permission_denied"))
	denied.Asked = false
	sameLines(t, printed(false, denied), nil)
}

func TestPrinterHoldsInitUntilTheFirstLineThatIsNoHookRun(t *testing.T) {
	var out bytes.Buffer
	p := &printer{format: formatStreamJSON, out: &out, errOut: &out, includeHooks: true, sessionID: "s", init: &initEvent{Type: "system", Subtype: "init"}}
	for _, e := range hookRun("UserPromptSubmit", hooks.UserPromptSubmit, "true", "", "", 0) {
		p.event(e)
	}
	p.event(agent.HookNotice{Level: "notice", Text: "hi"})
	var subtypes []string
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		subtypes = append(subtypes, regexp.MustCompile(`"subtype":"(\w+)"`).FindStringSubmatch(l)[1])
	}
	if strings.Join(subtypes, " ") != "hook_started hook_response init informational" {
		t.Errorf("lines %v", subtypes)
	}
}

func TestVerboseTextSaysWhichHooksRan(t *testing.T) {
	var stderr, stdout bytes.Buffer
	p := &printer{format: formatText, out: &stdout, errOut: &stderr, verbose: true}
	for _, e := range hookRun("PreToolUse:Bash", hooks.PreToolUse, "./guard.sh", "", "rm -rf is not allowed\n", 2) {
		p.event(e)
	}
	for _, e := range hookRun("PostToolUse:Edit", hooks.PostToolUse, "gofmt -w .", "", "", 0) {
		p.event(e)
	}
	want := "Hook PreToolUse:Bash \"./guard.sh\": error (exit 2), blocking: rm -rf is not allowed\nHook PostToolUse:Edit \"gofmt -w .\": success\n"
	if stderr.String() != want || stdout.Len() != 0 {
		t.Errorf("stderr %q, stdout %q; want stderr %q", stderr.String(), stdout.String(), want)
	}
	stderr.Reset()
	p.verbose = false
	for _, e := range hookRun("PreToolUse:Bash", hooks.PreToolUse, "./guard.sh", "", "no\n", 2) {
		p.event(e)
	}
	if stderr.Len() != 0 {
		t.Errorf("without --verbose: %q", stderr.String())
	}
}

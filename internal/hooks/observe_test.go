package hooks

import (
	"context"
	"os"
	"testing"
	"time"
)

func TestObserveReportsEachHookStartAndEnd(t *testing.T) {
	dir := t.TempDir()
	e := New([]Hook{
		{Event: PreToolUse, Command: "echo fine", Timeout: 5 * time.Second},
		{Event: PreToolUse, Command: "echo bad >&2; echo out; exit 1", Timeout: 5 * time.Second},
		{Event: PreToolUse, Command: "sleep 5", Timeout: 200 * time.Millisecond},
	}, Options{ProjectDir: dir, Env: os.Environ()})
	var reports []Progress
	busy := false
	e.Run(context.Background(), PreToolUse, "Bash", map[string]any{}, Observe(func(p Progress) {
		if busy {
			t.Error("two reports at once")
		}
		busy = true
		reports = append(reports, p)
		time.Sleep(time.Millisecond)
		busy = false
	}))
	if len(reports) != 6 {
		t.Fatalf("%d reports, want a start and an end for each of 3 hooks", len(reports))
	}
	started := map[string]bool{}
	ended := map[string]Result{}
	for _, p := range reports {
		if p.Name != "PreToolUse:Bash" {
			t.Errorf("name %q, want PreToolUse:Bash", p.Name)
		}
		if p.Result == nil {
			started[p.ID] = true
			continue
		}
		if !started[p.ID] {
			t.Errorf("%s ended before it started", p.Hook.Command)
		}
		ended[p.Hook.Command] = *p.Result
	}
	for command, want := range map[string]struct {
		outcome string
		code    int
	}{"echo fine": {OutcomeSuccess, 0}, "echo bad >&2; echo out; exit 1": {OutcomeError, 1}, "sleep 5": {OutcomeCancelled, 1}} {
		r := ended[command]
		if r.Outcome() != want.outcome || r.ReportedExitCode() != want.code {
			t.Errorf("%s: %s exit %d, want %s exit %d", command, r.Outcome(), r.ReportedExitCode(), want.outcome, want.code)
		}
	}
}

func TestANameAsClaudeCodeReportsIt(t *testing.T) {
	for _, tt := range []struct{ event, target, want string }{
		{PreToolUse, "Bash", "PreToolUse:Bash"},
		{PostToolUseFailure, "Bash", "PostToolUseFailure:Bash"},
		{SessionStart, "resume", "SessionStart:resume"},
		{UserPromptSubmit, "", "UserPromptSubmit"},
		{Stop, "", "Stop"},
		{SubagentStop, "general-purpose", "SubagentStop"},
		{Notification, "idle_prompt", "Notification:idle_prompt"},
	} {
		if got := Name(tt.event, tt.target); got != tt.want {
			t.Errorf("Name(%s, %q) = %q, want %q", tt.event, tt.target, got, tt.want)
		}
	}
}

func TestACancelledRunReportsItsHooksCancelled(t *testing.T) {
	dir := t.TempDir()
	e := New([]Hook{{Event: Stop, Command: "sleep 5", Timeout: 5 * time.Second}}, Options{ProjectDir: dir, Env: os.Environ()})
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	o := e.Run(ctx, Stop, "", map[string]any{})
	if len(o.Results) != 1 || !o.Results[0].Cancelled || o.Results[0].Outcome() != OutcomeCancelled {
		t.Errorf("results = %+v, want one cancelled", o.Results)
	}
}

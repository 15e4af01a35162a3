package cli

import (
	"github.com/google/uuid"

	"github.com/mini-claude/mini-claude/internal/hooks"
)

// hookStartedEvent and hookResponseEvent report a hook run in stream-json,
// in Claude Code's shape and key order.
type hookStartedEvent struct {
	Type      string `json:"type"`
	Subtype   string `json:"subtype"`
	HookID    string `json:"hook_id"`
	HookName  string `json:"hook_name"`
	HookEvent string `json:"hook_event"`
	UUID      string `json:"uuid"`
	SessionID string `json:"session_id"`
}

type hookResponseEvent struct {
	Type      string `json:"type"`
	Subtype   string `json:"subtype"`
	HookID    string `json:"hook_id"`
	HookName  string `json:"hook_name"`
	HookEvent string `json:"hook_event"`
	Output    string `json:"output"`
	Stdout    string `json:"stdout"`
	Stderr    string `json:"stderr"`
	ExitCode  int    `json:"exit_code"`
	Outcome   string `json:"outcome"`
	UUID      string `json:"uuid"`
	SessionID string `json:"session_id"`
}

// hookRun reports a hook as it starts and ends, as Claude Code does in
// stream-json: SessionStart's always, every other one with
// --include-hook-events.
func (p *printer) hookRun(r hooks.Report) {
	if p.format != formatStreamJSON || !p.hookEvents && r.Hook.Event != hooks.SessionStart {
		return
	}
	name := r.Hook.Event
	if r.Target != "" && r.Hook.Event != hooks.SubagentStop {
		name += ":" + r.Target
	}
	if r.Result == nil {
		p.emit(hookStartedEvent{Type: "system", Subtype: "hook_started", HookID: r.ID, HookName: name, HookEvent: r.Hook.Event,
			UUID: uuid.NewString(), SessionID: p.sessionID})
		return
	}
	res := r.Result
	code, outcome := res.ExitCode, "success"
	switch {
	case res.TimedOut || res.Err != nil:
		code, outcome = 1, "cancelled"
	case code != 0:
		outcome = "error"
	}
	p.emit(hookResponseEvent{Type: "system", Subtype: "hook_response", HookID: r.ID, HookName: name, HookEvent: r.Hook.Event,
		Output: res.Stderr + res.Stdout, Stdout: res.Stdout, Stderr: res.Stderr,
		ExitCode: code, Outcome: outcome, UUID: uuid.NewString(), SessionID: p.sessionID})
}

package cli

import (
	"fmt"
	"strings"

	"github.com/google/uuid"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/hooks"
	"github.com/mini-claude/mini-claude/internal/llm"
)

// hookStartedEvent and hookResponseEvent report a hook's run in
// stream-json, in Claude Code's shape and key order.
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
	// Output is both streams in one (see hookOutput).
	Output    string `json:"output"`
	Stdout    string `json:"stdout"`
	Stderr    string `json:"stderr"`
	ExitCode  int    `json:"exit_code"`
	Outcome   string `json:"outcome"`
	UUID      string `json:"uuid"`
	SessionID string `json:"session_id"`
}

// informationalEvent is a hook's notice in stream-json; the optional parts
// are those of Claude Code's tagged notices.
type informationalEvent struct {
	Type                string               `json:"type"`
	Subtype             string               `json:"subtype"`
	Content             string               `json:"content"`
	Level               string               `json:"level"`
	Tag                 string               `json:"tag,omitempty"`
	HookNoVerdict       *hookNoVerdict       `json:"hook_no_verdict,omitempty"`
	PreventContinuation bool                 `json:"prevent_continuation,omitempty"`
	PromptSubmitOutcome *promptSubmitOutcome `json:"prompt_submit_outcome,omitempty"`
	UUID                string               `json:"uuid"`
	SessionID           string               `json:"session_id"`
}

type hookNoVerdict struct {
	HookEvent string `json:"hook_event"`
	ToolUseID string `json:"tool_use_id"`
	TimedOut  bool   `json:"timed_out"`
}

type promptSubmitOutcome struct {
	Kind       string `json:"kind"`
	PromptKept bool   `json:"prompt_kept"`
	Reason     string `json:"reason"`
}

// stopErrorNotification is the notification Claude Code prints once when a
// Stop hook keeps the turn going; capNotification when the hooks are
// overridden. Their keys are in different orders, as recorded.
type stopErrorNotification struct {
	Type      string `json:"type"`
	Subtype   string `json:"subtype"`
	Key       string `json:"key"`
	Text      string `json:"text"`
	Priority  string `json:"priority"`
	SessionID string `json:"session_id"`
	UUID      string `json:"uuid"`
}

type capNotification struct {
	Type      string `json:"type"`
	Subtype   string `json:"subtype"`
	Key       string `json:"key"`
	Text      string `json:"text"`
	Priority  string `json:"priority"`
	Color     string `json:"color"`
	UUID      string `json:"uuid"`
	SessionID string `json:"session_id"`
}

// unreportedHooks are the events whose hook runs Claude Code leaves out of
// stream-json even with --include-hook-events.
var unreportedHooks = map[string]bool{hooks.PreCompact: true, hooks.SessionEnd: true, hooks.PostCompact: true, hooks.StopFailure: true,
	hooks.InstructionsLoaded: true}

// reportsHook says whether stream-json reports the runs of event's hooks:
// SessionStart's always, as Claude Code does, the others with --include-hook-events.
func (p *printer) reportsHook(event string) bool {
	return event == hooks.SessionStart || (p.includeHooks && !unreportedHooks[event])
}

// hookEvent prints what the hooks did: in stream-json as Claude Code does,
// in text mode with --verbose a line on stderr per hook. It reports whether
// e was one of the hooks' events.
func (p *printer) hookEvent(e agent.Event) bool {
	switch e := e.(type) {
	case agent.HookStarted:
		if p.format == formatStreamJSON && p.reportsHook(e.Event) {
			p.emitHookLine(hookStartedEvent{Type: "system", Subtype: "hook_started", HookID: e.ID, HookName: e.Name, HookEvent: e.Event,
				UUID: uuid.NewString(), SessionID: p.sessionID})
		}
	case agent.HookFinished:
		switch {
		case p.format == formatStreamJSON && p.reportsHook(e.Event):
			p.emitHookLine(hookResponseEvent{Type: "system", Subtype: "hook_response", HookID: e.ID, HookName: e.Name, HookEvent: e.Event,
				Output: hookOutput(e), Stdout: e.Stdout, Stderr: e.Stderr, ExitCode: e.ExitCode, Outcome: e.Outcome,
				UUID: uuid.NewString(), SessionID: p.sessionID})
		case p.format == formatText && p.verbose:
			fmt.Fprintln(p.errOut, hookLine(e))
		}
	case agent.HookNotice:
		p.hookNotice(e)
	case agent.StopHookFeedback:
		p.stopFeedback(e)
	default:
		return false
	}
	return true
}

// hookOutput is a hook's two streams in one, as Claude Code reports them:
// stderr then stdout, but stdout first for a blocking exit 2 (recorded:
// pre_exit1_stdout, pre_exit2_json_stdout).
func hookOutput(e agent.HookFinished) string {
	if e.ExitCode == 2 {
		return e.Stdout + e.Stderr
	}
	return e.Stderr + e.Stdout
}

// hookLine says briefly how a hook ended, for -p --verbose in text mode.
func hookLine(e agent.HookFinished) string {
	line := fmt.Sprintf("Hook %s %q: %s", e.Name, e.Command, e.Outcome)
	switch {
	case e.Result.TimedOut:
		line += fmt.Sprintf(" (no answer within %s)", e.Result.Hook.Timeout)
	case e.Result.Err != nil:
		line += fmt.Sprintf(" (%v)", e.Result.Err)
	case e.Outcome == hooks.OutcomeError:
		line += fmt.Sprintf(" (exit %d)", e.ExitCode)
		if e.ExitCode == 2 {
			line += ", blocking"
		}
	}
	if first, _, _ := strings.Cut(strings.TrimSpace(e.Stderr), "\n"); first != "" && e.Outcome != hooks.OutcomeSuccess {
		line += ": " + first
	}
	return line
}

// hookNotice prints what a hook said or how it failed. stream-json gets
// Claude Code's informational events; a failure, which Claude Code reports
// only in hook_response, is not one. Text mode says it on stderr with
// --verbose; a blocked prompt is the run's result there.
func (p *printer) hookNotice(e agent.HookNotice) {
	switch {
	case p.format == formatStreamJSON && e.Level != "error":
		ev := informationalEvent{Type: "system", Subtype: "informational", Content: e.Text, Level: e.Level, UUID: uuid.NewString(), SessionID: p.sessionID}
		switch e.Kind {
		case agent.NoticeNoVerdict:
			ev.Tag = "hook_no_verdict"
			ev.HookNoVerdict = &hookNoVerdict{HookEvent: e.Event, ToolUseID: e.ToolUseID, TimedOut: true}
		case agent.NoticePromptBlocked:
			ev.PreventContinuation = true
			ev.PromptSubmitOutcome = &promptSubmitOutcome{Kind: "blocked_by_hook", Reason: e.Reason}
		}
		p.emit(ev)
		if e.Kind == agent.NoticeStopCap {
			p.emit(capNotification{Type: "system", Subtype: "notification", Key: "stop-hook-block-cap", Text: e.Text, Priority: "high",
				Color: "warning", UUID: uuid.NewString(), SessionID: p.sessionID})
		}
	case p.format == formatText && p.verbose && e.Kind != agent.NoticePromptBlocked:
		fmt.Fprintf(p.errOut, "Hook %s: %s\n", e.Level, e.Text)
	}
}

// stopFeedback prints a Stop hook's block: in stream-json the synthetic
// user message Claude Code shows, and the first time its notification.
func (p *printer) stopFeedback(e agent.StopHookFeedback) {
	switch {
	case p.format == formatStreamJSON:
		p.emit(messageEvent{Type: "user", Message: llm.Message{Role: llm.RoleUser, Content: []llm.ContentBlock{llm.TextBlock(e.Text)}},
			SessionID: p.sessionID, UUID: uuid.NewString(), Timestamp: timestamp(), IsSynthetic: true})
		if !p.stopNotified {
			p.stopNotified = true
			p.emit(stopErrorNotification{Type: "system", Subtype: "notification", Key: "stop-hook-error", Text: "stop hook problem · ctrl+o to see",
				Priority: "immediate", SessionID: p.sessionID, UUID: uuid.NewString()})
		}
	case p.format == formatText && p.verbose:
		fmt.Fprintf(p.errOut, "%s\n(the turn goes on)\n", strings.TrimRight(e.Text, "\n"))
	}
}

// subAgentHookEvent finds the hooks' events among a sub-agent's: Claude
// Code prints a sub-agent's hook runs as the session's.
func subAgentHookEvent(e agent.SubAgentEvent) (agent.Event, bool) {
	inner := e.Event
	for {
		nested, ok := inner.(agent.SubAgentEvent)
		if !ok {
			break
		}
		inner = nested.Event
	}
	switch inner.(type) {
	case agent.HookStarted, agent.HookFinished, agent.HookNotice, agent.StopHookFeedback:
		return inner, true
	}
	return nil, false
}

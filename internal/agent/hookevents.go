package agent

import (
	"strings"

	"github.com/mini-claude/mini-claude/internal/hooks"
	"github.com/mini-claude/mini-claude/internal/llm"
)

// HookStarted says a hook began to run. ID pairs it with its HookFinished;
// Name is Claude Code's name of the run ("PreToolUse:Bash", "Stop").
type HookStarted struct {
	ID, Name, Event string
	Command         string
}

// HookFinished says a hook ended: its output, exit code and Claude Code's
// outcome ("success", "error" or "cancelled", see hooks.Result.Outcome).
type HookFinished struct {
	ID, Name, Event string
	Command         string
	Stdout, Stderr  string
	ExitCode        int
	Outcome         string
	Result          hooks.Result
}

// StopHookFeedback says a Stop (SubagentStop) hook kept the turn going:
// Text is what the model is told, "Stop hook feedback:\n<reasons>".
type StopHookFeedback struct {
	Event string
	Text  string
}

func (HookStarted) isEvent()      {}
func (HookFinished) isEvent()     {}
func (StopHookFeedback) isEvent() {}

// The kinds of HookNotice that Claude Code tags.
const (
	// NoticeNoVerdict: a PreToolUse hook did not answer in time, so the
	// call ran unchecked (Claude Code's hook_no_verdict).
	NoticeNoVerdict = "no_verdict"
	// NoticePromptBlocked: a UserPromptSubmit hook refused the prompt.
	NoticePromptBlocked = "prompt_blocked"
	// NoticeStopCap: Stop hooks blocked the end of the turn too many times
	// in a row and were overridden.
	NoticeStopCap = "stop_cap"
)

// HookEvent turns an engine's report of a hook (hooks.Observe) into the
// event front ends read: HookStarted or HookFinished.
func HookEvent(p hooks.Progress) Event {
	if p.Result == nil {
		return HookStarted{ID: p.ID, Name: p.Name, Event: p.Hook.Event, Command: p.Hook.Command}
	}
	r := *p.Result
	return HookFinished{ID: p.ID, Name: p.Name, Event: p.Hook.Event, Command: p.Hook.Command, Stdout: r.Stdout, Stderr: r.Stderr,
		ExitCode: r.ReportedExitCode(), Outcome: r.Outcome(), Result: r}
}

// observeHooks is the option that makes the engine's reports this agent's events.
func (a *Agent) observeHooks() hooks.RunOption {
	return hooks.Observe(func(p hooks.Progress) { a.emit(HookEvent(p)) })
}

// blockReasons is what the hooks that blocked said, without the commands
// Claude Code puts before an exit 2's stderr.
func blockReasons(blocks []hooks.Block) string {
	reasons := make([]string, len(blocks))
	for i, b := range blocks {
		reasons[i] = strings.TrimSpace(strings.TrimPrefix(b.Text, "["+b.Command+"]: "))
	}
	return strings.Join(reasons, "\n")
}

// stopEvent is the event that fires when this agent's model ends its turn.
func (a *Agent) stopEvent() string {
	if a.depth > 0 {
		return hooks.SubagentStop
	}
	return hooks.Stop
}

// PromptID is the id of the prompt handled last, as hooks are told it; ""
// before the first. Any goroutine may ask, as the session's own hooks
// (Notification, SessionEnd) do while a turn runs.
func (a *Agent) PromptID() string {
	if id := a.lastPromptID.Load(); id != nil {
		return *id
	}
	return ""
}

// SetStartContext sets what the SessionStart hooks said, sent as the first
// blocks of the next prompt's message (Options.StartContext); not while a
// turn runs.
func (a *Agent) SetStartContext(blocks []llm.ContentBlock) {
	a.opts.StartContext = blocks
}

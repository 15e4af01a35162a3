package cli

import (
	"context"
	"strconv"
	"time"

	"github.com/google/uuid"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/hooks"
)

// The variables that shorten the waits before the UI's Notification hooks
// fire (milliseconds), for tests; Claude Code waits 6 s and 60 s.
const (
	permissionNotifyEnv = "MINI_CLAUDE_PERMISSION_NOTIFY_MS"
	idleNotifyEnv       = "MINI_CLAUDE_IDLE_NOTIFY_MS"
)

// notifyDelay reads one of those variables; 0 leaves Claude Code's wait.
func notifyDelay(getenv func(string) string, name string) time.Duration {
	ms, err := strconv.Atoi(getenv(name))
	if err != nil || ms <= 0 {
		return 0
	}
	return time.Duration(ms) * time.Millisecond
}

// startSession runs the SessionStart hooks of the current conversation
// (source startup, resume, fork or clear) in the background, as the UI opens
// or changes conversation; what they say goes first with the conversation's
// first prompt, which waits for them (run). As in Claude Code's UI, the
// input names the model at startup only (and after a compaction, which the
// agent fires).
func (in *interactive) startSession(source string) {
	started := make(chan struct{})
	in.started = started
	if !in.s.hooks.Has(hooks.SessionStart, source) {
		close(started)
		return
	}
	a := in.agent
	input := in.s.sessionStartInput(in.conv, source, time.Now())
	if source == "startup" {
		input.Model = in.s.model
	}
	in.hooksRunning.Go(func() {
		defer close(started)
		a.SetStartContext(in.s.sessionStartWith(in.ctx, input, nil, in.ui.OnEvent))
	})
}

// endSession runs the SessionEnd hooks of the current conversation: reason
// clear when /clear leaves it (in the background, shown), prompt_input_exit
// when the user left the UI (which is gone then: nothing is shown), other
// otherwise. /clear is a prompt of its own to hooks, as in Claude Code: its
// SessionEnd gets a new prompt id.
func (in *interactive) endSession(reason string) {
	if !in.s.hooks.Has(hooks.SessionEnd, reason) {
		return
	}
	common := in.s.hookCommon(in.conv, hooks.SessionEnd)
	common.PromptID = in.agent.PromptID()
	if reason == "clear" {
		common.PromptID = uuid.NewString()
	}
	input := hooks.SessionEndInput{Common: common, Reason: reason}
	if reason != "clear" {
		in.s.hooks.Run(context.Background(), hooks.SessionEnd, reason, input)
		return
	}
	in.hooksRunning.Go(func() {
		in.s.hooks.Run(context.Background(), hooks.SessionEnd, reason, input, observe(in.ui.OnEvent))
	})
}

// endHooks, once the UI has ended, stops the SessionStart and Notification
// hooks still running and waits for them, and for the SessionEnd hooks of a
// /clear, which run to their end as they would have in the session.
func (in *interactive) endHooks() {
	in.stopHooks()
	in.hooksRunning.Wait()
}

// run runs a prompt once the conversation's SessionStart hooks are done.
func (in *interactive) run(ctx context.Context, prompt string) agent.Result {
	select {
	case <-in.started:
	case <-ctx.Done():
		return agent.Result{Outcome: agent.Interrupted, Err: ctx.Err()}
	}
	return in.agent.Run(ctx, prompt)
}

// notifier is the UI's Notify when Notification hooks are configured, nil
// otherwise: the UI then arms no timer.
func (in *interactive) notifier() func(message, kind string) {
	if !in.s.hooks.Has(hooks.Notification, "permission_prompt") && !in.s.hooks.Has(hooks.Notification, "idle_prompt") {
		return nil
	}
	return in.notify
}

// notify runs the Notification hooks of a notification of the UI in the
// background; the UI shows what they say.
func (in *interactive) notify(message, kind string) {
	if !in.s.hooks.Has(hooks.Notification, kind) {
		return
	}
	common := in.s.hookCommon(in.conv, hooks.Notification)
	common.PromptID = in.agent.PromptID()
	input := hooks.NotificationInput{Common: common, Message: message, NotificationType: kind}
	show := in.ui.OnEvent
	in.hooksRunning.Go(func() {
		o := in.s.hooks.Run(in.ctx, hooks.Notification, kind, input, observe(show))
		for _, m := range o.Messages {
			show(agent.HookNotice{Level: "notice", Text: hooks.Name(hooks.Notification, kind) + " says: " + m, Event: hooks.Notification})
		}
		for _, f := range o.Failures {
			show(agent.HookNotice{Level: "error", Text: f.Describe(), Event: hooks.Notification})
		}
	})
}

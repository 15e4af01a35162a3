package cli

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/credentials"
	"github.com/mini-claude/mini-claude/internal/hooks"
	"github.com/mini-claude/mini-claude/internal/llm"
	transcript "github.com/mini-claude/mini-claude/internal/session"
)

// loadHooks builds the session's hooks from its settings files, a project's
// only once its folder is trusted (config.Screen); "disableAllHooks" in any
// of them turns every hook off. Hooks run in the project folder without the
// credentials mini-claude uses, unless the user's settings pass them on.
func (s *session) loadHooks(errOut io.Writer) *hooks.Engine {
	var all []hooks.Hook
	for _, f := range s.files {
		if f.DisableAllHooks {
			return nil
		}
		found, problems := hooks.Parse(f.Hooks, f.Path)
		for _, err := range problems {
			fmt.Fprintf(errOut, "Warning: %v\n", err)
		}
		all = append(all, found...)
	}
	if len(all) == 0 {
		return nil
	}
	return hooks.New(all, hooks.Options{ProjectDir: s.cwd, Env: credentials.ChildEnv(os.Environ(), s.passEnv)})
}

// transcriptPath is where the conversation's transcript is, as hooks are
// told: the file it is written to, or where it would be.
func (c *conversation) transcriptPath(cwd string) string {
	if c.transcript != nil {
		return c.transcript.Path()
	}
	return transcript.Path(cwd, c.id)
}

// hookCommon is the start of the input of a session-wide hook.
func (s *session) hookCommon(conv *conversation, event string) hooks.Common {
	return hooks.Common{SessionID: conv.id, TranscriptPath: conv.transcriptPath(s.cwd), Cwd: s.cwd, HookEventName: event}
}

// sessionStart runs the SessionStart hooks of source (startup, resume, clear
// or compact) and returns what they said, as the first blocks of the next
// prompt's message. Failures are told on errOut.
func (s *session) sessionStart(ctx context.Context, conv *conversation, source string, errOut io.Writer) []llm.ContentBlock {
	if !s.hooks.Has(hooks.SessionStart, source) {
		return nil
	}
	in := hooks.SessionStartInput{Common: s.hookCommon(conv, hooks.SessionStart), Source: source}
	o := s.hooks.Run(ctx, hooks.SessionStart, source, in)
	for _, f := range o.Failures {
		fmt.Fprintf(errOut, "Warning: %s\n", f.Describe())
	}
	return agent.HookContextBlocks(hooks.SessionStart+":"+source, o.Context)
}

// sessionEnd runs the SessionEnd hooks: reason is other at the end of a -p
// run, clear when /clear leaves the conversation, prompt_input_exit when the
// user leaves the UI. It waits for them: the process ends after.
func (s *session) sessionEnd(conv *conversation, reason string) {
	if !s.hooks.Has(hooks.SessionEnd, reason) {
		return
	}
	in := hooks.SessionEndInput{Common: s.hookCommon(conv, hooks.SessionEnd), Reason: reason}
	s.hooks.Run(context.Background(), hooks.SessionEnd, reason, in)
}

// startSource is the SessionStart source of a run's first conversation.
func startSource(opts *Options) string {
	if opts.Continue || opts.Resume != "" {
		return "resume"
	}
	return "startup"
}

// hookLines describes each configured hook on a line, for /hooks.
func hookLines(e *hooks.Engine) []string {
	var lines []string
	for _, h := range e.Hooks() {
		matcher := h.Matcher
		if matcher == "" {
			matcher = "*"
		}
		lines = append(lines, fmt.Sprintf("%s %s: %s (%s, from %s)", h.Event, matcher, h.Command, h.Timeout, h.Source))
	}
	return lines
}

// notifier is the UI's Notify when Notification hooks are configured, nil
// otherwise (the UI then arms no timer).
func (s *session) notifier(in *interactive) func(message, kind string) {
	if !s.hooks.Has(hooks.Notification, "permission_prompt") && !s.hooks.Has(hooks.Notification, "idle_prompt") {
		return nil
	}
	return func(message, kind string) { s.notification(in.conv, message, kind) }
}

// notification runs the Notification hooks of a kind (permission_prompt,
// idle_prompt) with its message.
func (s *session) notification(conv *conversation, message, kind string) {
	if !s.hooks.Has(hooks.Notification, kind) {
		return
	}
	in := hooks.NotificationInput{Common: s.hookCommon(conv, hooks.Notification), Message: message, NotificationType: kind}
	s.hooks.Run(context.Background(), hooks.Notification, kind, in)
}

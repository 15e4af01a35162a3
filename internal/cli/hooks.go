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
// prompt's message. show gets each hook's start and end and the hooks'
// messages; failures are told on errOut, or to show when errOut is nil.
func (s *session) sessionStart(ctx context.Context, conv *conversation, source string, errOut io.Writer, show func(agent.Event)) []llm.ContentBlock {
	if !s.hooks.Has(hooks.SessionStart, source) {
		return nil
	}
	in := hooks.SessionStartInput{Common: s.hookCommon(conv, hooks.SessionStart), Source: source}
	return s.sessionStartWith(ctx, in, errOut, show)
}

// sessionStartWith runs the SessionStart hooks with the input in, as sessionStart.
func (s *session) sessionStartWith(ctx context.Context, in hooks.SessionStartInput, errOut io.Writer, show func(agent.Event)) []llm.ContentBlock {
	source := in.Source
	o := s.hooks.Run(ctx, hooks.SessionStart, source, in, observe(show))
	for _, m := range o.Messages {
		show(agent.HookNotice{Level: "notice", Text: hooks.Name(hooks.SessionStart, source) + " says: " + m, Event: hooks.SessionStart})
	}
	for _, f := range o.Failures {
		if errOut != nil {
			fmt.Fprintf(errOut, "Warning: %s\n", f.Describe())
		} else {
			show(agent.HookNotice{Level: "error", Text: f.Describe(), Event: hooks.SessionStart})
		}
	}
	return agent.HookContextBlocks(hooks.SessionStart+":"+source, o.Context)
}

// sessionEnd runs the SessionEnd hooks: reason is other at the end of a -p
// run, clear when /clear leaves the conversation, prompt_input_exit when the
// user leaves the UI. It waits for them: the process ends after.
func (s *session) sessionEnd(conv *conversation, reason string, show func(agent.Event)) {
	if !s.hooks.Has(hooks.SessionEnd, reason) {
		return
	}
	in := hooks.SessionEndInput{Common: s.hookCommon(conv, hooks.SessionEnd), Reason: reason}
	s.hooks.Run(context.Background(), hooks.SessionEnd, reason, in, observe(show))
}

// observe has the engine report each hook's run to show as the agent's
// events; a nil show reports nothing.
func observe(show func(agent.Event)) hooks.RunOption {
	if show == nil {
		return hooks.Observe(nil)
	}
	return hooks.Observe(func(p hooks.Progress) { show(agent.HookEvent(p)) })
}

// startSource is the SessionStart source of a run's first conversation.
func startSource(opts *Options) string {
	if opts.Continue || opts.Resume != "" {
		return "resume"
	}
	return "startup"
}

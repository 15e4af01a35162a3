package cli

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"time"

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

// sessionStart runs the SessionStart hooks of source (startup, resume, fork
// or clear) and returns what they said, as the first blocks of the next
// prompt's message. show gets each hook's start and end and the hooks'
// messages; failures are told on errOut, or to show when errOut is nil.
func (s *session) sessionStart(ctx context.Context, conv *conversation, source string, errOut io.Writer, show func(agent.Event)) []llm.ContentBlock {
	if !s.hooks.Has(hooks.SessionStart, source) {
		return nil
	}
	return s.sessionStartWith(ctx, s.sessionStartInput(conv, source, time.Now()), errOut, show)
}

// sessionStartInput is the input of the SessionStart hooks of conv: on
// resume (and fork), what its last response was, as of now.
func (s *session) sessionStartInput(conv *conversation, source string, now time.Time) hooks.SessionStartInput {
	in := hooks.SessionStartInput{Common: s.hookCommon(conv, hooks.SessionStart), Source: source}
	if (source == "resume" || source == "fork") && conv.last != nil {
		in.Resumed = resumed(*conv.last, s.model, now)
	}
	return in
}

// promptCacheTTL is how long the provider keeps a prompt's cached context:
// mini-claude asks for the default, five minutes.
const promptCacheTTL = 5 * time.Minute

// resumed describes a resumed conversation's last response as Claude Code
// does: the seconds since it came (rounded), the context it took, whether
// the prompt cache has likely dropped that context (older than its TTL, or
// replaced by a compaction since), and the cost of writing the context to
// the cache again at the list price of the model that wrote the response
// (model when unknown), to a hundredth of a cent.
func resumed(last transcript.LastResponse, model string, now time.Time) *hooks.Resumed {
	seconds := max(0, int64(math.Round(now.Sub(last.At).Seconds())))
	if last.Model != "" {
		model = last.Model
	}
	usd := llm.Cost(model, llm.Usage{CacheCreationInputTokens: last.ContextTokens})
	return &hooks.Resumed{SecondsSinceLastResponse: seconds, ContextTokens: last.ContextTokens,
		PromptCacheLikelyExpired: !last.Cached || seconds >= int64(promptCacheTTL/time.Second),
		EstimatedCacheWriteUSD:   math.Round(usd*1e4) / 1e4}
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
// user leaves the UI; promptID is the last prompt's, "" before any. It waits
// for them: the process ends after.
func (s *session) sessionEnd(conv *conversation, reason, promptID string, show func(agent.Event)) {
	if !s.hooks.Has(hooks.SessionEnd, reason) {
		return
	}
	common := s.hookCommon(conv, hooks.SessionEnd)
	common.PromptID = promptID
	in := hooks.SessionEndInput{Common: common, Reason: reason}
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

// startSource is the SessionStart source of a run's first conversation:
// fork for a resumed one copied under a new id (--fork-session), as Claude
// Code names it.
func startSource(opts *Options) string {
	switch {
	case opts.ForkSession:
		return "fork"
	case opts.Continue || opts.Resume != "":
		return "resume"
	}
	return "startup"
}

package hooks

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
)

// Engine holds a session's hooks and runs those of an event.
type Engine struct {
	hooks    []Hook
	matchers []matcher
	dir      string
	env      []string
}

// Options say where and how a session's hooks run.
type Options struct {
	// ProjectDir is the project's folder: the hooks' working directory and
	// their $CLAUDE_PROJECT_DIR (and $MINI_CLAUDE_PROJECT_DIR).
	ProjectDir string
	// Env is the environment they inherit, the credentials mini-claude uses
	// already taken out.
	Env []string
}

// New returns the engine of hooks, all parsed by Parse; nil hooks run nothing.
func New(hooks []Hook, opts Options) *Engine {
	e := &Engine{dir: opts.ProjectDir,
		env: append(append([]string(nil), opts.Env...), "CLAUDE_PROJECT_DIR="+opts.ProjectDir, "MINI_CLAUDE_PROJECT_DIR="+opts.ProjectDir)}
	for _, h := range hooks {
		m, err := compileMatcher(h.Matcher)
		if err != nil {
			continue
		}
		e.hooks = append(e.hooks, h)
		e.matchers = append(e.matchers, m)
	}
	return e
}

// Hooks returns the configured hooks, for /hooks.
func (e *Engine) Hooks() []Hook {
	if e == nil {
		return nil
	}
	return append([]Hook(nil), e.hooks...)
}

// matching returns the hooks of event whose matcher takes target, each
// command once: Claude Code runs identical commands of one event once.
func (e *Engine) matching(event, target string) []Hook {
	if e == nil {
		return nil
	}
	var out []Hook
	seen := map[string]bool{}
	for i, h := range e.hooks {
		if h.Event != event || !e.matchers[i](target) || seen[h.Command] {
			continue
		}
		seen[h.Command] = true
		out = append(out, h)
	}
	return out
}

// Has reports whether any hook would run for event and target, so that a
// caller can skip building an input nobody reads.
func (e *Engine) Has(event, target string) bool {
	return len(e.matching(event, target)) > 0
}

// Run runs the hooks of event that match target, in parallel, each with
// input as JSON on stdin, and folds their answers into one Outcome.
func (e *Engine) Run(ctx context.Context, event, target string, input any) Outcome {
	hooks := e.matching(event, target)
	if len(hooks) == 0 {
		return Outcome{}
	}
	data, err := json.Marshal(input)
	if err != nil {
		return Outcome{Messages: []string{fmt.Sprintf("%s hooks did not run: their input could not be encoded: %v", event, err)}}
	}
	results := make([]Result, len(hooks))
	var wg sync.WaitGroup
	for i, h := range hooks {
		wg.Go(func() { results[i] = run(ctx, h, e.dir, e.env, data) })
	}
	wg.Wait()
	return fold(event, results)
}

// Outcome is what the hooks of one event decided together.
type Outcome struct {
	Results []Result
	// Blocked says a hook blocked what the event is about (exit 2, or
	// "decision": "block"); Reason is what the model is told.
	Blocked bool
	Reason  string
	// Permission is PreToolUse's strictest "permissionDecision" (deny over
	// ask over allow), with its reason; "" when no hook gave one.
	Permission       string
	PermissionReason string
	// UpdatedInput is the tool input a PreToolUse hook put in place of the model's.
	UpdatedInput json.RawMessage
	// Context is what the hooks add for the model to read.
	Context []string
	// Stop says a hook asked to end the session ("continue": false); StopReason is for the user.
	Stop       bool
	StopReason string
	// Messages are for the user: system messages and hooks that failed without blocking.
	Messages []string
}

// permissionRank orders permission decisions, the strictest last.
var permissionRank = map[string]int{"allow": 1, "ask": 2, "deny": 3}

// fold combines the results in the hooks' order.
func fold(event string, results []Result) Outcome {
	o := Outcome{Results: results}
	var reasons []string
	for _, r := range results {
		switch {
		case r.Err != nil:
			o.Messages = append(o.Messages, fmt.Sprintf("%s hook %q could not run: %v", event, r.Hook.Command, r.Err))
		case r.TimedOut:
			o.Messages = append(o.Messages, fmt.Sprintf("%s hook %q timed out after %s and was stopped", event, r.Hook.Command, r.Hook.Timeout))
		case r.ExitCode == 2:
			o.Blocked = true
			reasons = append(reasons, strings.TrimSpace(r.Stderr))
		case r.ExitCode != 0:
			o.Messages = append(o.Messages, fmt.Sprintf("%s hook %q failed with status %d: %s", event, r.Hook.Command, r.ExitCode, strings.TrimSpace(r.Stderr)))
		case r.Output != nil:
			reasons = o.answer(r.Output, reasons)
		case event == UserPromptSubmit || event == SessionStart:
			if text := strings.TrimSpace(r.Stdout); text != "" {
				o.Context = append(o.Context, text)
			}
		}
	}
	o.Reason = strings.Join(reasons, "\n")
	return o
}

// answer takes in one hook's JSON answer.
func (o *Outcome) answer(out *Output, reasons []string) []string {
	if out.Continue != nil && !*out.Continue {
		o.Stop, o.StopReason = true, out.StopReason
	}
	if out.SystemMessage != "" {
		o.Messages = append(o.Messages, out.SystemMessage)
	}
	if out.Decision == "block" {
		o.Blocked = true
		reasons = append(reasons, out.Reason)
	}
	s := out.Specific
	if s == nil {
		return reasons
	}
	if rank := permissionRank[s.PermissionDecision]; rank > permissionRank[o.Permission] {
		o.Permission, o.PermissionReason = s.PermissionDecision, s.PermissionDecisionReason
	}
	if len(s.UpdatedInput) > 0 && o.UpdatedInput == nil {
		o.UpdatedInput = s.UpdatedInput
	}
	if s.AdditionalContext != "" {
		o.Context = append(o.Context, s.AdditionalContext)
	}
	return reasons
}

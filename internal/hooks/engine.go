package hooks

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/google/uuid"
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

// With returns an engine running the same hooks and extra ones after them,
// in the same folder and environment; for a nil e, those of opts.
func (e *Engine) With(extra []Hook, opts Options) *Engine {
	if e == nil {
		return New(extra, opts)
	}
	n := New(extra, Options{ProjectDir: e.dir})
	n.env = e.env
	n.hooks = append(slices.Clone(e.hooks), n.hooks...)
	n.matchers = append(slices.Clone(e.matchers), n.matchers...)
	return n
}

// Hooks returns the configured hooks, for /hooks.
func (e *Engine) Hooks() []Hook {
	if e == nil {
		return nil
	}
	return append([]Hook(nil), e.hooks...)
}

// unmatched are the events that are about nothing a matcher could read: as
// in Claude Code, every hook of theirs runs, whatever its matcher says.
var unmatched = []string{UserPromptSubmit, Stop, PostToolBatch}

// matching returns the hooks of event whose matcher takes target, each
// command once: Claude Code runs identical commands of one event once.
func (e *Engine) matching(event, target string) []Hook {
	if e == nil {
		return nil
	}
	var out []Hook
	seen := map[string]bool{}
	everyMatcher := slices.Contains(unmatched, event)
	for i, h := range e.hooks {
		if h.Event != event || !(everyMatcher || e.matchers[i](target)) || seen[h.Command] {
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
func (e *Engine) Run(ctx context.Context, event, target string, input any, opts ...RunOption) Outcome {
	hooks := e.matching(event, target)
	if len(hooks) == 0 {
		return Outcome{}
	}
	var o runOptions
	for _, opt := range opts {
		opt(&o)
	}
	data, err := json.Marshal(input)
	if err != nil {
		return Outcome{Failures: []Result{{Hook: Hook{Event: event, Command: "(every " + event + " hook)"}, ExitCode: -1,
			Err: fmt.Errorf("their input could not be encoded: %w", err)}}}
	}
	name := Name(event, target)
	results := make([]Result, len(hooks))
	var wg sync.WaitGroup
	var observeMu sync.Mutex
	report := func(p Progress) {
		if o.observe == nil {
			return
		}
		observeMu.Lock()
		defer observeMu.Unlock()
		o.observe(p)
	}
	for i, h := range hooks {
		wg.Go(func() {
			id := uuid.NewString()
			report(Progress{ID: id, Name: name, Hook: h})
			results[i] = run(ctx, h, e.dir, e.env, data)
			report(Progress{ID: id, Name: name, Hook: h, Result: &results[i]})
		})
	}
	wg.Wait()
	return fold(event, results)
}

// RunOption changes how one Run goes.
type RunOption func(*runOptions)

type runOptions struct {
	observe func(Progress)
}

// Observe has Run report each hook to f as it starts and as it ends, one
// report at a time, from the hooks' goroutines: a front end shows what runs.
func Observe(f func(Progress)) RunOption {
	return func(o *runOptions) { o.observe = f }
}

// Progress is one hook's start (Result nil) or end.
type Progress struct {
	// ID is the same in a hook's two reports and new for every run.
	ID string
	// Name is the hooks' name as Claude Code reports it (see Name).
	Name string
	Hook Hook
	// Result is what the hook did, once it ended.
	Result *Result
}

// Name is how Claude Code names the hooks of event run for target in its
// reports: "<Event>:<target>" (PreToolUse:Bash, SessionStart:startup), or
// the bare event for those whose matcher reads no target of the run
// (UserPromptSubmit, UserPromptExpansion, Stop, SubagentStop, PostToolBatch) and when there is no target.
func Name(event, target string) string {
	switch {
	case target == "", event == UserPromptSubmit, event == UserPromptExpansion, event == Stop, event == SubagentStop, event == PostToolBatch:
		return event
	}
	return event + ":" + target
}

// The outcomes of a hook as Claude Code reports them.
const (
	OutcomeSuccess   = "success"
	OutcomeError     = "error"
	OutcomeCancelled = "cancelled"
)

// Outcome says how the hook ended, in Claude Code's words: success (exit
// 0), cancelled (timed out or stopped with the session's turn) or error.
func (r Result) Outcome() string {
	switch {
	case r.TimedOut || r.Cancelled:
		return OutcomeCancelled
	case r.Err == nil && r.ExitCode == 0:
		return OutcomeSuccess
	}
	return OutcomeError
}

// ReportedExitCode is the exit code Claude Code reports: 1 for a hook that
// did not exit on its own (timed out, cancelled, or never started).
func (r Result) ReportedExitCode() int {
	if r.ExitCode < 0 || r.Err != nil {
		return 1
	}
	return r.ExitCode
}

// Outcome is what the hooks of one event decided together.
type Outcome struct {
	Results []Result
	// Blocks are the hooks that blocked what the event is about (exit 2, or
	// "decision": "block"), in the hooks' order.
	Blocks []Block
	// Permission is PreToolUse's strictest "permissionDecision" (deny over
	// ask over allow), with its reason; "" when no hook gave one.
	Permission       string
	PermissionReason string
	// UpdatedInput is the tool input a PreToolUse hook put in place of the model's.
	UpdatedInput json.RawMessage
	// Request is the PermissionRequest hooks' answer: the first deny, else
	// the first allow; nil when none decided.
	Request *RequestDecision
	// Context is what the hooks add for the model to read.
	Context []Context
	// Stop says a hook asked to end the session ("continue": false); StopReason is for the user.
	Stop       bool
	StopReason string
	// Messages are the hooks' "systemMessage"s, for the user.
	Messages []string
	// Failures are the hooks that failed without blocking: another exit code
	// than 0 and 2, a timeout, or no start at all.
	Failures []Result
}

// Blocked reports whether a hook blocked.
func (o Outcome) Blocked() bool { return len(o.Blocks) > 0 }

// Block is one hook's refusal.
type Block struct {
	// Command is the hook's command line, as written.
	Command string
	// Text is what Claude Code reports of it: "[<command>]: <stderr>" for an
	// exit 2 (stderr as written), the reason of a "decision": "block".
	Text string
}

// Context is text a hook gives the model.
type Context struct {
	Text string
	// Additional says it came as "additionalContext" rather than as the
	// plain stdout of a UserPromptSubmit or SessionStart hook.
	Additional bool
}

// permissionRank orders permission decisions, the strictest last.
var permissionRank = map[string]int{"allow": 1, "ask": 2, "deny": 3}

// fold combines the results in the hooks' order.
func fold(event string, results []Result) Outcome {
	o := Outcome{Results: results}
	for _, r := range results {
		switch {
		case r.Err != nil || r.TimedOut:
			o.Failures = append(o.Failures, r)
		case r.ExitCode == 2:
			o.Blocks = append(o.Blocks, Block{Command: r.Hook.Command, Text: "[" + r.Hook.Command + "]: " + r.Stderr})
		case r.ExitCode != 0:
			o.Failures = append(o.Failures, r)
		case r.Output != nil:
			o.answer(r.Hook.Command, r.Output)
		case event == UserPromptSubmit || event == SessionStart:
			if text := strings.TrimRight(r.Stdout, "\n"); strings.TrimSpace(text) != "" {
				o.Context = append(o.Context, Context{Text: text})
			}
		}
	}
	return o
}

// answer takes in one hook's JSON answer.
func (o *Outcome) answer(command string, out *Output) {
	if out.Continue != nil && !*out.Continue {
		o.Stop, o.StopReason = true, out.StopReason
	}
	if out.SystemMessage != "" {
		o.Messages = append(o.Messages, out.SystemMessage)
	}
	if out.Decision == "block" {
		o.Blocks = append(o.Blocks, Block{Command: command, Text: out.Reason})
	}
	s := out.Specific
	if s == nil {
		return
	}
	if rank := permissionRank[s.PermissionDecision]; rank > permissionRank[o.Permission] {
		o.Permission, o.PermissionReason = s.PermissionDecision, s.PermissionDecisionReason
	}
	if len(s.UpdatedInput) > 0 && o.UpdatedInput == nil {
		o.UpdatedInput = s.UpdatedInput
	}
	if s.AdditionalContext != "" {
		o.Context = append(o.Context, Context{Text: s.AdditionalContext, Additional: true})
	}
	if d := s.Decision; d != nil && (d.Behavior == "allow" || d.Behavior == "deny") &&
		(o.Request == nil || d.Behavior == "deny" && o.Request.Behavior != "deny") {
		o.Request = d
	}
}

// Describe says in one line what a failed hook did, for the user.
func (r Result) Describe() string {
	switch {
	case r.Err != nil:
		return fmt.Sprintf("%s hook %q could not run: %v", r.Hook.Event, r.Hook.Command, r.Err)
	case r.TimedOut:
		return fmt.Sprintf("%s hook %q did not answer within %s and was stopped", r.Hook.Event, r.Hook.Command, r.Hook.Timeout)
	case r.Cancelled:
		return fmt.Sprintf("%s hook %q was stopped: what it ran for was interrupted", r.Hook.Event, r.Hook.Command)
	}
	return fmt.Sprintf("%s hook %q failed with status %d: %s", r.Hook.Event, r.Hook.Command, r.ExitCode, strings.TrimSpace(r.Stderr))
}

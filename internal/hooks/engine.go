package hooks

import (
	"context"
	"encoding/json"
	"fmt"
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
	// watch, when set, is told of each hook as it starts and as it ends.
	watch func(Report)
}

// Report tells a watcher of one hook run: Result is nil when it starts.
// Target is what its matcher was tested on; ID tells the run's start from
// other runs' ends.
type Report struct {
	ID     string
	Hook   Hook
	Target string
	Result *Result
}

// Watch has f told of every hook run from now on, from the goroutines that
// run them, as they start and end; call it before any run.
func (e *Engine) Watch(f func(Report)) {
	if e != nil {
		e.watch = f
	}
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
		return Outcome{Failures: []Result{{Hook: Hook{Event: event, Command: "(every " + event + " hook)"}, ExitCode: -1,
			Err: fmt.Errorf("their input could not be encoded: %w", err)}}}
	}
	results := make([]Result, len(hooks))
	var wg sync.WaitGroup
	for i, h := range hooks {
		wg.Go(func() {
			id := uuid.NewString()
			if e.watch != nil {
				e.watch(Report{ID: id, Hook: h, Target: target})
			}
			results[i] = run(ctx, h, e.dir, e.env, data)
			if e.watch != nil {
				e.watch(Report{ID: id, Hook: h, Target: target, Result: &results[i]})
			}
		})
	}
	wg.Wait()
	return fold(event, results)
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
}

// Describe says in one line what a failed hook did, for the user.
func (r Result) Describe() string {
	switch {
	case r.Err != nil:
		return fmt.Sprintf("%s hook %q could not run: %v", r.Hook.Event, r.Hook.Command, r.Err)
	case r.TimedOut:
		return fmt.Sprintf("%s hook %q did not answer within %s and was stopped", r.Hook.Event, r.Hook.Command, r.Hook.Timeout)
	}
	return fmt.Sprintf("%s hook %q failed with status %d: %s", r.Hook.Event, r.Hook.Command, r.ExitCode, strings.TrimSpace(r.Stderr))
}

// Package hooks runs Claude Code's lifecycle hooks: commands configured in the
// settings files under "hooks", by event and matcher, that get the event as
// JSON on stdin and answer through their exit code and stdout. The agent and
// the front ends fire the events; this package finds the hooks, runs them in
// parallel under their timeouts and folds their answers into one Outcome.
package hooks

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"
)

// The events mini-claude fires, with Claude Code's names.
const (
	PreToolUse         = "PreToolUse"
	PostToolUse        = "PostToolUse"
	PostToolUseFailure = "PostToolUseFailure"
	UserPromptSubmit   = "UserPromptSubmit"
	// UserPromptExpansion runs when a prompt runs a custom slash command,
	// after UserPromptSubmit; its matcher reads the command's name.
	UserPromptExpansion = "UserPromptExpansion"
	Stop                = "Stop"
	SubagentStop        = "SubagentStop"
	SessionStart        = "SessionStart"
	SessionEnd          = "SessionEnd"
	PreCompact          = "PreCompact"
	Notification        = "Notification"
	PostToolBatch       = "PostToolBatch"
	StopFailure         = "StopFailure"
	SubagentStart       = "SubagentStart"
	PostCompact         = "PostCompact"
	PermissionRequest   = "PermissionRequest"
	InstructionsLoaded  = "InstructionsLoaded"
)

// Events lists the events in the order of Claude Code's own list of them.
var Events = []string{PreToolUse, PostToolUse, PostToolUseFailure, PostToolBatch, Notification, UserPromptSubmit,
	UserPromptExpansion, SessionStart, SessionEnd, Stop, StopFailure, SubagentStart, SubagentStop, PreCompact,
	PostCompact, PermissionRequest, InstructionsLoaded}

// DefaultTimeout bounds a hook that sets no timeout of its own, as in Claude Code.
const DefaultTimeout = 60 * time.Second

// Hook is one configured command of one event.
type Hook struct {
	// Event is the event it runs on.
	Event string
	// Matcher selects what it runs for: a tool name, "Edit|Write", a regular
	// expression such as "mcp__fs__.*", or "" and "*" for everything.
	Matcher string
	// Command is the bash command line.
	Command string
	// Timeout bounds the command; its process group is killed past it.
	Timeout time.Duration
	// Source is the settings file that defines it.
	Source string
	// Callback, when set, runs in place of Command: a hook an Agent SDK
	// program registered, whose run is a round trip to it. It gets the input
	// and answers with what a command would print on stdout; an error is a
	// failed run. Command then only names it.
	Callback func(ctx context.Context, input []byte) ([]byte, error)
}

// rawMatcher is one entry of an event's list, as written.
type rawMatcher struct {
	Matcher string       `json:"matcher"`
	Hooks   []rawCommand `json:"hooks"`
}

// rawCommand is one hook of a matcher, as written.
type rawCommand struct {
	Type    string   `json:"type"`
	Command string   `json:"command"`
	Timeout *float64 `json:"timeout"`
}

// Parse reads the "hooks" object of the settings file source. Events it does
// not know and hooks of another type than "command" are reported and left out;
// the others are returned in the order written.
func Parse(raw json.RawMessage, source string) ([]Hook, []error) {
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return nil, nil
	}
	var events map[string][]rawMatcher
	if err := json.Unmarshal(raw, &events); err != nil {
		return nil, []error{fmt.Errorf(`settings %s: "hooks" must map event names to lists of {"matcher", "hooks": [{"type": "command", "command"}]} (%v); its hooks are ignored`, source, err)}
	}
	var hooks []Hook
	var problems []error
	names := make([]string, 0, len(events))
	for name := range events {
		names = append(names, name)
	}
	slices.SortFunc(names, func(a, b string) int { return slices.Index(Events, a) - slices.Index(Events, b) })
	for _, event := range names {
		if !slices.Contains(Events, event) {
			problems = append(problems, fmt.Errorf("settings %s: hook event %q is not one mini-claude fires (%v); its hooks are ignored", source, event, Events))
			continue
		}
		for _, m := range events[event] {
			for i, c := range m.Hooks {
				h, err := hookOf(event, m.Matcher, c, source)
				if err != nil {
					problems = append(problems, fmt.Errorf("settings %s: %s hook %d of matcher %q: %w", source, event, i+1, m.Matcher, err))
					continue
				}
				hooks = append(hooks, h)
			}
		}
	}
	return hooks, problems
}

func hookOf(event, matcher string, c rawCommand, source string) (Hook, error) {
	switch {
	case c.Type != "command":
		return Hook{}, fmt.Errorf(`type %q is not supported; use "command"`, c.Type)
	case c.Command == "":
		return Hook{}, fmt.Errorf(`"command" is empty`)
	case c.Timeout != nil && *c.Timeout <= 0:
		return Hook{}, fmt.Errorf(`"timeout" must be a positive number of seconds, not %v`, *c.Timeout)
	}
	if _, err := compileMatcher(matcher); err != nil {
		return Hook{}, err
	}
	timeout := DefaultTimeout
	if c.Timeout != nil {
		timeout = time.Duration(*c.Timeout * float64(time.Second))
	}
	return Hook{Event: event, Matcher: matcher, Command: c.Command, Timeout: timeout, Source: source}, nil
}

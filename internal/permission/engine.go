package permission

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
)

// Mode is a session-wide permission mode, as named by --permission-mode.
type Mode string

// The permission modes.
const (
	ModeDefault           Mode = "default"
	ModeAcceptEdits       Mode = "acceptEdits"
	ModePlan              Mode = "plan"
	ModeBypassPermissions Mode = "bypassPermissions"
)

// Modes lists the valid modes, for flag validation and help text.
var Modes = []Mode{ModeDefault, ModeAcceptEdits, ModePlan, ModeBypassPermissions}

// ParseMode returns the mode named s, or an error listing the valid ones.
func ParseMode(s string) (Mode, error) {
	if slices.Contains(Modes, Mode(s)) {
		return Mode(s), nil
	}
	return "", fmt.Errorf("unknown permission mode %q: use one of %v", s, Modes)
}

// Context is everything the engine decides with: the mode and the rules.
type Context struct {
	Mode  Mode
	Allow []Rule
	Deny  []Rule
	Ask   []Rule
}

// DeniesTool reports whether a whole-tool deny rule ("Bash", "mcp__server")
// removes the tool before the model ever sees it.
func (c *Context) DeniesTool(name string) bool {
	return slices.ContainsFunc(c.Deny, func(r Rule) bool { return r.Content == "" && r.coversTool(name) })
}

// Behavior is the outcome of a decision, or a tool's own opinion of a call.
type Behavior int

// Behaviors. Passthrough is only a tool's opinion: it leaves the call to the
// rules and the mode.
const (
	Passthrough Behavior = iota
	Allow
	Ask
	Deny
)

// Query describes one call for the engine.
type Query struct {
	Tool     string
	ReadOnly bool
	// ToolVerdict and ToolReason are the tool's own opinion of the call.
	ToolVerdict Behavior
	ToolReason  string
	// MatchContent reports whether a rule's content covers this call. Nil means
	// the tool cannot match content: deny and ask rules with content then cover
	// every use of the tool, and allow rules with content cover none (fail closed).
	MatchContent func(content string) bool
}

// Decision is the engine's verdict on a call, with the reason and the rule that decided it.
type Decision struct {
	Behavior Behavior
	Reason   string
	Rule     *Rule
}

// Decide applies, in order: deny rules, ask rules, the tool's own deny or ask,
// bypass mode, allow rules, the tool's own allow, and the mode's default.
func (c *Context) Decide(q Query) Decision {
	if r := c.match(c.Deny, q, true); r != nil {
		return Decision{Behavior: Deny, Reason: fmt.Sprintf("Permission to use %s has been denied by the rule %s.", q.Tool, r), Rule: r}
	}
	if r := c.match(c.Ask, q, true); r != nil {
		return Decision{Behavior: Ask, Reason: fmt.Sprintf("The rule %s asks for approval.", r), Rule: r}
	}
	switch q.ToolVerdict {
	case Deny:
		return Decision{Behavior: Deny, Reason: q.ToolReason}
	case Ask:
		if c.Mode != ModeBypassPermissions {
			return Decision{Behavior: Ask, Reason: q.ToolReason}
		}
	}
	if c.Mode == ModeBypassPermissions {
		return Decision{Behavior: Allow, Reason: "bypassPermissions mode"}
	}
	if r := c.match(c.Allow, q, false); r != nil {
		return Decision{Behavior: Allow, Reason: fmt.Sprintf("allowed by the rule %s", r), Rule: r}
	}
	if q.ToolVerdict == Allow {
		return Decision{Behavior: Allow, Reason: q.ToolReason}
	}
	return c.modeDefault(q)
}

func (c *Context) modeDefault(q Query) Decision {
	switch {
	case q.ReadOnly:
		return Decision{Behavior: Allow, Reason: "read-only"}
	case c.Mode == ModePlan:
		return Decision{Behavior: Deny, Reason: fmt.Sprintf("%s changes the system and plan mode only allows read-only tools; present the plan first.", q.Tool)}
	}
	return Decision{Behavior: Ask, Reason: fmt.Sprintf("%s needs approval.", q.Tool)}
}

// match returns the first rule in rules that covers the call; whenUnmatchable
// says whether a content rule covers a tool that cannot match content.
func (c *Context) match(rules []Rule, q Query, whenUnmatchable bool) *Rule {
	for i, r := range rules {
		if !r.coversTool(q.Tool) {
			continue
		}
		if r.Content == "" {
			return &rules[i]
		}
		if q.MatchContent == nil {
			if whenUnmatchable {
				return &rules[i]
			}
			continue
		}
		if q.MatchContent(r.Content) {
			return &rules[i]
		}
	}
	return nil
}

// Prompt is a question to the user about one call.
type Prompt struct {
	Tool      string
	ToolUseID string
	Input     json.RawMessage
	// Reason says why approval is needed.
	Reason string
}

// Answer is the user's reply to a Prompt.
type Answer struct {
	Allow bool
	// Message tells the model why the call was refused; empty gives a generic refusal.
	Message string
}

// Prompter asks the user; the terminal UI implements it with a dialog.
type Prompter interface {
	Ask(ctx context.Context, p Prompt) (Answer, error)
}

// NeverAsk is the Prompter of headless runs: nobody is there to answer, so every
// ask is refused.
type NeverAsk struct{}

// Ask refuses, telling the model how the user could grant the permission.
func (NeverAsk) Ask(_ context.Context, p Prompt) (Answer, error) {
	return Answer{Message: fmt.Sprintf("Permission to use %s has not been granted, and nobody can approve it in this session. %s "+
		"Continue without it, or tell the user which permission the task needs (for example --allowedTools %s).", p.Tool, p.Reason, p.Tool)}, nil
}

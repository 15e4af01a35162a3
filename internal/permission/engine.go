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

// Context is everything the engine decides with: the mode, the rules and the
// places the session may use without asking.
type Context struct {
	Mode  Mode
	Allow []Rule
	Deny  []Rule
	Ask   []Rule
	// Dirs are the allowed directories (the working directory first, then
	// the --add-dir ones), as real paths.
	Dirs []string
	// Checkout, when set, is the checkout (a real path) a worktree session
	// was made from and is isolated from: writes inside it but outside Dirs
	// are refused in every mode. Dirs[0] is then the worktree.
	Checkout string
	// Home is the user's home directory, for "~/" in rules and the secret defaults.
	Home string
	// PlanFile is the real path of the session's plan file: in plan mode
	// the one file a call may write, without asking.
	PlanFile string
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

// Query describes one call for the engine: the tool, what it says of the call,
// and everything the call touches. Paths are absolute real paths (symlinks
// followed), so the engine decides without touching the file system.
type Query struct {
	Tool     string
	ReadOnly bool
	// ToolVerdict and ToolReason are the tool's own opinion of the call.
	ToolVerdict Behavior
	ToolReason  string
	Reads       []string
	Writes      []string
	Commands    []Command
	Domains     []string
	// Network says the call sends its input off the machine: a read-only
	// call that touches nothing else still asks unless a rule allows it.
	Network bool
	// Target is what a rule Tool(target) names for a tool whose rules name
	// no path, command or domain, such as the skill of a Skill call; "" for
	// other tools, whose such rules cover the whole tool.
	Target string
	// UserInteraction says the call is a question to the user
	// (AskUserQuestion, ExitPlanMode): the tool's ask holds in every mode.
	UserInteraction bool
}

// Decision is the engine's verdict on a call, with the reason, the rule that
// decided it, and the exact part (a sub-command, a path) that decided it.
type Decision struct {
	Behavior Behavior
	Reason   string
	Rule     *Rule
	Subject  string
}

// Decide applies, in order: deny rules (and the secret defaults), ask rules,
// the tool's own deny or ask (an ask about a named target gives way to an
// allow rule naming it), bypass mode, plan mode, then allows the call only
// when every part of it is allowed — by a rule, by being a read or a read-only
// command inside the allowed directories, or by acceptEdits for writes there —
// and otherwise asks, naming the first part that needs approval.
func (c *Context) Decide(q Query) Decision {
	parts := items(q)
	programs := programsOf(parts)
	if d, ok := c.firstMatch(c.Deny, q, parts, programs, Deny); ok {
		return d
	}
	if d, ok := c.secretDefault(parts); ok {
		return d
	}
	if d, ok := c.isolationDenial(parts); ok {
		return d
	}
	if d, ok := c.firstMatch(c.Ask, q, parts, programs, Ask); ok {
		return d
	}
	switch q.ToolVerdict {
	case Deny:
		return Decision{Behavior: Deny, Reason: q.ToolReason}
	case Ask:
		// A tool that asks about a named target (a skill) gives way to an
		// allow rule naming it.
		if q.UserInteraction || c.Mode != ModeBypassPermissions && (q.Target == "" || c.targetAllowRule(q.Tool, q.Target) == nil) {
			return Decision{Behavior: Ask, Reason: q.ToolReason}
		}
	}
	switch {
	case c.Mode == ModeBypassPermissions:
		return Decision{Behavior: Allow, Reason: "bypassPermissions mode"}
	case c.Mode == ModePlan && c.writesOnlyPlanFile(q):
		return Decision{Behavior: Allow, Reason: "the plan file"}
	case c.Mode == ModePlan && !q.ReadOnly:
		return Decision{Behavior: Deny, Reason: planModeRefusal(q)}
	}
	return c.allowance(q, parts)
}

// writesOnlyPlanFile reports whether the call writes the session's plan file
// and touches nothing else.
func (c *Context) writesOnlyPlanFile(q Query) bool {
	return c.PlanFile != "" && len(q.Writes) > 0 && len(q.Commands) == 0 && len(q.Domains) == 0 && !q.Network &&
		!slices.ContainsFunc(q.Writes, func(w string) bool { return w != c.PlanFile })
}

// planModeRefusal is what the model is told of a call plan mode refuses: a
// file write in Claude Code's words, any other change in ours.
func planModeRefusal(q Query) string {
	if len(q.Writes) > 0 && len(q.Commands) == 0 {
		return fmt.Sprintf("Cannot write to %s while in plan mode.", q.Writes[0])
	}
	return fmt.Sprintf("%s changes the system and plan mode only allows read-only tools; present the plan first.", q.Tool)
}

// Prompt is a question to the user about one call.
type Prompt struct {
	Tool      string
	ToolUseID string
	Input     json.RawMessage
	// Reason says why approval is needed.
	Reason string
	// Subject is the exact part that needs approval: a sub-command or a path.
	Subject string
	// Rule is the allow rule that answering "yes, don't ask again" would
	// add, such as "Bash(npm run test:*)".
	Rule string
	// Hook, when set, names the hooks that ask (PreToolUse:Bash): they ask
	// again every time, so no answer holds for good.
	Hook string
	// UserInteraction says the question is the tool itself (AskUserQuestion,
	// ExitPlanMode): only a person can answer it, never a stored rule.
	UserInteraction bool
}

// Answer is the user's reply to a Prompt. It carries what Claude Code's
// permission answers carry (the UI's dialog, an SDK client's can_use_tool
// response): allow or deny with a message, the input the call runs with,
// and a mode update.
type Answer struct {
	Allow bool
	// Message tells the model why the call was refused; empty gives a generic refusal.
	Message string
	// UpdatedInput, when set with Allow, replaces the call's input, validated
	// again: an Agent SDK program's canUseTool rewrite, AskUserQuestion's input
	// with the user's "answers", ExitPlanMode's with a plan the user edited.
	UpdatedInput json.RawMessage
	// Mode, when set, is the permission mode the session continues in from
	// this call on (Claude Code's setMode update for the session): approving
	// a plan with "auto-accept edits" gives acceptEdits.
	Mode Mode
	// Interrupt, with a refusal, ends the turn too.
	Interrupt bool
}

// Prompter asks the user; the terminal UI implements it with a dialog, and
// the SDK front end with a can_use_tool request. Every ask goes through it,
// the questions of AskUserQuestion and ExitPlanMode included.
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

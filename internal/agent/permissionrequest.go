package agent

import (
	"context"
	"errors"
	"fmt"

	"github.com/mini-claude/mini-claude/internal/hooks"
	"github.com/mini-claude/mini-claude/internal/permission"
	"github.com/mini-claude/mini-claude/internal/tool"
)

// ErrHookInterrupt ends a run whose PermissionRequest hook denied a call
// with "interrupt": true.
var ErrHookInterrupt = errors.New("a PermissionRequest hook refused a call and interrupted the turn")

// rejectedText is what the model is told of a call a PermissionRequest hook
// refused while interrupting the turn, in Claude Code's words.
const rejectedText = "The user doesn't want to proceed with this tool use. The tool use was rejected " +
	"(eg. if it was a file edit, the new_string was NOT written to the file). " +
	"STOP what you are doing and wait for the user to tell you how to proceed."

// permissionRequest runs the PermissionRequest hooks of a call that would
// ask the user, before anyone is asked; rule is the allow rule the question
// suggests. A hook's allow lets the call run, its updatedInput in place of
// the model's once validated again; a deny refuses it with the hook's
// message, and with "interrupt" ends the turn too. decided is false when no
// hook answered: exit 2 and plain stdout answer nothing.
func (a *Agent) permissionRequest(ctx context.Context, p *pending, env *tool.Env, rule string) (r refusal, decided bool) {
	name := p.call.Tool().Name()
	if !a.opts.Hooks.Has(hooks.PermissionRequest, name) {
		return refusal{}, false
	}
	in := hooks.PermissionRequestInput{Common: a.hookCommon(hooks.PermissionRequest, true), ToolName: name, ToolInput: validatedInput(p.call.Tool(), p.call.Input(), p.input),
		PermissionSuggestions: permissionSuggestions(rule)}
	d := a.runHooks(ctx, hooks.PermissionRequest, name, in).Request
	switch {
	case d == nil:
		return refusal{}, false
	case d.Behavior == "deny":
		message := d.Message
		if message == "" {
			message = "Permission denied by hook"
		}
		if d.Interrupt {
			a.hookInterrupt.Store(true)
			return refusal{text: rejectedText, notice: message, asked: true, byHook: true}, true
		}
		return refusal{text: message, asked: true, byHook: true}, true
	case len(d.UpdatedInput) == 0:
		return refusal{}, true
	}
	if err := p.replaceInput(ctx, env, d.UpdatedInput); err != nil {
		return refusal{text: fmt.Sprintf("PermissionRequest hook for %s returned updatedInput that failed schema validation: %v\n"+
			"The tool input from the model was valid; the hook's rewrite of it was not.", name, err), byHook: true}, true
	}
	return refusal{}, true
}

// permissionSuggestions are the permission updates a PermissionRequest hook
// is offered, in Claude Code's shape: the allow rule the UI offers to
// remember ("Yes, and don't ask again"), saved to the project's local
// settings as the UI saves it.
func permissionSuggestions(rule string) []hooks.PermissionUpdate {
	r, err := permission.ParseRule(rule, "the suggestion")
	if rule == "" || err != nil {
		return []hooks.PermissionUpdate{}
	}
	return []hooks.PermissionUpdate{{Type: "addRules", Rules: []hooks.RuleValue{{ToolName: r.Tool, RuleContent: r.Content}},
		Behavior: "allow", Destination: "localSettings"}}
}

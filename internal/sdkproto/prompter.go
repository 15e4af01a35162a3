package sdkproto

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mini-claude/mini-claude/internal/permission"
)

// Prompter asks the program whether a call may run (can_use_tool), as the
// terminal UI asks its user: it is the permission.Prompter of a session
// started with --permission-prompt-tool stdio.
type Prompter struct {
	Conn *Conn
}

// canUseTool is the question, in Claude Code's shape.
type canUseTool struct {
	Subtype               string             `json:"subtype"`
	ToolName              string             `json:"tool_name"`
	DisplayName           string             `json:"display_name"`
	Input                 json.RawMessage    `json:"input"`
	PermissionSuggestions []permissionUpdate `json:"permission_suggestions,omitempty"`
	Description           string             `json:"description,omitempty"`
	ToolUseID             string             `json:"tool_use_id"`
	// RequiresUserInteraction says only a person may answer (the question is
	// the tool itself), so no stored grant or automatic approval should.
	RequiresUserInteraction bool `json:"requires_user_interaction,omitempty"`
}

// permissionUpdate is a change to the rules the program may make with its answer.
type permissionUpdate struct {
	Type        string      `json:"type"`
	Rules       []ruleValue `json:"rules"`
	Behavior    string      `json:"behavior"`
	Destination string      `json:"destination"`
}

type ruleValue struct {
	ToolName    string `json:"toolName"`
	RuleContent string `json:"ruleContent,omitempty"`
}

// verdict is the program's answer.
type verdict struct {
	Behavior           string          `json:"behavior"`
	UpdatedInput       json.RawMessage `json:"updatedInput"`
	UpdatedPermissions []update        `json:"updatedPermissions"`
	Message            string          `json:"message"`
	Interrupt          bool            `json:"interrupt"`
}

// update is a change to the permissions an allowing answer makes; of its
// kinds only setMode is taken (see mode).
type update struct {
	Type        string `json:"type"`
	Mode        string `json:"mode"`
	Destination string `json:"destination"`
}

// Ask sends the question and waits for the answer: allow (with the input
// to run, which may differ from the model's), or deny with a message and
// perhaps the end of the turn.
func (p Prompter) Ask(ctx context.Context, q permission.Prompt) (permission.Answer, error) {
	input := q.Input
	if len(input) == 0 {
		input = json.RawMessage("{}")
	}
	body, err := p.Conn.Request(ctx, canUseTool{Subtype: "can_use_tool", ToolName: q.Tool, DisplayName: q.Tool, Input: input,
		PermissionSuggestions: suggestions(q.Rule), Description: q.Subject, ToolUseID: q.ToolUseID, RequiresUserInteraction: q.UserInteraction})
	if err != nil {
		return permission.Answer{}, fmt.Errorf("ask the program: %w", err)
	}
	var v verdict
	if err := json.Unmarshal(body, &v); err != nil {
		return permission.Answer{}, fmt.Errorf("read the program's answer %s: %w", body, err)
	}
	switch v.Behavior {
	case "allow":
		m, err := mode(v.UpdatedPermissions)
		if err != nil {
			return permission.Answer{}, fmt.Errorf("read the program's answer %s: %w", body, err)
		}
		return permission.Answer{Allow: true, UpdatedInput: v.UpdatedInput, Mode: m}, nil
	case "deny":
		return permission.Answer{Message: v.Message, Interrupt: v.Interrupt}, nil
	}
	return permission.Answer{}, fmt.Errorf("the program answered %q, neither allow nor deny", v.Behavior)
}

// suggestions offer the program the allow rule the UI offers to remember.
func suggestions(rule string) []permissionUpdate {
	r, err := permission.ParseRule(rule, "the suggestion")
	if rule == "" || err != nil {
		return []permissionUpdate{}
	}
	return []permissionUpdate{{Type: "addRules", Rules: []ruleValue{{ToolName: r.Tool, RuleContent: r.Content}},
		Behavior: "allow", Destination: "localSettings"}}
}

// mode is the permission mode an answer's updates switch the session to
// ("" for none): the last setMode, whatever its destination, as Claude Code
// applies it to the running session (approving a plan with
// {type: "setMode", mode: "acceptEdits", destination: "session"}). Settings
// destinations are not written, and the other kinds of update (rules,
// directories) are not applied.
func mode(updates []update) (permission.Mode, error) {
	var m permission.Mode
	for _, u := range updates {
		if u.Type != "setMode" {
			continue
		}
		parsed, err := permission.ParseMode(u.Mode)
		if err != nil {
			return "", fmt.Errorf("setMode: %w", err)
		}
		m = parsed
	}
	return m, nil
}

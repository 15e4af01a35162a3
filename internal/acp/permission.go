package acp

import (
	"context"
	"fmt"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/mini-claude/mini-claude/internal/permission"
)

// The answers a permission request offers.
const (
	optionAllow       = "allow"
	optionAllowAlways = "allow_always"
	optionReject      = "reject"
)

// Ask puts a permission ask to the editor's user as session/request_permission,
// with the call it is about: allow once, allow always (the rule the engine
// suggests, saved to the project's local settings in a trusted folder) or
// reject. A rule answered "allow always" earlier in the session answers at
// once. A cancelled prompt's request is answered "cancelled": a refusal.
func (s *session) Ask(ctx context.Context, p permission.Prompt) (permission.Answer, error) {
	rule := p.Rule
	if rule == "" {
		rule = p.Tool
	}
	always := p.Hook == ""
	s.mu.Lock()
	known := always && s.remembered[rule]
	s.mu.Unlock()
	if known {
		return permission.Answer{Allow: true}, nil
	}
	info := describe(p.Tool, p.Input)
	title := info.title
	if p.Reason != "" {
		title += " — " + p.Reason
	}
	status := sdk.ToolCallStatusPending
	req := sdk.RequestPermissionRequest{
		SessionId: sdk.SessionId(s.id),
		ToolCall: sdk.ToolCallUpdate{ToolCallId: sdk.ToolCallId(p.ToolUseID), Title: &title, Kind: &info.kind, Status: &status,
			Locations: info.locations, Content: info.content, RawInput: rawInput(p.Input)},
		Options: []sdk.PermissionOption{{OptionId: optionAllow, Name: "Allow", Kind: sdk.PermissionOptionKindAllowOnce}},
	}
	if always {
		req.Options = append(req.Options, sdk.PermissionOption{OptionId: optionAllowAlways,
			Name: "Always allow " + rule, Kind: sdk.PermissionOptionKindAllowAlways})
	}
	req.Options = append(req.Options, sdk.PermissionOption{OptionId: optionReject, Name: "Reject", Kind: sdk.PermissionOptionKindRejectOnce})
	resp, err := s.srv.conn.RequestPermission(ctx, req)
	if err != nil {
		return permission.Answer{}, fmt.Errorf("the editor did not answer: %w", err)
	}
	if resp.Outcome.Selected == nil {
		return permission.Answer{Message: fmt.Sprintf("The user cancelled this %s call.", p.Tool)}, nil
	}
	switch resp.Outcome.Selected.OptionId {
	case optionAllow:
		return permission.Answer{Allow: true}, nil
	case optionAllowAlways:
		if always {
			s.remember(rule)
			return permission.Answer{Allow: true}, nil
		}
	}
	return permission.Answer{Message: fmt.Sprintf("The user refused this %s call. Do not retry it the same way; ask the user how to proceed.", p.Tool)}, nil
}

// remember keeps a rule answered "allow always": for the rest of the session,
// in the permission context from the next prompt on, and in the project's
// local settings when the folder is trusted (a failure to save is reported
// on the editor's log and the rule still holds for the session).
func (s *session) remember(rule string) {
	s.mu.Lock()
	s.remembered[rule] = true
	s.pending = append(s.pending, rule)
	s.mu.Unlock()
	if s.opened.SaveRule == nil {
		return
	}
	if err := s.opened.SaveRule(rule); err != nil {
		s.srv.logf("the rule %s holds for this session but could not be saved: %v", rule, err)
	}
}

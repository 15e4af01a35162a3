package hooks

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
)

func TestAPermissionRequestIsAnsweredByTheFirstDenyElseTheFirstAllow(t *testing.T) {
	decide := func(decision string) string {
		return `echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":` + decision + `}}'`
	}
	allowRewrite := decide(`{"behavior":"allow","updatedInput":{"command":"ls"}}`)
	allow := decide(`{"behavior":"allow"}`)
	deny := decide(`{"behavior":"deny","message":"no","interrupt":true}`)
	tests := []struct {
		name     string
		commands []string
		want     *RequestDecision
	}{
		{"a deny beats an allow", []string{allowRewrite, deny}, &RequestDecision{Behavior: "deny", Message: "no", Interrupt: true}},
		{"the first allow is kept", []string{allowRewrite, allow}, &RequestDecision{Behavior: "allow", UpdatedInput: json.RawMessage(`{"command":"ls"}`)}},
		{"another behavior decides nothing", []string{decide(`{"behavior":"ask"}`)}, nil},
		{"exit 2 decides nothing", []string{"echo no >&2; exit 2"}, nil},
		{"plain stdout decides nothing", []string{"echo allow"}, nil},
	}
	for _, tt := range tests {
		e, _ := engine(t, PermissionRequest, tt.commands...)
		got := e.Run(context.Background(), PermissionRequest, "Bash", map[string]any{}).Request
		if (got == nil) != (tt.want == nil) || got != nil && (got.Behavior != tt.want.Behavior || got.Message != tt.want.Message ||
			got.Interrupt != tt.want.Interrupt || string(got.UpdatedInput) != string(tt.want.UpdatedInput)) {
			t.Errorf("%s: request = %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

func TestTheEventsAddedLaterAreReadFromSettingsAndNamedAsClaudeCodeNamesThem(t *testing.T) {
	var raw = map[string]any{}
	added := []string{PostToolBatch, StopFailure, SubagentStart, PostCompact, PermissionRequest, InstructionsLoaded}
	for _, event := range added {
		raw[event] = []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": "true"}}}}
	}
	data, _ := json.Marshal(raw)
	hooks, problems := Parse(data, "settings.json")
	var events []string
	for _, h := range hooks {
		events = append(events, h.Event)
	}
	if len(problems) != 0 || !slices.Equal(events, added) {
		t.Errorf("events %v, problems %v; want %v in Claude Code's order", events, problems, added)
	}
	names := map[[2]string]string{
		{PostToolBatch, ""}: "PostToolBatch", {SubagentStart, "general-purpose"}: "SubagentStart:general-purpose",
		{PermissionRequest, "Bash"}: "PermissionRequest:Bash", {PostCompact, "auto"}: "PostCompact:auto",
	}
	for in, want := range names {
		if got := Name(in[0], in[1]); got != want {
			t.Errorf("Name(%q, %q) = %q, want %q", in[0], in[1], got, want)
		}
	}
}

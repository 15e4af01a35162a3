package permission

import (
	"strings"
	"testing"
)

func rules(t *testing.T, texts ...string) []Rule {
	t.Helper()
	rs, errs := ParseRuleList(texts, "test")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return rs
}

func TestParseRuleList(t *testing.T) {
	got, errs := ParseRuleList([]string{"Read,Bash(git log:*) Edit", "mcp__github", "Write(*)", "Bad(", "b@d"}, "--allowedTools")
	var names []string
	for _, r := range got {
		names = append(names, r.String())
	}
	if want := "Read Bash(git log:*) Edit mcp__github Write"; strings.Join(names, " ") != want {
		t.Errorf("rules = %q, want %q", strings.Join(names, " "), want)
	}
	if len(errs) != 2 {
		t.Fatalf("errors = %v, want 2 (Bad( and b@d)", errs)
	}
	if !strings.Contains(errs[0].Error(), "--allowedTools") || !strings.Contains(errs[0].Error(), "missing closing parenthesis") {
		t.Errorf("error %q does not name the source and the problem", errs[0])
	}
}

func TestDeniesToolByNameAndServerPrefix(t *testing.T) {
	c := Context{Deny: rules(t, "Bash", "mcp__github", "Read(./secret/**)")}
	for name, want := range map[string]bool{
		"Bash": true, "mcp__github__create_issue": true, "mcp__githubx__a": false,
		"Read": false, "Edit": false,
	} {
		if got := c.DeniesTool(name); got != want {
			t.Errorf("DeniesTool(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestDecide(t *testing.T) {
	tests := []struct {
		name string
		ctx  Context
		q    Query
		want Behavior
	}{
		{"read-only allowed by default", Context{Mode: ModeDefault}, Query{Tool: "Read", ReadOnly: true}, Allow},
		{"writing tool asks by default", Context{Mode: ModeDefault}, Query{Tool: "Write"}, Ask},
		{"allow rule", Context{Allow: rules(t, "Write")}, Query{Tool: "Write"}, Allow},
		{"deny beats allow", Context{Allow: rules(t, "Write"), Deny: rules(t, "Write")}, Query{Tool: "Write"}, Deny},
		{"ask beats allow", Context{Allow: rules(t, "Write"), Ask: rules(t, "Write")}, Query{Tool: "Write"}, Ask},
		{"deny beats bypass", Context{Mode: ModeBypassPermissions, Deny: rules(t, "Write")}, Query{Tool: "Write"}, Deny},
		{"bypass allows", Context{Mode: ModeBypassPermissions}, Query{Tool: "Write"}, Allow},
		{"bypass overrides a tool ask", Context{Mode: ModeBypassPermissions}, Query{Tool: "Bash", ToolVerdict: Ask}, Allow},
		{"tool deny wins over allow rule", Context{Allow: rules(t, "Bash")}, Query{Tool: "Bash", ToolVerdict: Deny}, Deny},
		{"tool allow", Context{}, Query{Tool: "Bash", ToolVerdict: Allow}, Allow},
		{"plan denies writes", Context{Mode: ModePlan}, Query{Tool: "Write"}, Deny},
		{"plan allows reads", Context{Mode: ModePlan}, Query{Tool: "Read", ReadOnly: true}, Allow},
		{"deny read-only tool by rule", Context{Deny: rules(t, "Read")}, Query{Tool: "Read", ReadOnly: true}, Deny},
		{"server deny covers its tools", Context{Deny: rules(t, "mcp__fs")}, Query{Tool: "mcp__fs__read", ReadOnly: true}, Deny},
		{"content deny fails closed without matcher", Context{Deny: rules(t, "Bash(rm:*)")}, Query{Tool: "Bash", ReadOnly: true}, Deny},
		{"content allow fails closed without matcher", Context{Allow: rules(t, "Bash(ls:*)")}, Query{Tool: "Bash"}, Ask},
		{"content allow with matcher", Context{Allow: rules(t, "Bash(ls:*)")}, Query{Tool: "Bash", MatchContent: func(c string) bool { return c == "ls:*" }}, Allow},
		{"content deny not matching", Context{Deny: rules(t, "Bash(rm:*)")}, Query{Tool: "Bash", ReadOnly: true, MatchContent: func(string) bool { return false }}, Allow},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.ctx.Decide(tt.q); got.Behavior != tt.want {
				t.Errorf("Decide = %v (%s), want %v", got.Behavior, got.Reason, tt.want)
			}
		})
	}
}

func TestParseMode(t *testing.T) {
	if m, err := ParseMode("acceptEdits"); err != nil || m != ModeAcceptEdits {
		t.Errorf("ParseMode(acceptEdits) = %v, %v", m, err)
	}
	if _, err := ParseMode("yolo"); err == nil || !strings.Contains(err.Error(), "bypassPermissions") {
		t.Errorf("ParseMode(yolo) error = %v, want the list of modes", err)
	}
}

package permission

import "testing"

func TestPlanModeLetsOnlyThePlanFileBeWritten(t *testing.T) {
	c := Context{Mode: ModePlan, Dirs: []string{"/home/u/proj"}, Home: "/home/u", PlanFile: "/home/u/.mini-claude/plans/p.md"}
	tests := []struct {
		name   string
		q      Query
		want   Behavior
		reason string
	}{
		{"the plan file", Query{Tool: "Write", Writes: []string{c.PlanFile}}, Allow, "the plan file"},
		{"another file", Query{Tool: "Edit", Writes: []string{"/home/u/proj/a.txt"}}, Deny, "Cannot write to /home/u/proj/a.txt while in plan mode."},
		{"the plan file and another", Query{Tool: "Bash", Writes: []string{c.PlanFile, "/home/u/proj/a.txt"},
			Commands: []Command{{Args: []string{"tee"}, Text: "tee"}}}, Deny,
			"Bash changes the system and plan mode only allows read-only tools; present the plan first."},
		{"a read", Query{Tool: "Read", ReadOnly: true, Reads: []string{"/home/u/proj/a.txt"}}, Allow, "every part of the call is allowed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := c.Decide(tt.q)
			if d.Behavior != tt.want || d.Reason != tt.reason {
				t.Errorf("Decide = %v %q, want %v %q", d.Behavior, d.Reason, tt.want, tt.reason)
			}
		})
	}
}

func TestAQuestionToTheUserIsAskedInEveryMode(t *testing.T) {
	for _, mode := range Modes {
		c := Context{Mode: mode, Allow: rules(t, "AskUserQuestion")}
		q := Query{Tool: "AskUserQuestion", ReadOnly: true, ToolVerdict: Ask, ToolReason: "Answer questions?", UserInteraction: true}
		if d := c.Decide(q); d.Behavior != Ask {
			t.Errorf("%s: Decide = %v, want ask", mode, d.Behavior)
		}
	}
}

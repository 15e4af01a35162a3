package permission

import "testing"

func TestAWorktreeSessionMayNotWriteTheCheckoutItWasMadeFrom(t *testing.T) {
	base := Context{Mode: ModeBypassPermissions, Dirs: []string{"/repo", "/extra"}, Allow: rules(t, "Write(/repo/**)")}
	c := base.Isolate("/repo/.mini-claude/worktrees/feat")
	if c.Checkout != "/repo" || c.Dirs[0] != "/repo/.mini-claude/worktrees/feat" || c.Dirs[1] != "/extra" {
		t.Fatalf("Isolate = dirs %v, checkout %q", c.Dirs, c.Checkout)
	}
	if base.Dirs[0] != "/repo" {
		t.Fatalf("Isolate changed the context it was given: %v", base.Dirs)
	}
	tests := []struct {
		name   string
		q      Query
		want   Behavior
		reason string
	}{
		{"write in the worktree", Query{Tool: "Write", Writes: []string{"/repo/.mini-claude/worktrees/feat/a.txt"}}, Allow, ""},
		{"write in the checkout", Query{Tool: "Write", Writes: []string{"/repo/a.txt"}}, Deny,
			"This session is isolated in the worktree /repo/.mini-claude/worktrees/feat. Edit the worktree copy of this file instead of the shared-checkout path."},
		{"write in another worktree", Query{Tool: "Edit", Writes: []string{"/repo/.mini-claude/worktrees/other/a.txt"}}, Deny, ""},
		{"read in the checkout", Query{Tool: "Read", ReadOnly: true, Reads: []string{"/repo/a.txt"}}, Allow, ""},
		{"write in an added directory", Query{Tool: "Write", Writes: []string{"/extra/a.txt"}}, Allow, ""},
		{"write elsewhere", Query{Tool: "Write", Writes: []string{"/tmp/a.txt"}}, Allow, ""},
	}
	for _, tt := range tests {
		d := c.Decide(tt.q)
		if d.Behavior != tt.want || tt.reason != "" && d.Reason != tt.reason {
			t.Errorf("%s: %v (%s), want %v", tt.name, d.Behavior, d.Reason, tt.want)
		}
	}
}

func TestIsolateIntoTheStartingRootChangesNothing(t *testing.T) {
	c := &Context{Dirs: []string{"/repo"}}
	if got := c.Isolate("/repo"); got != c {
		t.Errorf("Isolate(/repo) = %+v, want the context itself", got)
	}
	nested := c.Isolate("/repo/.mini-claude/worktrees/a").Isolate("/repo/.mini-claude/worktrees/b")
	if nested.Checkout != "/repo" {
		t.Errorf("a worktree entered from a worktree is isolated from %q, want the checkout /repo", nested.Checkout)
	}
}

package cli

import (
	"slices"
	"testing"
)

func TestWorktreeFlagTakesTheNextArgumentAsItsNameAsClaudeCodeDoes(t *testing.T) {
	tests := []struct {
		args, want []string
	}{
		{[]string{"-p", "hi", "--worktree", "feat"}, []string{"-p", "hi", "--worktree=feat"}},
		{[]string{"-w", "fix/login", "-p", "hi"}, []string{"--worktree=fix/login", "-p", "hi"}},
		{[]string{"-p", "hi", "-w"}, []string{"-p", "hi", "--worktree="}},
		{[]string{"-w", "--model", "x"}, []string{"--worktree=", "--model", "x"}},
		{[]string{"-p", "-w", "fix it"}, []string{"-p", "--worktree=fix it"}},
		{[]string{"--worktree=named", "hi"}, []string{"--worktree=named", "hi"}},
		{[]string{"-p", "--", "-w", "x"}, []string{"-p", "--", "-w", "x"}},
	}
	for _, tt := range tests {
		if got := joinWorktreeValue(tt.args); !slices.Equal(got, tt.want) {
			t.Errorf("joinWorktreeValue(%q) = %q, want %q", tt.args, got, tt.want)
		}
	}
}

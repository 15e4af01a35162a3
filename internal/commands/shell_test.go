package commands

import (
	"slices"
	"testing"
)

func TestShellCommandsFindsFencedAndInlineCommandsOutsideCode(t *testing.T) {
	for _, tc := range []struct {
		name string
		text string
		want []Shell
	}{
		{"inline after a blank", "Branch: !`git branch --show-current`\n", []Shell{{Raw: "!`git branch --show-current`", Command: "git branch --show-current"}}},
		{"inline at the start", "!`date`", []Shell{{Raw: "!`date`", Command: "date"}}},
		{"not inside a word", "wow!`date`", nil},
		{"not inside a code span", "Type `x !`date` y`.", nil},
		{"fenced block first", "a !`one`\n```!\necho two\n```\n", []Shell{{Raw: "```!\necho two\n```", Command: "echo two"}, {Raw: "!`one`", Command: "one"}}},
		{"blank command is none", "x !` ` y", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ShellCommands(tc.text); !slices.Equal(got, tc.want) {
				t.Errorf("ShellCommands(%q) = %q, want %q", tc.text, got, tc.want)
			}
		})
	}
}

func TestReplaceShellPutsOutputsInPlace(t *testing.T) {
	text := "Current branch: !`echo main`\nAgain: !`echo main`\n"
	shells := ShellCommands(text)
	got := ReplaceShell(text, shells, []string{"main", "main"})
	if want := "Current branch: main\nAgain: main\n"; got != want {
		t.Errorf("ReplaceShell = %q, want %q", got, want)
	}
}

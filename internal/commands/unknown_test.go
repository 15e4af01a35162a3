package commands

import (
	"slices"
	"strings"
	"testing"
)

func TestParseReadsACommandCallAndLeavesPathsAlone(t *testing.T) {
	for _, tc := range []struct {
		in, name, args string
		ok             bool
	}{
		{"/review src/auth.go", "review", "src/auth.go", true},
		{"/team:deploy  staging ", "team:deploy", "staging", true},
		{"/help", "help", "", true},
		{"/fix\n123", "fix", "123", true},
		{"/usr/bin/env is broken", "", "", false},
		{"review this", "", "", false},
		{"/", "", "", false},
	} {
		name, args, ok := Parse(tc.in)
		if name != tc.name || args != tc.args || ok != tc.ok {
			t.Errorf("Parse(%q) = %q, %q, %v; want %q, %q, %v", tc.in, name, args, ok, tc.name, tc.args, tc.ok)
		}
	}
}

func TestUnknownReminderNamesTheClosestAndTheAvailableCommands(t *testing.T) {
	got := UnknownReminder("reveiw", []string{"pdf", "review"}, 5)
	want := "<system-reminder>\nThe user's message starts with the slash command /reveiw, but no command with that name is available in this session, so it did not run. " +
		"The closest available command is /review. Ask the user before running it. Slash commands available in this session: /pdf, /review, and 3 more. " +
		"Treat the message as a plain request and do the task with the tools you have. If the task needs that command, tell the user it is not installed in this session. " +
		"The user can add it as an organization plugin or a project skill. Do not give installation steps you are not sure of. Do not say the command ran.\n</system-reminder>"
	if got != want {
		t.Errorf("UnknownReminder =\n%q\nwant\n%q", got, want)
	}
	if got := UnknownReminder("x", nil, 0); !strings.Contains(got, "No slash commands are available in this session.") {
		t.Errorf("no commands: %q", got)
	}
	if got := UnknownReminder("x", nil, 2); !strings.Contains(got, "This session has 2 slash commands, but none can be named here.") {
		t.Errorf("only built-ins: %q", got)
	}
}

func TestNearestOrdersNamesByEditDistance(t *testing.T) {
	names := []string{"review", "release", "pdf", "team:deploy"}
	if got := Nearest("reveiw", names, 2); !slices.Equal(got, []string{"review"}) {
		t.Errorf("Nearest within 2 = %q", got)
	}
	if got := Nearest("relase", names, -1)[:2]; !slices.Equal(got, []string{"release", "review"}) {
		t.Errorf("Nearest of all = %q", got)
	}
}

package cli

import (
	"context"
	"slices"
	"strings"
	"testing"
)

const someID = "5f0c6b1e-8d2a-4c3b-9e7f-0a1b2c3d4e5f"

func TestJoinResumeValue(t *testing.T) {
	tests := []struct{ in, want []string }{
		{[]string{"-r", someID, "-p", "go"}, []string{"--resume=" + someID, "-p", "go"}},
		{[]string{"-p", "go", "--resume", someID}, []string{"-p", "go", "--resume=" + someID}},
		{[]string{"-r"}, []string{"--resume=" + pickSession}},
		{[]string{"-r", "fix the bug"}, []string{"--resume=" + pickSession + "fix the bug"}},
		{[]string{"-r", "greeting", "say hi"}, []string{"--resume=" + pickSession + "greeting", "say hi"}},
		{[]string{"-r", "-p", "go"}, []string{"--resume=" + pickSession, "-p", "go"}},
		{[]string{"--resume=" + someID}, []string{"--resume=" + someID}},
		{[]string{"--resume=greeting"}, []string{"--resume=" + pickSession + "greeting"}},
		{[]string{"-p", "--", "-r", someID}, []string{"-p", "--", "-r", someID}},
	}
	for _, tt := range tests {
		if got := joinResumeValue(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("joinResumeValue(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestSessionFlags(t *testing.T) {
	tests := []struct {
		args []string
		want string // "" for a valid combination, else part of the error
	}{
		{[]string{"-c"}, ""},
		{[]string{"-r", someID}, ""},
		{[]string{"--session-id", someID}, ""},
		{[]string{"-c", "--fork-session", "--session-id", someID}, ""},
		{[]string{"-c", "-r", someID}, "use one of them"},
		{[]string{"-r"}, "needs the interactive picker"},
		{[]string{"-r", "greeting"}, "needs the interactive picker"},
		{[]string{"--fork-session"}, "with --continue or --resume"},
		{[]string{"-c", "--session-id", someID}, "needs --fork-session"},
		{[]string{"--session-id", "abc"}, "not a session id"},
	}
	for _, tt := range tests {
		f, _, _ := testFactory("", true)
		var got *Options
		cmd := NewCmdRoot(f, func(_ context.Context, o *Options) error { got = o; return nil })
		cmd.SetArgs(joinResumeValue(append([]string{"-p", "x"}, tt.args...)))
		if err := cmd.Execute(); err != nil {
			t.Fatalf("%q: %v", tt.args, err)
		}
		err := checkSessionFlags(got, false)
		if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("%q: %v, want %q", tt.args, err, tt.want)
		}
	}
}

package bash

import (
	"encoding/json"
	"testing"
)

func TestHooksGetACommandsResultInClaudeCodesShape(t *testing.T) {
	tests := []struct {
		command, want string
	}{
		{"echo hi", `{"stdout":"hi","stderr":"","interrupted":false,"isImage":false,"noOutputExpected":false}`},
		{"touch made.txt", `{"stdout":"","stderr":"","interrupted":false,"isImage":false,"noOutputExpected":true}`},
		{"echo oops >&2", `{"stdout":"oops","stderr":"","interrupted":false,"isImage":false,"noOutputExpected":false}`},
	}
	for _, tt := range tests {
		t.Run(tt.command, func(t *testing.T) {
			h := newHarness(t)
			data, err := json.Marshal(h.bash(tt.command).out.HookResponse())
			if err != nil || string(data) != tt.want {
				t.Errorf("tool_response = %s (%v), want %s", data, err, tt.want)
			}
		})
	}
}

func TestNoOutputIsExpectedOfTheCommandsClaudeCodeNames(t *testing.T) {
	tests := []struct {
		command string
		quiet   bool
	}{
		{"touch a", true},
		{"mkdir -p d && cd d && cp ../a b", true},
		{"rm a; mv b c", true},
		{"echo hi", false},
		{"touch a && ls", false},
		{"timeout 5 touch a", false},
		{"touch 'unclosed", false},
	}
	for _, tt := range tests {
		if got := noOutputExpected(tt.command); got != tt.quiet {
			t.Errorf("noOutputExpected(%q) = %v, want %v", tt.command, got, tt.quiet)
		}
	}
}

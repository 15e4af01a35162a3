package agent

import "testing"

func TestIsCompactSummary(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{compactedText("The user asked for a build.", CarriedState{OriginalTask: "build it"}), true},
		{"This session is being continued from a previous conversation that ran out of context. The summary below covers it.", true},
		{"build it", false},
		{"Please summarise: " + compactedPrefix, false},
	}
	for _, tt := range tests {
		if got := IsCompactSummary(tt.text); got != tt.want {
			t.Errorf("IsCompactSummary(%.60q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

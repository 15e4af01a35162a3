package llm

import (
	"math"
	"testing"
)

func TestCost(t *testing.T) {
	million := Usage{InputTokens: 1_000_000, OutputTokens: 1_000_000, CacheCreationInputTokens: 1_000_000, CacheReadInputTokens: 1_000_000}
	tests := []struct {
		model string
		want  float64
	}{
		{"claude-opus-5-5", 5 + 25 + 6.25 + 0.5},
		{"claude-opus-4-1-20250805", 15 + 75 + 18.75 + 1.5},
		{"claude-sonnet-4-5", 3 + 15 + 3.75 + 0.3},
		{"claude-haiku-4-5", 1 + 5 + 1.25 + 0.1},
		{"claude-3-7-sonnet-20250219", 3 + 15 + 3.75 + 0.3},
		{"qwen3-coder", 0},
		{"gpt-5", 1.25 + 10 + 1.25 + 0.125},
		{"gpt-5-codex", 1.25 + 10 + 1.25 + 0.125},
		{"gpt-5-mini-2025-08-07", 0.25 + 2 + 0.25 + 0.025},
		{"gpt-5.4-mini", 0.75 + 4.5 + 0.75 + 0.075},
		{"gpt-4o-2024-08-06", 2.5 + 10 + 2.5 + 1.25},
		{"o4-mini", 1.1 + 4.4 + 1.1 + 0.275},
		{"gpt-5.9", 0}, // a newer model is not priced as an older one
		{"gpt-oss:20b", 0},
		{"o3x", 0},
	}
	for _, tt := range tests {
		if got := Cost(tt.model, million); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("Cost(%s) = %v, want %v", tt.model, got, tt.want)
		}
	}
}

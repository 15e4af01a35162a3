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
		{"qwen3-coder", 0},
	}
	for _, tt := range tests {
		if got := Cost(tt.model, million); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("Cost(%s) = %v, want %v", tt.model, got, tt.want)
		}
	}
}

package llm

import "testing"

func TestContextWindow(t *testing.T) {
	tests := []struct {
		model string
		want  int
	}{
		{"claude-opus-5-5", 200_000},
		{"claude-sonnet-4-5-20250929", 200_000},
		{"claude-sonnet-4-5[1m]", 1_000_000},
		{"claude-3-5-haiku-latest", 200_000},
		{"gpt-5", 400_000},
		{"gpt-5-codex", 400_000},
		{"gpt-5.4-mini", 400_000},
		{"gpt-4.1-nano", 1_047_576},
		{"gpt-4o-mini", 128_000},
		{"o3-mini", 200_000},
		{"o1-mini", 128_000},
		{"qwen3-coder", DefaultContextWindow},
		{"", DefaultContextWindow},
		{"claudette", DefaultContextWindow},
	}
	for _, tt := range tests {
		if got := ContextWindow(tt.model); got != tt.want {
			t.Errorf("ContextWindow(%q) = %d, want %d", tt.model, got, tt.want)
		}
	}
}

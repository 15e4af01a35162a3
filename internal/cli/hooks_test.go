package cli

import (
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/hooks"
	transcript "github.com/mini-claude/mini-claude/internal/session"
)

func TestResumedTellsTheLastResponseAsClaudeCodeDoes(t *testing.T) {
	now := time.Date(2026, 12, 3, 13, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		last transcript.LastResponse
		want hooks.Resumed
	}{
		{"a response just now: the cache holds its context",
			transcript.LastResponse{At: now.Add(-400 * time.Millisecond), Model: "claude-sonnet-4-5-20250929", ContextTokens: 150, Cached: true},
			hooks.Resumed{SecondsSinceLastResponse: 0, ContextTokens: 150, EstimatedCacheWriteUSD: 0.0006}},
		{"five minutes on: expired",
			transcript.LastResponse{At: now.Add(-5 * time.Minute), Model: "claude-sonnet-4-5-20250929", ContextTokens: 2812, Cached: true},
			hooks.Resumed{SecondsSinceLastResponse: 300, ContextTokens: 2812, PromptCacheLikelyExpired: true, EstimatedCacheWriteUSD: 0.0105}},
		{"a compaction since: expired at once",
			transcript.LastResponse{At: now.Add(-2500 * time.Millisecond), Model: "claude-opus-4-5", ContextTokens: 10000},
			hooks.Resumed{SecondsSinceLastResponse: 3, ContextTokens: 10000, PromptCacheLikelyExpired: true, EstimatedCacheWriteUSD: 0.0625}},
		{"no model on the response: the session's, here unpriced",
			transcript.LastResponse{At: now.Add(-time.Minute), ContextTokens: 500, Cached: true},
			hooks.Resumed{SecondsSinceLastResponse: 60, ContextTokens: 500}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := resumed(tt.last, "llama3", now); *got != tt.want {
				t.Errorf("resumed() = %+v, want %+v", *got, tt.want)
			}
		})
	}
}

func TestStartSourceNamesAForkedSession(t *testing.T) {
	tests := []struct {
		opts Options
		want string
	}{
		{Options{}, "startup"},
		{Options{Continue: true}, "resume"},
		{Options{Resume: someID}, "resume"},
		{Options{Resume: someID, ForkSession: true}, "fork"},
	}
	for _, tt := range tests {
		if got := startSource(&tt.opts); got != tt.want {
			t.Errorf("startSource(%+v) = %q, want %q", tt.opts, got, tt.want)
		}
	}
}

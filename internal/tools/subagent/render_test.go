package subagent

import (
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/render/rendertest"
	"github.com/mini-claude/mini-claude/internal/tool"
)

func TestRenderHooks(t *testing.T) {
	cases := []rendertest.Case{
		{Name: "agent_done", Input: `{"description":"Survey  the\nparser","prompt":"read parser.go"}`, Partial: `{"description":"Survey th`,
			Queued: true, Progress: &tool.ProgressEvent{}, Elapsed: 3 * time.Second,
			Output: Output{Status: "completed", AgentID: "a1", TotalToolUseCount: 7, TotalTokens: 12_345, TotalDurationMs: 12_340}},
		{Name: "agent_background", Input: `{"description":"Audit deps","prompt":"audit","run_in_background":true}`,
			Output: Output{Status: "async_launched", AgentID: "a2"}},
		{Name: "agent_error", Input: `{"description":"Audit deps","prompt":"audit"}`,
			Error: `<tool_use_error>the sub-agent "Audit deps" stopped before finishing: interrupted</tool_use_error>`},
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) { rendertest.Check(t, Tool, c) })
	}
}

func TestSummary(t *testing.T) {
	cases := []struct {
		uses, tokens int
		took         time.Duration
		want         string
	}{
		{0, 0, 0, "Done"},
		{1, 950, 500 * time.Millisecond, "Done (1 tool use · 950 tokens)"},
		{3, 12_345, 12_340 * time.Millisecond, "Done (3 tool uses · 12.3k tokens · 12.3s)"},
		{0, 2000, 65 * time.Second, "Done (2k tokens · 1m 5s)"},
		{12, 1_250_000, time.Second, "Done (12 tool uses · 1.2m tokens · 1.0s)"},
	}
	for _, c := range cases {
		if got := Summary(c.uses, c.tokens, c.took); got != c.want {
			t.Errorf("Summary(%d, %d, %s) = %q, want %q", c.uses, c.tokens, c.took, got, c.want)
		}
	}
}

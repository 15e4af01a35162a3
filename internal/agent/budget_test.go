package agent_test

import (
	"context"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

func TestMaxBudgetAnswersTheUnrunCallsSoTheConversationGoesOn(t *testing.T) {
	h := newHarness(t)
	usage := llm.Usage{InputTokens: 1000, OutputTokens: 100}
	h.srv.Push(
		llmtest.Turn{Blocks: []llm.ContentBlock{sleepCall("a", "a", 1, false), sleepCall("b", "b", 1, false)}, Usage: usage},
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("next")}, Usage: usage},
	)
	a := h.agent(t, func(o *agent.Options) { o.MaxBudgetUSD = 0.001 })
	res := a.Run(context.Background(), "sleep twice")
	if res.Outcome != agent.MaxBudgetReached || res.NumTurns != 1 || res.Err == nil || !strings.Contains(res.Err.Error(), "maximum budget ($0.001)") {
		t.Fatalf("result %+v", res)
	}
	if res.CostUSD <= 0.001 {
		t.Errorf("cost %v, want over the budget", res.CostUSD)
	}
	// The next prompt's request pairs each call with a result (llmtest fails the test otherwise).
	a.Run(context.Background(), "go on")
	var results []llm.ContentBlock
	for _, m := range h.srv.Requests()[1].Messages {
		for _, b := range m.Content {
			if b.Type == llm.BlockToolResult {
				results = append(results, b)
			}
		}
	}
	if len(results) != 2 {
		t.Fatalf("the next request holds %d tool results, want 2", len(results))
	}
	for i, id := range []string{"a", "b"} {
		if results[i].ToolUseID != id || !results[i].IsError || !strings.Contains(resultText(results[i]), "maximum budget") {
			t.Errorf("result %d: %+v", i, results[i])
		}
	}
}

func TestNoBudgetLetsTheRunFinish(t *testing.T) {
	h := newHarness(t)
	h.srv.Push(llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("done")}, Usage: llm.Usage{InputTokens: 1_000_000}})
	res := h.agent(t, nil).Run(context.Background(), "hi")
	if res.Outcome != agent.Completed {
		t.Fatalf("result %+v", res)
	}
}

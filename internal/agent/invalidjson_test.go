package agent_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
	"github.com/mini-claude/mini-claude/internal/llm/openai"
)

// useOpenAI makes the harness's agent talk chat completions to the same server.
func useOpenAI(t *testing.T, h *harness) func(*agent.Options) {
	return func(o *agent.Options) {
		client, err := openai.New(openai.Config{BaseURL: h.srv.URL + "/v1", BaseDelay: time.Millisecond, MaxDelay: 10 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		o.Client = client
	}
}

func TestInvalidJSONArgumentsAreAnsweredAndSentBackUnparsed(t *testing.T) {
	for _, provider := range []string{"anthropic", "openai"} {
		t.Run(provider, func(t *testing.T) {
			h := newHarness(t)
			h.srv.Push(
				llmtest.Turn{Blocks: []llm.ContentBlock{
					llmtest.ToolUse("bad", "Sleep", `{"label":"a","ms":`),
					llmtest.ToolUse("good", "Sleep", `{"label":"b","ms":1}`),
				}},
				llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("resent")}},
			)
			var configure func(*agent.Options)
			if provider == "openai" {
				configure = useOpenAI(t, h)
			}
			res := h.agent(t, configure).Run(context.Background(), "sleep")
			if res.Outcome != agent.Completed {
				t.Fatalf("outcome %v: %v", res.Outcome, res.Err)
			}
			results := h.results(t, 1)
			bad := resultText(results[0])
			// Chat completions has no error flag on tool results; the text says it.
			if results[0].IsError != (provider == "anthropic") || !strings.Contains(bad, "Sleep was called with input that could not be parsed as JSON") ||
				!strings.Contains(bad, `You sent (first 18 of 18 bytes): {"label":"a","ms":`+"\n") {
				t.Errorf("result for the invalid call = %q", bad)
			}
			if results[1].IsError {
				t.Errorf("the valid call failed: %q", resultText(results[1]))
			}
			sent := h.srv.Requests()[1].Messages[1].ToolUses()
			if string(sent[0].Input) != `{"__unparsedToolInput":{"raw":"{\"label\":\"a\",\"ms\":","len":18}}` || string(sent[1].Input) != `{"label":"b","ms":1}` {
				t.Errorf("history sent back with inputs %s and %s", sent[0].Input, sent[1].Input)
			}
		})
	}
}

func TestCostOption(t *testing.T) {
	h := newHarness(t)
	h.srv.Push(llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("free")}})
	var priced llm.Usage
	res := h.agent(t, func(o *agent.Options) {
		o.Cost = func(u llm.Usage) float64 { priced = u; return 0 }
	}).Run(context.Background(), "hi")
	if res.CostUSD != 0 || priced != llmtest.DefaultUsage {
		t.Errorf("cost %v for usage %+v, want the Cost option's 0 for the run's usage", res.CostUSD, priced)
	}
}

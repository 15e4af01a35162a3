package agent_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
	"github.com/mini-claude/mini-claude/internal/permission"
)

// slowAnswer allows every call after a delay, noting when it answered.
type slowAnswer struct {
	delay    time.Duration
	mu       sync.Mutex
	answered time.Time
}

func (s *slowAnswer) Ask(ctx context.Context, _ permission.Prompt) (permission.Answer, error) {
	select {
	case <-time.After(s.delay):
	case <-ctx.Done():
		return permission.Answer{}, ctx.Err()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.answered = time.Now()
	return permission.Answer{Allow: true}, nil
}

func TestNothingRunsWhileAPermissionIsAsked(t *testing.T) {
	h := newHarness(t)
	h.srv.Push(
		llmtest.Turn{Blocks: []llm.ContentBlock{
			sleepCall("asked", "asked", 50, false), llmtest.ToolUse("free", "Fail", `{"message":"ran"}`),
		}},
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("done")}},
	)
	prompter := &slowAnswer{delay: 300 * time.Millisecond}
	var mu sync.Mutex
	started := map[string]time.Time{}
	res := h.agent(t, func(o *agent.Options) {
		o.Prompter = prompter
		o.Permissions = &permission.Context{Mode: permission.ModeDefault, Ask: []permission.Rule{{Tool: "Sleep"}}}
		o.OnEvent = func(e agent.Event) {
			if s, ok := e.(agent.ToolStarted); ok {
				mu.Lock()
				defer mu.Unlock()
				started[s.ID] = time.Now()
			}
		}
	}).Run(context.Background(), "sleep and fail")
	if res.Outcome != agent.Completed {
		t.Fatalf("outcome %v: %v", res.Outcome, res.Err)
	}
	results := h.results(t, 1)
	if len(results) != 2 || results[0].ToolUseID != "asked" || results[1].ToolUseID != "free" {
		t.Fatalf("results %+v, want asked then free", results)
	}
	if results[0].IsError || !strings.Contains(resultText(results[1]), "ran") {
		t.Errorf("results %q / %q, want the allowed sleep and the failure", resultText(results[0]), resultText(results[1]))
	}
	mu.Lock()
	defer mu.Unlock()
	if started["free"].IsZero() || started["asked"].IsZero() {
		t.Fatalf("started events %v, want both calls", started)
	}
	if started["free"].Before(prompter.answered) {
		t.Errorf("the free call started %v before the answer to the other call's prompt", prompter.answered.Sub(started["free"]))
	}
	sleepStart, _ := span(t, results[0])
	if time.Unix(0, sleepStart).Before(prompter.answered) {
		t.Errorf("the asked call started before its answer")
	}
}

package agent_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
	"github.com/mini-claude/mini-claude/internal/permission"
)

// answeringWith answers every question with answer.
type answeringWith struct{ answer permission.Answer }

func (a answeringWith) Ask(context.Context, permission.Prompt) (permission.Answer, error) {
	return a.answer, nil
}

func TestAnAnswerMayRewriteTheInputRefuseOrEndTheTurn(t *testing.T) {
	tests := []struct {
		name     string
		answer   permission.Answer
		made     string
		result   string
		outcome  agent.Outcome
		requests int
	}{
		{"updatedInput replaces the input", permission.Answer{Allow: true, UpdatedInput: json.RawMessage(`{"path":"rewritten"}`)},
			"rewritten", "Created ", agent.Completed, 2},
		{"an invalid updatedInput refuses the call", permission.Answer{Allow: true, UpdatedInput: json.RawMessage(`{"path":42}`)},
			"", "The permission answer for Touch gave an input that failed schema validation: ", agent.Completed, 2},
		{"a refusal's message reaches the model", permission.Answer{Message: "No writing in this test."},
			"", "No writing in this test.", agent.Completed, 2},
		{"interrupt ends the turn", permission.Answer{Message: "Stop", Interrupt: true},
			"", "The user doesn't want to proceed with this tool use.", agent.Failed, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			h.srv.Push(touchTurn("t1", "made"), llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("done")}})
			a := h.agent(t, func(o *agent.Options) { o.Prompter = answeringWith{tt.answer} })
			res := a.Run(context.Background(), "touch it")
			if res.Outcome != tt.outcome || len(h.srv.Requests()) != tt.requests {
				t.Fatalf("outcome %v after %d requests, want %v after %d", res.Outcome, len(h.srv.Requests()), tt.outcome, tt.requests)
			}
			if got := resultText(a.Messages()[2].Content[0]); !strings.HasPrefix(got, tt.result) {
				t.Errorf("tool_result %q, want it to start with %q", got, tt.result)
			}
			for _, name := range []string{"made", "rewritten"} {
				if _, err := os.Stat(filepath.Join(h.cwd, name)); (err == nil) != (name == tt.made) {
					t.Errorf("%s exists: %v, want %v", name, err == nil, name == tt.made)
				}
			}
		})
	}
}

package agent_test

import (
	"context"
	"testing"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools/web"
)

type askInput struct {
	Question string `json:"question" jsonschema_description:"what to ask the small model"`
}

// asker is a tool that asks the session's side model, as WebFetch does.
var asker = tool.MustBuild(tool.Def[askInput, string]{
	Name: "Ask", Description: "asks the small model", MaxResultSizeChars: 1000,
	IsReadOnly: tool.Always[askInput], IsConcurrencySafe: tool.Always[askInput],
	Call: func(ctx context.Context, in askInput, env *tool.Env, _ tool.Progress) (string, error) {
		config, model, ok := web.Of(env.Session)
		if !ok {
			return "no side model", nil
		}
		reply, err := model.Ask(ctx, llm.Request{Model: config.SmallModel, Messages: []llm.Message{llm.UserText(in.Question)}, NoCache: true})
		return reply.Text(), err
	},
})

// TestSideRequestsAreChargedToTheRun proves that a tool's side request goes
// to the session's client with the small model, its answer reaching the
// tool, and that its usage is counted in the run under that model.
func TestSideRequestsAreChargedToTheRun(t *testing.T) {
	h := newHarness(t)
	h.srv.Route(llmtest.FirstUserText("side question"), llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("side answer")},
		Usage: llm.Usage{InputTokens: 1000, OutputTokens: 10}})
	h.srv.Push(
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("a1", "Ask", `{"question":"side question"}`)}},
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("ok")}},
	)
	res := h.agent(t, func(o *agent.Options) {
		o.Tools = []tool.Tool{asker}
		o.AttachSideModel = func(s *tool.Session, m tool.SideModel) { web.Attach(s, web.Config{SmallModel: "claude-haiku-4-5"}, m) }
	}).Run(context.Background(), "ask it")
	if got := resultText(h.results(t, 2)[0]); got != "side answer" {
		t.Fatalf("tool result %q", got)
	}
	if req := h.srv.Requests()[1]; req.Model != "claude-haiku-4-5" || len(req.Tools) != 0 || req.System != "" {
		t.Errorf("side request: model %q, %d tools, system %q", req.Model, len(req.Tools), req.System)
	}
	side := res.ModelUsage["claude-haiku-4-5"]
	if side.Usage.InputTokens != 1000 || side.CostUSD <= 0 || res.CostUSD <= side.CostUSD {
		t.Errorf("model usage %+v, cost %v", res.ModelUsage, res.CostUSD)
	}
}

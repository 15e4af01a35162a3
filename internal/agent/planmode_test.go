package agent_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
	"github.com/mini-claude/mini-claude/internal/permission"
	"github.com/mini-claude/mini-claude/internal/planmode"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools/askuserquestion"
	"github.com/mini-claude/mini-claude/internal/tools/exitplanmode"
	"github.com/mini-claude/mini-claude/internal/tools/write"
)

// scriptedAsker answers each question with the answer for its tool and
// records what it was asked.
type scriptedAsker struct {
	mu      sync.Mutex
	answers map[string]permission.Answer
	asked   []permission.Prompt
}

func (s *scriptedAsker) Ask(_ context.Context, p permission.Prompt) (permission.Answer, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.asked = append(s.asked, p)
	return s.answers[p.Tool], nil
}

func planAgent(t *testing.T, h *harness, asker permission.Prompter, noUser bool) (*agent.Agent, *permission.Context, string) {
	t.Helper()
	perm := &permission.Context{Mode: permission.ModePlan, Dirs: []string{h.cwd}}
	s := tool.NewSession(h.cwd)
	plans := t.TempDir()
	planmode.Attach(s, plans)
	a := h.agent(t, func(o *agent.Options) {
		o.Tools = []tool.Tool{askuserquestion.Tool, exitplanmode.Tool, write.Tool}
		o.Permissions, o.Prompter, o.NoUserInteraction = perm, asker, noUser
		o.Env.Session = s
	})
	return a, perm, plans
}

func TestApprovedPlanWithAcceptEditsLetsTheEditsRunWithoutAsking(t *testing.T) {
	h := newHarness(t)
	h.srv.ServeFunc(func(req llmtest.Request) llmtest.Turn {
		switch req.AssistantTurns() {
		case 0:
			plan := regexpPlanFile(t, req)
			return llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("w1", "Write", `{"file_path":"`+plan+`","content":"# Plan\n"}`)}}
		case 1:
			return llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("x1", "ExitPlanMode", `{}`)}}
		case 2:
			return llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("w2", "Write", `{"file_path":"`+filepath.Join(h.cwd, "b.txt")+`","content":"b\n"}`)}}
		}
		return llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("done")}}
	})
	asker := &scriptedAsker{answers: map[string]permission.Answer{"ExitPlanMode": {Allow: true, Mode: permission.ModeAcceptEdits}}}
	a, perm, _ := planAgent(t, h, asker, false)
	a.Run(context.Background(), "Plan the change")
	if len(asker.asked) != 1 || asker.asked[0].Tool != "ExitPlanMode" {
		t.Fatalf("asked %+v, want only ExitPlanMode", asker.asked)
	}
	var in struct{ Plan, PlanFilePath string }
	if err := json.Unmarshal(asker.asked[0].Input, &in); err != nil || in.Plan != "# Plan\n" || in.PlanFilePath == "" {
		t.Errorf("the question's input %s does not carry the plan (%v)", asker.asked[0].Input, err)
	}
	if got, _ := lastResultText(t, h, 2); !strings.HasPrefix(got, "User has approved your plan.") || !strings.Contains(got, "## Exited Plan Mode") {
		t.Errorf("ExitPlanMode result %q", got)
	}
	if data, err := os.ReadFile(filepath.Join(h.cwd, "b.txt")); err != nil || string(data) != "b\n" {
		t.Errorf("b.txt = %q, %v: the edit after approval did not run", data, err)
	}
	if perm.Mode != permission.ModeAcceptEdits {
		t.Errorf("mode after the run = %s, want acceptEdits", perm.Mode)
	}
	var changed []permission.Mode
	for _, e := range h.events {
		if m, ok := e.(agent.ModeChanged); ok {
			changed = append(changed, m.Mode)
		}
	}
	if len(changed) != 1 || changed[0] != permission.ModeAcceptEdits {
		t.Errorf("ModeChanged events %v", changed)
	}
}

// regexpPlanFile finds the plan file the reminder of the first request names.
func regexpPlanFile(t *testing.T, req llmtest.Request) string {
	t.Helper()
	text := req.Messages[0].Text()
	_, rest, ok := strings.Cut(text, "You should create your plan at ")
	path, _, ok2 := strings.Cut(rest, " using the Write tool.")
	if !ok || !ok2 {
		t.Fatalf("the first request has no plan-mode reminder: %q", text)
	}
	return path
}

func TestRejectedPlanKeepsPlanModeAndTellsTheModelWhy(t *testing.T) {
	h := newHarness(t)
	h.srv.Push(llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("x1", "ExitPlanMode", `{}`)}},
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("w1", "Write", `{"file_path":"`+filepath.Join(h.cwd, "b.txt")+`","content":"b"}`)}},
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("ok")}})
	feedback := "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). To tell you how to proceed, the user said:\nAlso create c.txt"
	asker := &scriptedAsker{answers: map[string]permission.Answer{"ExitPlanMode": {Message: feedback}}}
	a, perm, _ := planAgent(t, h, asker, false)
	a.Run(context.Background(), "Plan it")
	if got, isErr := lastResultText(t, h, 1); got != feedback || !isErr {
		t.Errorf("result %q (error %v), want the feedback", got, isErr)
	}
	if got, _ := lastResultText(t, h, 2); !strings.HasPrefix(got, "Cannot write to ") || !strings.HasSuffix(got, " while in plan mode.") {
		t.Errorf("write after the rejection: %q, want plan mode's refusal", got)
	}
	if perm.Mode != permission.ModePlan {
		t.Errorf("mode = %s, want plan", perm.Mode)
	}
}

func TestAskUserQuestionRunsWithTheAnswersOfTheAsker(t *testing.T) {
	h := newHarness(t)
	q := `{"questions":[{"question":"Which database?","header":"Database","multiSelect":false,"options":[{"label":"SQLite","description":"A file"},{"label":"Postgres","description":"A server"}]}]}`
	h.srv.Push(llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("q1", "AskUserQuestion", q)}}, llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("ok")}})
	answered := strings.TrimSuffix(q, "}") + `,"answers":{"Which database?":"MySQL please"}}`
	asker := &scriptedAsker{answers: map[string]permission.Answer{"AskUserQuestion": {Allow: true, UpdatedInput: json.RawMessage(answered)}}}
	a, _, _ := planAgent(t, h, asker, false)
	a.Run(context.Background(), "Plan it")
	want := `The user answered: "Which database?"="MySQL please". Read the answers carefully — they may request clarification, changes, or that you not proceed — and follow what they actually say.`
	if got, _ := lastResultText(t, h, 1); got != want {
		t.Errorf("result %q, want %q", got, want)
	}
}

func TestWithoutAnyoneToAnswerTheQuestionsAreWithheld(t *testing.T) {
	h := newHarness(t)
	h.srv.Push(llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("x1", "ExitPlanMode", `{}`)}}, llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("ok")}})
	a, perm, _ := planAgent(t, h, permission.NeverAsk{}, true)
	a.Run(context.Background(), "Plan it")
	first := h.srv.Requests()[0]
	for _, spec := range first.Tools {
		if spec.Name == "ExitPlanMode" || spec.Name == "AskUserQuestion" {
			t.Errorf("%s offered with nobody to answer it", spec.Name)
		}
	}
	if !strings.Contains(first.Messages[0].Text(), "Plan mode is active.") {
		t.Error("the prompt does not tell the model that plan mode is active")
	}
	want := "<tool_use_error>Error: No such tool available: ExitPlanMode. ExitPlanMode is disabled for this session, in subagents as well as here.</tool_use_error>"
	if got, _ := lastResultText(t, h, 1); got != want {
		t.Errorf("result %q, want %q", got, want)
	}
	if perm.Mode != permission.ModePlan {
		t.Errorf("mode = %s, want plan", perm.Mode)
	}
}

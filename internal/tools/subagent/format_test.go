package subagent

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/goldenfile"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/render"
	"github.com/mini-claude/mini-claude/internal/tool"
)

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	goldenfile.Check(t, path, got)
}

func TestFormats(t *testing.T) {
	req := tool.SubAgentRequest{AgentID: "a0123456789abcdef", Description: "Find the parser", ToolUseID: "toolu_01"}
	report := tool.SubAgentReport{Text: "The parser is in /src/parse.go.\n\nIt has two entry points.", ContextTokens: 1234, ToolUses: 3, Duration: 1500 * time.Millisecond}
	completed := Output{Status: "completed", AgentID: req.AgentID, Content: []llm.ContentBlock{llm.TextBlock(report.Text)},
		TotalTokens: 1234, TotalToolUseCount: 3, TotalDurationMs: 1500}
	isolated := completed
	isolated.WorktreePath, isolated.WorktreeBranch = "/repo/.mini-claude/worktrees/agent-a0123456789abcdef", "worktree-agent-a0123456789abcdef"
	keptReport := report
	keptReport.WorktreePath, keptReport.WorktreeBranch = isolated.WorktreePath, isolated.WorktreeBranch
	tests := []struct {
		name string
		text string
	}{
		{"foreground_result", content(completed)[0].Text},
		{"empty_report", content(Output{Status: "completed", AgentID: req.AgentID})[0].Text},
		{"background_launched", content(Output{Status: "async_launched", AgentID: req.AgentID})[0].Text},
		{"notice_completed", notice(req, report, nil)},
		{"foreground_result_worktree", content(isolated)[0].Text},
		{"notice_worktree", notice(req, keptReport, nil)},
		{"notice_failed", notice(req, tool.SubAgentReport{Duration: time.Second}, errors.New("context canceled"))},
		{"description", description([]Type{GeneralPurpose, {Name: "reader", Description: "Reads.", Tools: []string{"Read", "Grep"}}, {Name: "thinker", Description: "Thinks.", Tools: []string{}}})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { golden(t, tt.name, tt.text) })
	}
}

func TestDescribeListsTheTypes(t *testing.T) {
	pool := Describe([]tool.Tool{Tool}, []Type{GeneralPurpose, {Name: "reader", Description: "Reads.", Tools: []string{"Read"}}})
	if !strings.Contains(pool[0].Spec().Description, "\n- reader: Reads. (Tools: Read)") || !pool[0].MatchesName("Task") {
		t.Errorf("described tool: %q", pool[0].Spec().Description)
	}
	if strings.Contains(Tool.Description(), "reader") {
		t.Error("Describe changed the built-in tool")
	}
	input := json.RawMessage(`{"description":"Find the parser","prompt":"Look"}`)
	if got, want := render.Of(pool[0]).RenderUse(input, false), render.Of(Tool).RenderUse(input, false); got != want || got == render.Generic().RenderUse(input, false) {
		t.Errorf("the described tool draws its use as %q, want the tool's own %q", got, want)
	}
}

type fakeRunner struct{ got chan tool.SubAgentRequest }

func (f fakeRunner) RunAgent(ctx context.Context, req tool.SubAgentRequest) (tool.SubAgentReport, error) {
	f.got <- req
	if req.Prompt == "fail" {
		return tool.SubAgentReport{}, errors.New("the model is unavailable")
	}
	return tool.SubAgentReport{Text: "done: " + req.Prompt, Model: "m"}, nil
}

func TestCall(t *testing.T) {
	tests := []struct {
		name     string
		attach   bool
		input    string
		wantText string
		wantErr  string
		wantType string
	}{
		{"no runner", false, `{"description":"d","prompt":"p"}`, "", "sub-agents cannot be started in this session", ""},
		{"unknown type", true, `{"description":"d","prompt":"p","subagent_type":"wizard"}`, "", `agent type "wizard" not found. Available agent types: general-purpose, reader.`, ""},
		{"empty prompt", true, `{"description":"d","prompt":"  "}`, "", "prompt is empty", ""},
		{"default type", true, `{"description":"d","prompt":"p"}`, "\n  done: p\nagentId: a", "", "general-purpose"},
		{"named type, any case", true, `{"description":"d","prompt":"p","subagent_type":"Reader"}`, "\n  done: p\nagentId: a", "", "reader"},
		{"failed run", true, `{"description":"d","prompt":"fail"}`, "", `the sub-agent "d" stopped before finishing: the model is unavailable`, "general-purpose"},
		{"background", true, `{"description":"d","prompt":"p","run_in_background":true}`, "Async agent launched successfully.", "", "general-purpose"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			session := tool.NewSession(t.TempDir())
			defer session.Close()
			runner := fakeRunner{got: make(chan tool.SubAgentRequest, 1)}
			if tt.attach {
				Attach(session, []Type{GeneralPurpose, {Name: "reader", Description: "Reads.", Tools: []string{"Read"}}}, runner)
			}
			c, err := Tool.Parse([]byte(tt.input))
			if err != nil {
				t.Fatal(err)
			}
			env := &tool.Env{Cwd: session.Cwd(), Session: session, ToolUseID: "toolu_x"}
			err = c.Validate(context.Background(), env)
			var res tool.Result
			if err == nil {
				res, err = c.Run(context.Background(), env, nil)
			}
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
			} else if err != nil || !strings.Contains(res.Content[0].Text, tt.wantText) {
				t.Fatalf("result %+v, error %v, want text containing %q", res, err, tt.wantText)
			}
			if tt.wantType != "" {
				select {
				case req := <-runner.got:
					if req.Type != tt.wantType || req.ToolUseID != "toolu_x" || len(req.AgentID) != 17 {
						t.Errorf("request %+v", req)
					}
				case <-time.After(5 * time.Second):
					t.Fatal("the runner was not asked")
				}
			}
		})
	}
}

func TestBackgroundNoticeAndWait(t *testing.T) {
	session := tool.NewSession(t.TempDir())
	defer session.Close()
	release := make(chan struct{})
	Attach(session, []Type{GeneralPurpose}, blockingRunner{release})
	c, _ := Tool.Parse([]byte(`{"description":"Slow","prompt":"p","run_in_background":true}`))
	if _, err := c.Run(context.Background(), &tool.Env{Session: session, ToolUseID: "t1"}, nil); err != nil {
		t.Fatal(err)
	}
	if Running(session) != 1 || Launched(session) != 1 || len(session.TakeNotices()) != 0 {
		t.Fatal("the background agent is not counted as running")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := WaitAny(ctx, session); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("WaitAny returned %v while the agent runs", err)
	}
	close(release)
	if err := WaitAny(context.Background(), session); err != nil {
		t.Fatal(err)
	}
	notices := session.TakeNotices()
	if Running(session) != 0 || len(notices) != 1 || !strings.Contains(notices[0], "<summary>Agent \"Slow\" finished</summary>\n<result>released</result>") {
		t.Fatalf("running %d, notices %q", Running(session), notices)
	}
	if err := WaitAny(context.Background(), session); err != nil {
		t.Fatal("WaitAny blocked with no agent running")
	}
}

type blockingRunner struct{ release chan struct{} }

func (b blockingRunner) RunAgent(ctx context.Context, _ tool.SubAgentRequest) (tool.SubAgentReport, error) {
	select {
	case <-b.release:
		return tool.SubAgentReport{Text: "released"}, nil
	case <-ctx.Done():
		return tool.SubAgentReport{}, ctx.Err()
	}
}

func TestNoBackgroundAgentStartsOnAClosedSession(t *testing.T) {
	session := tool.NewSession(t.TempDir())
	Attach(session, []Type{GeneralPurpose}, blockingRunner{make(chan struct{})})
	Launched(session)
	session.Close()
	c, _ := Tool.Parse([]byte(`{"description":"Late","prompt":"p","run_in_background":true}`))
	_, err := c.Run(context.Background(), &tool.Env{Session: session}, nil)
	if err == nil || !strings.Contains(err.Error(), "the session is ending") || Running(session) != 0 {
		t.Fatalf("error %v with %d running, want a refusal", err, Running(session))
	}
}

package agent_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
	"github.com/mini-claude/mini-claude/internal/permission"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools/bash"
	"github.com/mini-claude/mini-claude/internal/tools/edit"
	"github.com/mini-claude/mini-claude/internal/tools/read"
	"github.com/mini-claude/mini-claude/internal/tools/subagent"
	"github.com/mini-claude/mini-claude/internal/tools/testtools"
)

var agentTypes = []subagent.Type{
	subagent.GeneralPurpose,
	{Name: "reader", Description: "Reads files.", Tools: []string{"Read"}, Prompt: "You only read."},
	{Name: "lead", Description: "Delegates.", Tools: []string{"Agent", "Sleep"}, Prompt: "You lead."},
}

// withSubAgents gives the agent the Agent tool, the test tools, Read and Bash.
func withSubAgents(opts *agent.Options) {
	opts.Tools = append(testtools.All(), read.Tool, bash.Tool, subagent.Tool)
	opts.SubAgents = &agent.SubAgents{
		Attach: func(s *tool.Session, r tool.SubAgentRunner) { subagent.Attach(s, agentTypes, r) },
		System: func(req tool.SubAgentRequest, model string, _ []string) string { return req.Role + " Model: " + model },
	}
}

func agentCall(id, description, prompt, extra string) llm.ContentBlock {
	return llmtest.ToolUse(id, "Agent", fmt.Sprintf(`{"description":%q,"prompt":%q%s}`, description, prompt, extra))
}

func turn(blocks ...llm.ContentBlock) llmtest.Turn { return llmtest.Turn{Blocks: blocks} }

// conversation returns the requests of the conversation that started with
// prompt, and with i assistant messages in its history.
func conversation(t *testing.T, srv *llmtest.Server, prompt string, i int) llmtest.Request {
	t.Helper()
	match := llmtest.FirstUserText(prompt)
	for _, r := range srv.Requests() {
		if match(r) && r.AssistantTurns() == i {
			return r
		}
	}
	t.Fatalf("no request of the conversation %q with %d assistant messages", prompt, i)
	return llmtest.Request{}
}

func lastContent(r llmtest.Request) []llm.ContentBlock {
	return r.Messages[len(r.Messages)-1].Content
}

func TestParallelSubAgentsOverlapAndChargeTheParent(t *testing.T) {
	h := newHarness(t)
	h.srv.Route(llmtest.FirstUserText("parent task"),
		turn(agentCall("a1", "Alpha work", "task alpha", ""), agentCall("a2", "Beta work", "task beta", "")),
		turn(llmtest.Text("both reported")))
	for _, name := range []string{"alpha", "beta"} {
		h.srv.Route(llmtest.FirstUserText("task "+name),
			turn(sleepCall("s-"+name, name, 400, false)),
			turn(llmtest.Text(name+" report")))
	}
	res := h.agent(t, withSubAgents).Run(context.Background(), "parent task")
	if res.Outcome != agent.Completed || res.Text != "both reported" {
		t.Fatalf("result %+v", res)
	}
	var latestStart, earliestEnd int64 = 0, 1 << 62
	for _, name := range []string{"alpha", "beta"} {
		req := conversation(t, h.srv, "task "+name, 1)
		start, end := span(t, lastContent(req)[0])
		latestStart, earliestEnd = max(latestStart, start), min(earliestEnd, end)
		if req.System != subagent.GeneralPurpose.Prompt+" Model: claude-opus-5-5" {
			t.Errorf("sub-agent %s system prompt %q", name, req.System)
		}
		for _, spec := range req.Tools {
			if spec.Name == "Agent" {
				t.Errorf("the general-purpose sub-agent %s was offered the Agent tool", name)
			}
		}
	}
	if latestStart >= earliestEnd {
		t.Errorf("the sub-agents' tool runs did not overlap: latest start %d, earliest end %d", latestStart, earliestEnd)
	}
	results := lastContent(conversation(t, h.srv, "parent task", 1))
	for i, name := range []string{"alpha", "beta"} {
		text := resultText(results[i])
		if results[i].IsError || !strings.Contains(text, "\n  "+name+" report\nagentId: a") || !strings.Contains(text, "tool_uses: 1") {
			t.Errorf("result %d = %q, want %s's indented report, agent id and one tool use", i, text, name)
		}
	}
	// Six requests of 100 in / 50 out: two of the parent's, two of each sub-agent.
	all := llm.Usage{InputTokens: 600, OutputTokens: 300}
	if res.Usage != (llm.Usage{InputTokens: 200, OutputTokens: 100}) || res.ModelUsage["claude-opus-5-5"].Usage != all {
		t.Errorf("usage %+v, model usage %+v: want the parent's own, and everything per model", res.Usage, res.ModelUsage)
	}
	if want := llm.Cost("claude-opus-5-5", all); fmt.Sprintf("%.6f", res.CostUSD) != fmt.Sprintf("%.6f", want) {
		t.Errorf("cost %v, want %v with the sub-agents'", res.CostUSD, want)
	}
}

func TestSubAgentEventsReachTheParent(t *testing.T) {
	h := newHarness(t)
	h.srv.Route(llmtest.FirstUserText("parent"), turn(agentCall("a1", "Say hi", "task hi", "")), turn(llmtest.Text("ok")))
	h.srv.Route(llmtest.FirstUserText("task hi"), turn(llmtest.Text("hi")))
	h.agent(t, withSubAgents).Run(context.Background(), "parent")
	var started agent.SubAgentStarted
	var forwarded []string
	var finished agent.SubAgentFinished
	for _, e := range h.events {
		switch e := e.(type) {
		case agent.SubAgentStarted:
			started = e
		case agent.SubAgentEvent:
			if e.AgentID != started.AgentID || e.ParentToolUseID != "a1" {
				t.Errorf("forwarded event with ids %s/%s, want %s/a1", e.AgentID, e.ParentToolUseID, started.AgentID)
			}
			forwarded = append(forwarded, fmt.Sprintf("%T", e.Event))
		case agent.SubAgentFinished:
			finished = e
		}
	}
	if started.ParentToolUseID != "a1" || started.Type != "general-purpose" || started.Prompt != "task hi" || started.Model != "claude-opus-5-5" {
		t.Errorf("started = %+v", started)
	}
	if !strings.Contains(strings.Join(forwarded, " "), "agent.UserMessage agent.TextDelta") || !strings.Contains(strings.Join(forwarded, " "), "agent.AssistantMessage") {
		t.Errorf("forwarded %v, want the prompt, deltas and the assistant message", forwarded)
	}
	if finished.AgentID != started.AgentID || finished.Result.Text != "hi" || finished.ContextTokens != 150 {
		t.Errorf("finished = %+v", finished)
	}
}

func TestRestrictedSubAgentCannotUseOtherTools(t *testing.T) {
	h := newHarness(t)
	h.srv.Route(llmtest.FirstUserText("parent"),
		turn(agentCall("a1", "Read only", "task read", `,"subagent_type":"reader"`)), turn(llmtest.Text("ok")))
	h.srv.Route(llmtest.FirstUserText("task read"),
		turn(llmtest.ToolUse("b1", "Bash", `{"command":"touch hacked"}`)), turn(llmtest.Text("could not run Bash")))
	res := h.agent(t, withSubAgents).Run(context.Background(), "parent")
	if res.Outcome != agent.Completed {
		t.Fatalf("result %+v", res)
	}
	first := conversation(t, h.srv, "task read", 0)
	if len(first.Tools) != 1 || first.Tools[0].Name != "Read" || first.System != "You only read. Model: claude-opus-5-5" {
		t.Errorf("reader offered %v with system %q, want only Read and its type's prompt", first.Tools, first.System)
	}
	got := lastContent(conversation(t, h.srv, "task read", 1))[0]
	if !got.IsError || !strings.Contains(resultText(got), "No such tool available: Bash. The available tools are: Read.") {
		t.Errorf("Bash in the reader = %q (error %v), want no such tool", resultText(got), got.IsError)
	}
	if _, err := os.Stat(filepath.Join(h.cwd, "hacked")); err == nil {
		t.Error("the restricted sub-agent ran Bash")
	}
}

func TestUnknownAgentTypeListsTheTypes(t *testing.T) {
	h := newHarness(t)
	h.srv.Route(llmtest.FirstUserText("parent"),
		turn(agentCall("a1", "Nope", "task nope", `,"subagent_type":"wizard"`)), turn(llmtest.Text("ok")))
	h.agent(t, withSubAgents).Run(context.Background(), "parent")
	got := lastContent(conversation(t, h.srv, "parent", 1))[0]
	if !got.IsError || !strings.Contains(resultText(got), `agent type "wizard" not found. Available agent types: general-purpose, reader, lead`) {
		t.Errorf("result = %q (error %v)", resultText(got), got.IsError)
	}
}

func TestNestingStopsAtMaxDepth(t *testing.T) {
	h := newHarness(t)
	h.srv.Route(llmtest.FirstUserText("parent"),
		turn(agentCall("a1", "Lead", "task lead", `,"subagent_type":"lead"`)), turn(llmtest.Text("ok")))
	h.srv.Route(llmtest.FirstUserText("task lead"),
		turn(agentCall("a2", "Helper", "task helper", `,"subagent_type":"lead"`)), turn(llmtest.Text("lead done")))
	h.srv.Route(llmtest.FirstUserText("task helper"), turn(llmtest.Text("helper done")))
	res := h.agent(t, withSubAgents).Run(context.Background(), "parent")
	if res.Outcome != agent.Completed {
		t.Fatalf("result %+v", res)
	}
	names := func(r llmtest.Request) string {
		var n []string
		for _, s := range r.Tools {
			n = append(n, s.Name)
		}
		return strings.Join(n, ",")
	}
	if got := names(conversation(t, h.srv, "task lead", 0)); got != "Sleep,Agent" {
		t.Errorf("depth 1 lead offered %s, want Sleep,Agent", got)
	}
	if got := names(conversation(t, h.srv, "task helper", 0)); got != "Sleep" {
		t.Errorf("depth 2 helper offered %s, want Sleep: no Agent at the depth limit", got)
	}
	if !strings.Contains(resultText(lastContent(conversation(t, h.srv, "task lead", 1))[0]), "  helper done") {
		t.Error("the nested report did not reach the lead")
	}
	if got := res.ModelUsage["claude-opus-5-5"].Usage.InputTokens; got != 500 {
		t.Errorf("input tokens per model %d, want 500: the nested sub-agent's usage reaches the top", got)
	}
}

func TestBackgroundSubAgentReportsInALaterRequest(t *testing.T) {
	h := newHarness(t)
	// The agent's report is held until the parent's request after the launch
	// has arrived, so it ends while the parent sleeps, between that request
	// and the next.
	launchRequested := make(chan struct{})
	var once sync.Once
	parent := llmtest.FirstUserText("parent")
	h.srv.Route(func(r llmtest.Request) bool {
		if parent(r) && r.AssistantTurns() == 1 {
			once.Do(func() { close(launchRequested) })
		}
		return parent(r)
	},
		turn(agentCall("bg", "Gamma work", "task gamma", `,"run_in_background":true`)),
		turn(sleepCall("wait", "wait", 600, false)),
		turn(llmtest.Text("all done")))
	h.srv.Route(llmtest.FirstUserText("task gamma"),
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("gamma report")}, Gate: launchRequested})
	res := h.agent(t, withSubAgents).Run(context.Background(), "parent")
	if res.Outcome != agent.Completed || res.Text != "all done" {
		t.Fatalf("result %+v", res)
	}
	launched := lastContent(conversation(t, h.srv, "parent", 1))
	if len(launched) != 1 || launched[0].IsError || !strings.HasPrefix(resultText(launched[0]), "Async agent launched successfully.\nagentId: a") {
		t.Fatalf("launch result %+v, want the launch notice alone", launched)
	}
	later := lastContent(conversation(t, h.srv, "parent", 2))
	if len(later) != 2 || !strings.Contains(later[1].Text, "<tool-use-id>bg</tool-use-id>\n<status>completed</status>") ||
		!strings.Contains(later[1].Text, "<result>gamma report</result>") {
		t.Fatalf("later request ends with %+v, want the Sleep result then the notice", later)
	}
	if got := res.ModelUsage["claude-opus-5-5"].Usage.InputTokens; got != 400 {
		t.Errorf("input tokens per model %d, want 400 with the background agent's", got)
	}
}

func TestNoticesAfterTheTurnRunANewTurn(t *testing.T) {
	h := newHarness(t)
	h.srv.Route(llmtest.FirstUserText("parent"),
		turn(agentCall("bg", "Slow work", "task slow", `,"run_in_background":true`)),
		turn(llmtest.Text("started it")),
		turn(llmtest.Text("slow work reported")))
	h.srv.Route(llmtest.FirstUserText("task slow"), turn(sleepCall("s", "slow", 300, false)), turn(llmtest.Text("slow report")))
	state := tool.NewSession(h.cwd)
	defer state.Close()
	a := h.agent(t, func(o *agent.Options) { withSubAgents(o); o.Env.Session = state })
	if res := a.Run(context.Background(), "parent"); res.Text != "started it" {
		t.Fatalf("first run %+v", res)
	}
	if _, ran := a.RunNotices(context.Background()); ran {
		t.Fatal("RunNotices ran with no notice queued")
	}
	if err := subagent.WaitAny(context.Background(), state); err != nil || subagent.Running(state) != 0 {
		t.Fatalf("wait: %v, %d running", err, subagent.Running(state))
	}
	res, ran := a.RunNotices(context.Background())
	if !ran || res.Text != "slow work reported" {
		t.Fatalf("notice run %v: %+v", ran, res)
	}
	last := lastContent(conversation(t, h.srv, "parent", 2))
	if len(last) != 1 || !strings.HasPrefix(last[0].Text, "<system-reminder>\nA background agent you started has ended.") {
		t.Errorf("notice message %+v", last)
	}
	if got := res.ModelUsage["claude-opus-5-5"].Usage.InputTokens; got != 300 {
		t.Errorf("the notice run charged %d input tokens, want 300: its own and the background agent's", got)
	}
}

func TestClosingTheSessionStopsBackgroundAgents(t *testing.T) {
	h := newHarness(t)
	h.srv.Route(llmtest.FirstUserText("parent"),
		turn(agentCall("bg", "Endless", "task endless", `,"run_in_background":true`)), turn(llmtest.Text("left it running")))
	h.srv.Route(llmtest.FirstUserText("task endless"), turn(sleepCall("s", "long", 60_000, false)), turn(llmtest.Text("never")))
	state := tool.NewSession(h.cwd)
	a := h.agent(t, func(o *agent.Options) { withSubAgents(o); o.Env.Session = state })
	a.Run(context.Background(), "parent")
	deadline := time.Now().Add(5 * time.Second)
	for len(conversation0(h.srv, "task endless")) == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond)
	start := time.Now()
	state.Close()
	if took := time.Since(start); took > 5*time.Second || subagent.Running(state) != 0 {
		t.Fatalf("close took %v with %d agents running", took, subagent.Running(state))
	}
	notices := strings.Join(state.TakeNotices(), "\n")
	if !strings.Contains(notices, "<status>failed</status>") {
		t.Errorf("notice after close %q, want a failed agent", notices)
	}
}

// conversation0 returns the requests that started with prompt, without failing.
func conversation0(srv *llmtest.Server, prompt string) []llmtest.Request {
	var out []llmtest.Request
	for _, r := range srv.Requests() {
		if llmtest.FirstUserText(prompt)(r) {
			out = append(out, r)
		}
	}
	return out
}

func TestSubAgentsUseTheParentsPermissions(t *testing.T) {
	tests := []struct {
		name     string
		perm     permission.Context
		wantFile bool
		wantText string
	}{
		{"plan mode refuses the sub-agent's writes", permission.Context{Mode: permission.ModePlan}, false, "plan mode only allows read-only tools"},
		{"the parent's allow rule covers the sub-agent", permission.Context{Mode: permission.ModeDefault, Allow: []permission.Rule{{Tool: "Touch"}}}, true, "Created"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			h.srv.Route(llmtest.FirstUserText("parent"), turn(agentCall("a1", "Write", "task write", "")), turn(llmtest.Text("ok")))
			h.srv.Route(llmtest.FirstUserText("task write"),
				turn(llmtest.ToolUse("t1", "Touch", `{"path":"made.txt"}`)), turn(llmtest.Text("tried")))
			res := h.agent(t, func(o *agent.Options) { withSubAgents(o); o.Permissions = &tt.perm }).Run(context.Background(), "parent")
			if res.Outcome != agent.Completed {
				t.Fatalf("result %+v", res)
			}
			got := lastContent(conversation(t, h.srv, "task write", 1))[0]
			if !strings.Contains(resultText(got), tt.wantText) {
				t.Errorf("Touch in the sub-agent = %q, want %q", resultText(got), tt.wantText)
			}
			if _, err := os.Stat(filepath.Join(h.cwd, "made.txt")); (err == nil) != tt.wantFile {
				t.Errorf("file made: %v, want %v", err == nil, tt.wantFile)
			}
		})
	}
}

func TestASubAgentsCommandsGetTheParentsPassEnv(t *testing.T) {
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-secret")
	t.Setenv("OPENAI_API_KEY", "sk-oai-passed")
	h := newHarness(t)
	h.srv.Route(llmtest.FirstUserText("parent"), turn(agentCall("a1", "Env", "task env", "")), turn(llmtest.Text("ok")))
	h.srv.Route(llmtest.FirstUserText("task env"),
		turn(llmtest.ToolUse("b1", "Bash", `{"command":"echo \"[$ANTHROPIC_API_KEY] [$OPENAI_API_KEY]\""}`)), turn(llmtest.Text("shown")))
	res := h.agent(t, func(o *agent.Options) {
		withSubAgents(o)
		o.Permissions = &permission.Context{Mode: permission.ModeDefault, Allow: []permission.Rule{{Tool: "Bash"}}}
		o.Env.PassEnv = []string{"OPENAI_API_KEY"}
	}).Run(context.Background(), "parent")
	if res.Outcome != agent.Completed {
		t.Fatalf("result %+v", res)
	}
	if got := resultText(lastContent(conversation(t, h.srv, "task env", 1))[0]); got != "[] [sk-oai-passed]" {
		t.Errorf("the sub-agent's command saw %q, want only the passed key", got)
	}
}

func TestInterruptingTheParentStopsItsSubAgent(t *testing.T) {
	h := newHarness(t)
	h.srv.Route(llmtest.FirstUserText("parent"), turn(agentCall("a1", "Long", "task long", "")), turn(llmtest.Text("never")))
	h.srv.Route(llmtest.FirstUserText("task long"), turn(sleepCall("s", "long", 60_000, false)), turn(llmtest.Text("never")))
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for len(conversation0(h.srv, "task long")) == 0 {
			time.Sleep(10 * time.Millisecond)
		}
		time.Sleep(100 * time.Millisecond)
		cancel()
	}()
	start := time.Now()
	a := h.agent(t, withSubAgents)
	res := a.Run(ctx, "parent")
	if res.Outcome != agent.Interrupted || time.Since(start) > 10*time.Second {
		t.Fatalf("outcome %v after %v, want interrupted at once", res.Outcome, time.Since(start))
	}
	msgs := a.Messages()
	last := msgs[len(msgs)-1].Content
	if len(last) != 1 || last[0].ToolUseID != "a1" || !last[0].IsError {
		t.Errorf("the conversation ends with %+v, want the Agent call answered as interrupted", last)
	}
}

// TestASubAgentMayEditWhatItsParentRead: as in Claude Code, a sub-agent's
// session starts with a copy of the parent's record of the files read, so
// it can Edit a file the parent read without reading it again.
func TestASubAgentMayEditWhatItsParentRead(t *testing.T) {
	h := newHarness(t)
	path := filepath.Join(h.cwd, "notes.txt")
	if err := os.WriteFile(path, []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h.srv.Route(llmtest.FirstUserText("parent"),
		turn(llmtest.ToolUse("r1", "Read", fmt.Sprintf(`{"file_path":%q}`, path))),
		turn(agentCall("a1", "Fix notes", "task edit", "")),
		turn(llmtest.Text("done")))
	h.srv.Route(llmtest.FirstUserText("task edit"),
		turn(llmtest.ToolUse("e1", "Edit", fmt.Sprintf(`{"file_path":%q,"old_string":"two","new_string":"TWO"}`, path))),
		turn(llmtest.Text("edited")))
	res := h.agent(t, func(o *agent.Options) {
		withSubAgents(o)
		o.Tools = append(o.Tools, edit.Tool)
		dir, err := filepath.EvalSymlinks(h.cwd)
		if err != nil {
			t.Fatal(err)
		}
		o.Permissions = &permission.Context{Mode: permission.ModeAcceptEdits, Dirs: []string{dir}}
	}).Run(context.Background(), "parent")
	if res.Outcome != agent.Completed {
		t.Fatalf("result %+v", res)
	}
	if edited := lastContent(conversation(t, h.srv, "task edit", 1)); len(edited) != 1 || edited[0].IsError {
		t.Fatalf("the sub-agent's Edit got %+v, want it applied", edited)
	}
	if data, _ := os.ReadFile(path); string(data) != "one\nTWO\n" {
		t.Errorf("the file holds %q after the sub-agent's Edit", data)
	}
}

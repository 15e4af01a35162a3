package tui

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools/bash"
	"github.com/mini-claude/mini-claude/internal/tools/read"
	"github.com/mini-claude/mini-claude/internal/tools/subagent"
)

// agentModel is a test model whose pool has the Agent, Read and Bash tools.
func agentModel(t *testing.T) *model {
	m := testModel(t, Options{})
	m.render = &renderer{tools: toolLookup(func() []tool.Tool { return []tool.Tool{subagent.Tool, read.Tool, bash.Tool} })}
	return m
}

func send(m *model, events ...agent.Event) {
	for _, e := range events {
		m.Update(eventMsg{e})
	}
}

// startAgent runs an Agent call id whose sub-agent agentID starts.
func startAgent(m *model, id, agentID, description string, background bool) {
	input := json.RawMessage(fmt.Sprintf(`{"description":%q,"prompt":"do it","run_in_background":%t}`, description, background))
	send(m, agent.ToolQueued{ID: id, Name: "Agent", Input: input}, agent.ToolStarted{ID: id, Name: "Agent"})
	if background {
		finishAgentCall(m, id, subagent.Output{Status: "async_launched", AgentID: agentID})
		// The finished call is drawn, and cached, before its agent's first event.
		screenOf(m)
	}
	send(m, agent.SubAgentStarted{AgentID: agentID, ParentToolUseID: id, Type: "general-purpose", Description: description, Background: background})
}

func finishAgentCall(m *model, id string, out subagent.Output) {
	result := llm.ToolResultBlock(id, []llm.ContentBlock{llm.TextBlock("report")}, false)
	send(m, agent.ToolFinished{ID: id, Name: "Agent", Result: result, Output: out})
}

// subCall is a sub-agent's call that ran to its end.
func subCall(agentID, parent, id, name, input string) []agent.Event {
	wrap := func(e agent.Event) agent.Event {
		return agent.SubAgentEvent{AgentID: agentID, ParentToolUseID: parent, Event: e}
	}
	result := llm.ToolResultBlock(id, []llm.ContentBlock{llm.TextBlock("ok")}, false)
	return []agent.Event{
		wrap(agent.ToolQueued{ID: id, Name: name, Input: json.RawMessage(input)}),
		wrap(agent.ToolStarted{ID: id, Name: name}),
		wrap(agent.ToolFinished{ID: id, Name: name, Result: result}),
	}
}

func toggleFull(m *model) { m.Update(tea.KeyPressMsg{Code: 'o', Mod: tea.ModCtrl}) }

// linesBetween returns the screen's lines after the first holding from, up
// to the first after it holding to (or the end).
func linesBetween(screen, from, to string) string {
	lines := strings.Split(screen, "\n")
	start := -1
	for i, l := range lines {
		if start < 0 && strings.Contains(l, from) {
			start = i
			continue
		}
		if start >= 0 && to != "" && strings.Contains(l, to) {
			return strings.Join(lines[start+1:i], "\n")
		}
	}
	if start < 0 {
		return ""
	}
	return strings.Join(lines[start+1:], "\n")
}

func TestSubAgentToolUsesDrawUnderTheAgentCall(t *testing.T) {
	m := agentModel(t)
	startAgent(m, "a1", "ag1", "Survey the parser", false)
	if s := screenOf(m); !strings.Contains(linesBetween(s, "Agent(Survey the parser)", ""), "Initializing…") {
		t.Fatalf("a sub-agent without tool uses yet:\n%s", s)
	}
	for i, file := range []string{"a.go", "b.go", "c.go", "d.go"} {
		send(m, subCall("ag1", "a1", fmt.Sprint("r", i), "Read", fmt.Sprintf(`{"file_path":"/repo/%s"}`, file))...)
	}
	send(m, subCall("ag1", "a1", "b1", "Bash", `{"command":"go test ./parser"}`)...)
	under := linesBetween(screenOf(m), "Agent(Survey the parser)", "")
	for _, want := range []string{"Read(/repo/c.go)", "Read(/repo/d.go)", "Bash(go test ./parser)", "+2 more tool uses (ctrl+o to expand)"} {
		if !strings.Contains(under, want) {
			t.Errorf("the running Agent call does not show %q:\n%s", want, under)
		}
	}
	if strings.Contains(under, "Read(/repo/b.go)") {
		t.Errorf("the condensed call lists more than the 3 latest tool uses:\n%s", under)
	}
	toggleFull(m)
	if under := linesBetween(screenOf(m), "Agent(Survey the parser)", ""); !strings.Contains(under, "Read(/repo/a.go)") || strings.Contains(under, "more tool uses") {
		t.Errorf("the full view does not list every tool use:\n%s", under)
	}
	toggleFull(m)

	send(m, agent.SubAgentFinished{AgentID: "ag1", ParentToolUseID: "a1", ToolUses: 5, ContextTokens: 12_345,
		Result: agent.Result{Outcome: agent.Completed, Duration: 12_340 * time.Millisecond}})
	finishAgentCall(m, "a1", subagent.Output{Status: "completed", AgentID: "ag1", TotalToolUseCount: 5, TotalTokens: 12_345, TotalDurationMs: 12_340})
	s := screenOf(m)
	under = linesBetween(s, "Agent(Survey the parser)", "")
	if !strings.Contains(under, "Done (5 tool uses · 12.3k tokens · 12.3s)") || strings.Contains(under, "Read(") {
		t.Errorf("a finished Agent call, condensed, shows more or less than its Done line:\n%s", s)
	}
	if strings.Contains(s, "started") || strings.Contains(s, "finished") {
		t.Errorf("a foreground agent got lines of its own besides its call:\n%s", s)
	}
	toggleFull(m)
	if under := linesBetween(screenOf(m), "Agent(Survey the parser)", ""); !strings.Contains(under, "Read(/repo/a.go)") || !strings.Contains(under, "Done (5 tool uses") {
		t.Errorf("the full view of a finished call lists its tool uses and the Done line:\n%s", under)
	}
}

func TestParallelSubAgentsDrawUnderTheirOwnCalls(t *testing.T) {
	m := agentModel(t)
	startAgent(m, "a1", "ag1", "Survey alpha", false)
	startAgent(m, "a2", "ag2", "Survey beta", false)
	send(m, subCall("ag2", "a2", "r2", "Read", `{"file_path":"/repo/beta.go"}`)...)
	send(m, subCall("ag1", "a1", "r1", "Read", `{"file_path":"/repo/alpha.go"}`)...)
	send(m, subCall("ag1", "a1", "b1", "Bash", `{"command":"ls alpha"}`)...)
	s := screenOf(m)
	alpha, beta := linesBetween(s, "Agent(Survey alpha)", "Agent(Survey beta)"), linesBetween(s, "Agent(Survey beta)", "")
	if !strings.Contains(alpha, "Read(/repo/alpha.go)") || !strings.Contains(alpha, "Bash(ls alpha)") || strings.Contains(alpha, "beta.go") {
		t.Errorf("alpha's call shows:\n%s", alpha)
	}
	if !strings.Contains(beta, "Read(/repo/beta.go)") || strings.Contains(beta, "alpha") {
		t.Errorf("beta's call shows:\n%s", beta)
	}
}

func TestBackgroundSubAgentKeepsCountingUnderItsCall(t *testing.T) {
	m := agentModel(t)
	startAgent(m, "a1", "ag1", "Audit deps", true)
	send(m, subCall("ag1", "a1", "b1", "Bash", `{"command":"go list -m all"}`)...)
	m.Update(eventMsg{agent.TextDelta{Text: "The audit runs in the background."}})
	under := linesBetween(screenOf(m), "Agent(Audit deps)", "The audit runs")
	if !strings.Contains(under, "Backgrounded agent") || !strings.Contains(under, "Bash(go list -m all)") {
		t.Fatalf("the backgrounded call does not follow its agent:\n%s", screenOf(m))
	}
	for i := range 4 {
		send(m, subCall("ag1", "a1", fmt.Sprint("r", i), "Read", fmt.Sprintf(`{"file_path":"/repo/%d.go"}`, i))...)
	}
	if under := linesBetween(screenOf(m), "Agent(Audit deps)", "The audit runs"); !strings.Contains(under, "+2 more tool uses") {
		t.Errorf("the background agent's later tool uses are not counted:\n%s", under)
	}
	send(m, agent.SubAgentFinished{AgentID: "ag1", ParentToolUseID: "a1", Background: true, ToolUses: 5, ContextTokens: 900,
		Result: agent.Result{Outcome: agent.Completed, Duration: 2 * time.Second}})
	s := screenOf(m)
	if under := linesBetween(s, "Agent(Audit deps)", "The audit runs"); !strings.Contains(under, "Done (5 tool uses · 900 tokens · 2.0s)") {
		t.Errorf("the backgrounded call does not say its agent is done:\n%s", s)
	}
	if !strings.Contains(s, "Agent general-purpose: Audit deps finished · 5 tool uses · 2s") || !m.reportsPending {
		t.Errorf("the end of a background agent is not announced at the bottom, or its report not queued:\n%s", s)
	}
}

func TestSubAgentThatStopsShowsWhyUnderItsCall(t *testing.T) {
	m := agentModel(t)
	startAgent(m, "a1", "ag1", "Audit deps", true)
	send(m, subCall("ag1", "a1", "b1", "Bash", `{"command":"go list -m all"}`)...)
	send(m, agent.SubAgentFinished{AgentID: "ag1", ParentToolUseID: "a1", Background: true, ToolUses: 1,
		Result: agent.Result{Outcome: agent.Failed, Err: errors.New("the model API is down")}})
	s := screenOf(m)
	under := linesBetween(s, "Agent(Audit deps)", "Agent general-purpose")
	if !strings.Contains(under, "Bash(go list -m all)") || !strings.Contains(under, "Stopped: the model API is down") {
		t.Errorf("the call of a background agent that failed does not say why:\n%s", s)
	}
	if !strings.Contains(s, "Agent general-purpose: Audit deps stopped: the model API is down") {
		t.Errorf("the failure is not announced at the bottom:\n%s", s)
	}

	startAgent(m, "a2", "ag2", "Survey", false)
	send(m, subCall("ag2", "a2", "r1", "Read", `{"file_path":"/repo/a.go"}`)...)
	send(m, agent.SubAgentFinished{AgentID: "ag2", ParentToolUseID: "a2", Result: agent.Result{Outcome: agent.Interrupted}})
	interrupted := llm.ToolResultBlock("a2", []llm.ContentBlock{llm.TextBlock("[Request interrupted by user for tool use]")}, true)
	send(m, agent.ToolFinished{ID: "a2", Name: "Agent", Result: interrupted})
	if under := linesBetween(screenOf(m), "Agent(Survey)", ""); !strings.Contains(under, "Read(/repo/a.go)") || !strings.Contains(under, "Interrupted by the user") {
		t.Errorf("an interrupted foreground agent's call does not keep what it did:\n%s", under)
	}
}

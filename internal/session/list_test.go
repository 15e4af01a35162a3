package session

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/goldenfile"
	"github.com/mini-claude/mini-claude/internal/llm"
)

func TestListNewestFind(t *testing.T) {
	project := setup(t)
	if infos, err := List(project); err != nil || len(infos) != 0 {
		t.Fatalf("a project without sessions: %v, %v", infos, err)
	}
	if _, err := Newest(project); !errors.Is(err, ErrNotFound) {
		t.Errorf("Newest without sessions: %v", err)
	}
	older := conversation(t, Config{Project: project, ID: NewID()}, user(llm.TextBlock("fix the\n  parser")), assistant(llm.TextBlock("ok")))
	newer := conversation(t, Config{Project: project, ID: NewID()}, user(llm.TextBlock("write docs")), assistant(use("t1", "Read", `{}`)),
		user(result("t1", "x", false)))
	older.Close()
	newer.Close()
	past := time.Now().Add(-time.Hour)
	os.Chtimes(older.Path(), past, past)
	os.WriteFile(filepath.Join(Dir(project), "notes.jsonl"), []byte("{}\n"), 0o600)

	infos, err := List(project)
	if err != nil || len(infos) != 2 {
		t.Fatalf("List: %v, %+v", err, infos)
	}
	if infos[0].ID != newer.ID() || infos[0].FirstPrompt != "write docs" || infos[0].MessageCount != 3 {
		t.Errorf("first: %+v", infos[0])
	}
	if infos[1].ID != older.ID() || infos[1].FirstPrompt != "fix the parser" || infos[1].MessageCount != 2 || !infos[1].Modified.Equal(past) {
		t.Errorf("second: %+v", infos[1])
	}
	if n, err := Newest(project); err != nil || n.ID != newer.ID() {
		t.Errorf("Newest = %+v, %v", n, err)
	}
	if path, err := Find(project, older.ID()); err != nil || path != older.Path() {
		t.Errorf("Find = %s, %v", path, err)
	}
	other := t.TempDir()
	if _, err := Find(other, older.ID()); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), project) {
		t.Errorf("Find from another project: %v", err)
	}
	if _, err := Find(project, NewID()); !errors.Is(err, ErrNotFound) {
		t.Errorf("Find of an unknown id: %v", err)
	}
}

func TestValidID(t *testing.T) {
	for id, ok := range map[string]bool{
		"0b5a1c9e-3f2d-4e8a-9b7c-1d2e3f4a5b6c":          true,
		"0B5A1C9E-3F2D-4E8A-9B7C-1D2E3F4A5B6C":          true,
		"0b5a1c9e3f2d4e8a9b7c1d2e3f4a5b6c":              false,
		"{0b5a1c9e-3f2d-4e8a-9b7c-1d2e3f4a5b6c}":        false,
		"../0b5a1c9e-3f2d-4e8a-9b7c-1d2e3f4a5b6":        false,
		"urn:uuid:0b5a1c9e-3f2d-4e8a-9b7c-1d2e3f4a5b6c": false,
		"": false,
	} {
		if err := ValidID(id); (err == nil) != ok {
			t.Errorf("ValidID(%q) = %v", id, err)
		}
	}
}

func TestCompactedStartsTheHistoryAgain(t *testing.T) {
	project := setup(t)
	tr := conversation(t, Config{Project: project, ID: NewID()}, user(llm.TextBlock("task")), assistant(llm.TextBlock("long work")))
	summary := []llm.Message{user(llm.TextBlock("Summary: the task was …"))}
	if err := tr.Compacted(summary, map[string]any{"trigger": "auto", "preTokens": 160000}); err != nil {
		t.Fatal(err)
	}
	tr.OnEvent(agent.AssistantMessage{Message: assistant(llm.TextBlock("going on"))})
	if err := tr.AppendSystem("api_error", "the model was overloaded", nil); err != nil {
		t.Fatal(err)
	}
	tr.Close()
	loaded, err := Load(tr.Path())
	if err != nil {
		t.Fatal(err)
	}
	if len(loaded.Messages) != 2 || loaded.Messages[0].Text() != "Summary: the task was …" || loaded.Messages[1].Text() != "going on" {
		t.Fatalf("history after compaction: %s", mustJSON(loaded.Messages))
	}
	boundary := loaded.Lines[2]
	if boundary.Subtype != SubtypeCompactBoundary || boundary.ParentUUID != nil || boundary.LogicalParentUUID != loaded.Lines[1].UUID ||
		string(boundary.Metadata) != `{"preTokens":160000,"trigger":"auto"}` {
		t.Errorf("boundary line %+v", boundary)
	}
	if *loaded.Lines[3].ParentUUID != boundary.UUID || loaded.Lines[5].Subtype != "api_error" || len(loaded.Lines) != 6 {
		t.Errorf("lines after the boundary: %s", mustJSON(loaded.Lines[3:]))
	}
}

func TestChildTranscript(t *testing.T) {
	project := setup(t)
	parent := conversation(t, Config{Project: project, ID: NewID()}, user(llm.TextBlock("delegate")))
	child, err := parent.Child("a1b2c3", "toolu_agent")
	if err != nil {
		t.Fatal(err)
	}
	child.OnEvent(agent.UserMessage{Message: user(llm.TextBlock("search the repo"))})
	child.OnEvent(agent.AssistantMessage{Message: assistant(llm.TextBlock("found")), Model: "claude-haiku-4-5",
		Usage: llm.Usage{InputTokens: 2000, OutputTokens: 300}})
	child.Close()
	parent.Close()
	want := filepath.Join(Dir(project), parent.ID(), "subagents", "agent-a1b2c3.jsonl")
	if child.Path() != want {
		t.Fatalf("child at %s, want %s", child.Path(), want)
	}
	loaded, err := Load(child.Path())
	if err != nil || len(loaded.Lines) != 2 {
		t.Fatalf("%v, %d lines", err, len(loaded.Lines))
	}
	for _, line := range loaded.Lines {
		if !line.IsSidechain || line.AgentID != "a1b2c3" || line.ParentToolUseID != "toolu_agent" || line.SessionID != parent.ID() {
			t.Errorf("child line %+v", line)
		}
	}
	infos, _ := List(project)
	if len(infos) != 1 {
		t.Errorf("List counts the child as a session: %+v", infos)
	}
}

func TestCostReport(t *testing.T) {
	project := setup(t)
	cfg := Config{Project: project, ID: "0b5a1c9e-3f2d-4e8a-9b7c-1d2e3f4a5b6c"}
	tr := conversation(t, cfg, user(llm.TextBlock("go")), assistant(use("t1", "Read", `{}`)), user(result("t1", "x", false)))
	tr.OnEvent(agent.AssistantMessage{Message: assistant(llm.TextBlock("done")), Model: "claude-opus-4-5",
		Usage: llm.Usage{InputTokens: 12000, OutputTokens: 2500, CacheReadInputTokens: 40000, CacheCreationInputTokens: 8000}})
	child, _ := tr.Child("sub1", "toolu_1")
	child.OnEvent(agent.AssistantMessage{Message: assistant(llm.TextBlock("sub")), Model: "claude-haiku-4-5",
		Usage: llm.Usage{InputTokens: 3000, OutputTokens: 400}})
	child.OnEvent(agent.AssistantMessage{Message: assistant(llm.TextBlock("sub")), Model: "claude-haiku-4-5",
		Usage: llm.Usage{InputTokens: 3000, OutputTokens: 400}})
	child.Close()
	tr.Close()
	costs, err := CostsOf(tr.Path(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := costs.WriteReport(&out, cfg.ID); err != nil {
		t.Fatal(err)
	}
	golden(t, "cost.txt", out.Bytes())
	total := costs.Total()
	want := llm.Cost("claude-sonnet-4-5", llm.Usage{InputTokens: 1000, OutputTokens: 100}) +
		llm.Cost("claude-opus-4-5", llm.Usage{InputTokens: 12000, OutputTokens: 2500, CacheReadInputTokens: 40000, CacheCreationInputTokens: 8000}) +
		2*llm.Cost("claude-haiku-4-5", llm.Usage{InputTokens: 3000, OutputTokens: 400})
	if total.Requests != 4 || total.Usage.InputTokens != 19000 || abs(total.CostUSD-want) > 1e-12 {
		t.Errorf("total %+v, want cost %f", total, want)
	}

	var empty bytes.Buffer
	NewCosts(nil).WriteReport(&empty, cfg.ID)
	golden(t, "cost_empty.txt", empty.Bytes())
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567", -1500: "-1,500"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	goldenfile.Check(t, path, string(got))
}

func TestCostsCountAResponseSplitOverLinesOnce(t *testing.T) {
	project := setup(t)
	path := Path(project, NewID())
	os.MkdirAll(filepath.Dir(path), 0o700)
	block := `{"type":"assistant","uuid":"%s","message":{"id":"%s","role":"assistant","model":"claude-opus-4-5","content":[{"type":"text","text":"x"}],"usage":{"input_tokens":100,"output_tokens":10,"cache_creation_input_tokens":0,"cache_read_input_tokens":0}}}` + "\n"
	var data string
	for _, l := range [][2]string{{"u1", "msg_1"}, {"u2", "msg_1"}, {"u3", "msg_2"}, {"u4", ""}, {"u5", ""}} {
		data += fmt.Sprintf(block, l[0], l[1])
	}
	os.WriteFile(path, []byte(data), 0o600)
	costs, err := CostsOf(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if total := costs.Total(); total.Requests != 4 || total.Usage.InputTokens != 400 {
		t.Errorf("total %+v, want 4 responses of 100 input tokens", total)
	}
}

func TestSubAgentAndCompactionEvents(t *testing.T) {
	project := setup(t)
	tr, err := Create(Config{Project: project, ID: NewID(), Model: "claude-opus-4-5"})
	if err != nil {
		t.Fatal(err)
	}
	tr.OnEvent(agent.UserMessage{Message: user(llm.TextBlock("task"))})
	tr.OnEvent(agent.SubAgentStarted{AgentID: "a1", ParentToolUseID: "toolu_9", Model: "claude-haiku-4-5"})
	tr.OnEvent(agent.SubAgentEvent{AgentID: "a1", ParentToolUseID: "toolu_9", Event: agent.UserMessage{Message: user(llm.TextBlock("look"))}})
	tr.OnEvent(agent.SubAgentEvent{AgentID: "a1", ParentToolUseID: "toolu_9", Event: agent.SubAgentEvent{AgentID: "a2", ParentToolUseID: "toolu_10",
		Event: agent.AssistantMessage{Model: "claude-haiku-4-5", Message: assistant(llm.TextBlock("deeper")), Usage: llm.Usage{InputTokens: 10}}}})
	tr.OnEvent(agent.SubAgentEvent{AgentID: "a1", ParentToolUseID: "toolu_9", Event: agent.AssistantMessage{Model: "claude-haiku-4-5",
		Message: assistant(llm.TextBlock("found")), Usage: llm.Usage{InputTokens: 20}}})
	tr.OnEvent(agent.SubAgentFinished{AgentID: "a1", ParentToolUseID: "toolu_9"})
	tr.OnEvent(agent.Compacted{Trigger: agent.CompactAuto, PreTokens: 9000, PostTokens: 800, Message: user(llm.TextBlock("summary")),
		Usage: llm.Usage{InputTokens: 9000, OutputTokens: 500}})
	tr.Close()

	sub := filepath.Join(Dir(project), tr.ID(), "subagents")
	for name, want := range map[string]int{"agent-a1.jsonl": 2, "agent-a2.jsonl": 1} {
		loaded, err := Load(filepath.Join(sub, name))
		if err != nil || len(loaded.Lines) != want {
			t.Errorf("%s: %v, %d lines, want %d", name, err, len(loaded.Lines), want)
		}
	}
	loaded, _ := Load(tr.Path())
	if len(loaded.Messages) != 1 || loaded.Messages[0].Text() != "summary" || loaded.Lines[1].Subtype != SubtypeCompactBoundary {
		t.Fatalf("main transcript: %s", mustJSON(loaded.Lines))
	}
	costs, _ := CostsOf(tr.Path(), nil)
	var got []string
	for _, m := range costs.Models() {
		got = append(got, fmt.Sprintf("%s %d %d", m.Model, m.Requests, m.Usage.InputTokens))
	}
	if strings.Join(got, ", ") != "claude-opus-4-5 1 9000, claude-haiku-4-5 2 30" {
		t.Errorf("costs: %s", strings.Join(got, ", "))
	}
}

package agent_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
	"github.com/mini-claude/mini-claude/internal/permission"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools/todowrite"
	"github.com/mini-claude/mini-claude/internal/tools/write"
)

// summaryMarker is a phrase of the summarising request's prompt.
const summaryMarker = "Write that summary now."

func isSummaryRequest(req llmtest.Request) bool {
	return strings.Contains(req.Messages[len(req.Messages)-1].Text(), summaryMarker)
}

func compactEvents[E agent.Event](h *harness) []E {
	h.mu.Lock()
	defer h.mu.Unlock()
	var found []E
	for _, e := range h.events {
		if e, ok := e.(E); ok {
			found = append(found, e)
		}
	}
	return found
}

const memoryText = "# Memory files\n\n<memory path=\"/proj/CLAUDE.md\">\nAlways run make check before committing.\n</memory>"

func TestCompactionKeepsTaskRequestTodosAndEditedFiles(t *testing.T) {
	h := newHarness(t)
	const threshold = 3000
	widget, readme := filepath.Join(h.cwd, "widget.go"), filepath.Join(h.cwd, "README.md")
	todos := `{"todos":[{"content":"Write widget.go","status":"completed","activeForm":"Writing widget.go"},` +
		`{"content":"Write the README","status":"in_progress","activeForm":"Writing the README"},` +
		`{"content":"Make the tests pass","status":"pending","activeForm":"Making the tests pass"}]}`
	h.srv.Push(
		llmtest.Turn{Blocks: []llm.ContentBlock{
			llmtest.ToolUse("todo1", "TodoWrite", todos),
			llmtest.ToolUse("w1", "Write", fmt.Sprintf(`{"file_path":%q,"content":"package widget\n"}`, widget)),
		}},
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("widget.go is written.")}},
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("w2", "Write", `{"file_path":"README.md","content":"# Widget\n"}`)},
			Usage: llm.Usage{InputTokens: 1200, OutputTokens: 40}},
		// 9,000 characters of output take the next request over the threshold.
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("p1", "Print", `{"chars":9000}`)}, Usage: llm.Usage{InputTokens: 200, CacheReadInputTokens: 1100, OutputTokens: 40}},
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("<summary>\nThe widget package exists; the README is being written.\n</summary>")},
			Usage: llm.Usage{InputTokens: 4100, OutputTokens: 300}},
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("All done.")}},
	)
	a := h.agent(t, func(o *agent.Options) {
		o.Tools = []tool.Tool{printer(100_000), todowrite.Tool, write.Tool}
		o.Permissions = &permission.Context{Mode: permission.ModeBypassPermissions}
		o.CompactThreshold = threshold
		o.Memory = memoryText
	})
	const task, latest = "Build the widget library.", "Now add a README\nand make the tests pass."
	if res := a.Run(context.Background(), task); res.Outcome != agent.Completed {
		t.Fatalf("first run: %v %v", res.Outcome, res.Err)
	}
	res := a.Run(context.Background(), latest)
	if res.Outcome != agent.Completed || res.Text != "All done." {
		t.Fatalf("second run: %v %v %q", res.Outcome, res.Err, res.Text)
	}
	reqs := h.srv.Requests()
	if len(reqs) != 6 || !isSummaryRequest(reqs[4]) {
		t.Fatalf("%d requests, want 6 with the fifth asking for the summary", len(reqs))
	}
	if len(reqs[4].Tools) != 3 || reqs[4].System != "test system prompt" || len(reqs[4].Messages) != len(reqs[3].Messages)+2 {
		t.Errorf("summary request: %d tools, %d messages; want the session's tools and its whole history", len(reqs[4].Tools), len(reqs[4].Messages))
	}
	next := reqs[5]
	if len(next.Messages) != 1 || next.Messages[0].Role != llm.RoleUser {
		t.Fatalf("request after compaction holds %d messages, want the one compacted user message", len(next.Messages))
	}
	text := next.Messages[0].Text()
	for _, want := range []string{
		"<original-task>\n" + task + "\n</original-task>",
		"<latest-user-request>\n" + latest + "\n</latest-user-request>",
		"<todo-list>\n1. [completed] Write widget.go\n2. [in_progress] Write the README\n3. [pending] Make the tests pass\n</todo-list>",
		"<files-edited>\n" + widget + "\n" + readme + "\n</files-edited>",
		"<memory>\n" + memoryText + "\n</memory>",
		"<summary>\nThe widget package exists; the README is being written.\n</summary>",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("compacted message lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, strings.Repeat("x", 100)) {
		t.Error("the compacted message still holds the large tool result")
	}
	if tokens := len(next.Body) / 4; tokens >= threshold {
		t.Errorf("request after compaction is about %d tokens, want under the threshold %d", tokens, threshold)
	}
	compacted := compactEvents[agent.Compacted](h)
	if len(compacted) != 1 {
		t.Fatalf("%d Compacted events, want 1", len(compacted))
	}
	c := compacted[0]
	if c.Trigger != agent.CompactAuto || c.PreTokens <= threshold || c.PostTokens >= threshold || c.MessagesSummarized != 9 ||
		c.Usage.InputTokens != 4100 || c.Message.Text() != text || len(c.State.Section("todo-list")) != 3 {
		t.Errorf("Compacted event %+v", c)
	}
	if res.Usage.InputTokens != 1200+200+4100+llmtest.DefaultUsage.InputTokens {
		t.Errorf("run usage %+v, want the summary request counted", res.Usage)
	}
}

func TestOldResultsAreClearedBeforeAnySummary(t *testing.T) {
	h := newHarness(t)
	const turns = 7
	h.srv.ServeFunc(func(req llmtest.Request) llmtest.Turn {
		usage := llm.Usage{InputTokens: len(req.Body) / 4, OutputTokens: 20}
		if isSummaryRequest(req) || req.AssistantTurns() >= turns {
			return llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("finished")}, Usage: usage}
		}
		return llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("", "Print", `{"chars":12000}`)}, Usage: usage}
	})
	res := h.agent(t, func(o *agent.Options) {
		o.Tools = []tool.Tool{printer(100_000)}
		o.CompactThreshold = 11_000
	}).Run(context.Background(), "print a lot")
	if res.Outcome != agent.Completed {
		t.Fatalf("run: %v %v", res.Outcome, res.Err)
	}
	reqs := h.srv.Requests()
	for _, req := range reqs {
		if isSummaryRequest(req) {
			t.Fatal("a summary was asked for; clearing old results should have been enough")
		}
	}
	if n := len(compactEvents[agent.ResultsCleared](h)); n == 0 {
		t.Fatal("no ResultsCleared event")
	}
	last := reqs[len(reqs)-1]
	var full, cleared int
	for _, m := range last.Messages {
		for _, b := range m.Content {
			if b.Type != llm.BlockToolResult {
				continue
			}
			switch text := resultText(b); {
			case len(text) == 12000:
				full++
			case strings.HasPrefix(text, "[Old tool result cleared to save context: 12000 characters of Print output."):
				cleared++
			default:
				t.Errorf("unexpected result %.80q", text)
			}
		}
	}
	if full != 3 || cleared != turns-3 {
		t.Errorf("last request holds %d full and %d cleared results, want 3 and %d", full, cleared, turns-3)
	}
	if tokens := len(last.Body) / 4; tokens > 11_000 {
		t.Errorf("last request is about %d tokens, over the threshold", tokens)
	}
}

func TestManualCompactWithInstructions(t *testing.T) {
	h := newHarness(t)
	h.srv.Push(
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("Here is the plan.")}},
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("We planned the API.")}, Usage: llm.Usage{InputTokens: 70, OutputTokens: 9}},
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("Implementing.")}},
	)
	a := h.agent(t, func(o *agent.Options) { o.CompactThreshold = -1 })
	if err := a.Compact(context.Background(), ""); err == nil {
		t.Error("compacting an empty conversation succeeded")
	}
	a.Run(context.Background(), "plan the API")
	if err := a.Compact(context.Background(), "focus on the endpoints"); err != nil {
		t.Fatal(err)
	}
	if msgs := a.Messages(); len(msgs) != 1 || !strings.Contains(msgs[0].Text(), "We planned the API.") {
		t.Fatalf("history after Compact: %+v", msgs)
	}
	a.Run(context.Background(), "implement it")
	reqs := h.srv.Requests()
	if !strings.HasSuffix(reqs[1].Messages[len(reqs[1].Messages)-1].Text(), "focus on this:\nfocus on the endpoints") {
		t.Errorf("summary request does not carry the instructions: %q", reqs[1].Messages[len(reqs[1].Messages)-1].Text())
	}
	third := reqs[2].Messages
	if len(third) != 1 || len(third[0].Content) != 2 || !strings.Contains(third[0].Content[0].Text, "<original-task>\nplan the API\n</original-task>") || third[0].Content[1].Text != "implement it" {
		t.Errorf("request after manual compaction: %+v", third)
	}
	c := compactEvents[agent.Compacted](h)
	if len(c) != 1 || c[0].Trigger != agent.CompactManual || c[0].Usage.InputTokens != 70 {
		t.Errorf("Compacted events %+v, want one manual with the summary's usage", c)
	}
}

func TestFailedSummaryLeavesTheHistory(t *testing.T) {
	h := newHarness(t)
	h.srv.Push(
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("p1", "Print", `{"chars":10}`)}, Usage: llm.Usage{InputTokens: 5000}},
		llmtest.Turn{Faults: []llmtest.Fault{{Status: 400, Message: "prompt is too long"}}, Blocks: []llm.ContentBlock{llmtest.Text("done anyway")}},
	)
	res := h.agent(t, func(o *agent.Options) {
		o.Tools = []tool.Tool{printer(100)}
		o.CompactThreshold = 1000
	}).Run(context.Background(), "go")
	if res.Outcome != agent.Completed || res.Text != "done anyway" {
		t.Fatalf("run: %v %v %q", res.Outcome, res.Err, res.Text)
	}
	failed := compactEvents[agent.CompactionFailed](h)
	if len(failed) != 1 || !strings.Contains(failed[0].Err.Error(), "prompt is too long") {
		t.Fatalf("CompactionFailed events %+v", failed)
	}
	reqs := h.srv.Requests()
	if len(reqs) != 3 || !isSummaryRequest(reqs[1]) || len(reqs[2].Messages) != 3 {
		t.Errorf("%d requests; want the summary request refused, then the main request with the 3 messages of the history", len(reqs))
	}
}

func TestSummaryRefusedAsTooLargeIsRetriedWithResultsCleared(t *testing.T) {
	h := newHarness(t)
	h.srv.Push(
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("p1", "Print", `{"chars":5000}`)}, Usage: llm.Usage{InputTokens: 3000}},
		llmtest.Turn{Faults: []llmtest.Fault{{Status: 400, Message: "prompt is too long"}}, Blocks: []llm.ContentBlock{llmtest.Text("<summary>printed</summary>")}},
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("done")}},
	)
	res := h.agent(t, func(o *agent.Options) {
		o.Tools = []tool.Tool{printer(100_000)}
		o.CompactThreshold = 1000
	}).Run(context.Background(), "go")
	if res.Outcome != agent.Completed || res.Text != "done" {
		t.Fatalf("run: %v %v %q", res.Outcome, res.Err, res.Text)
	}
	reqs := h.srv.Requests()
	if len(reqs) != 4 || !isSummaryRequest(reqs[1]) || !isSummaryRequest(reqs[2]) {
		t.Fatalf("%d requests, want the main one, two summary requests and the main one", len(reqs))
	}
	first, retry := reqs[1].Messages[2].Content[0], reqs[2].Messages[2].Content[0]
	if len(resultText(first)) != 5000 || !strings.HasPrefix(resultText(retry), "[Old tool result cleared") {
		t.Errorf("first summary request's result %.40q, retry's %.40q; want the full result, then the placeholder", resultText(first), resultText(retry))
	}
	if c := compactEvents[agent.Compacted](h); len(c) != 1 || c[0].Summary != "printed" {
		t.Errorf("Compacted events %+v", c)
	}
}

func TestNoSummaryLoopWhenTheCarriedStateIsOverTheThreshold(t *testing.T) {
	h := newHarness(t)
	h.srv.Push(
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("p1", "Print", `{"chars":10}`)}, Usage: llm.Usage{InputTokens: 5000}},
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("<summary>s</summary>")}},
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("p2", "Print", `{"chars":10}`)}, Usage: llm.Usage{InputTokens: 5000}},
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("p3", "Print", `{"chars":10}`)}, Usage: llm.Usage{InputTokens: 5000}},
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("done")}},
	)
	res := h.agent(t, func(o *agent.Options) {
		o.Tools = []tool.Tool{printer(100)}
		o.CompactThreshold = 1000
		o.Memory = strings.Repeat("m", 8000)
	}).Run(context.Background(), "go")
	if res.Outcome != agent.Completed || res.Text != "done" {
		t.Fatalf("run: %v %v %q", res.Outcome, res.Err, res.Text)
	}
	if n := len(compactEvents[agent.Compacted](h)); n != 1 {
		t.Errorf("%d compactions, want 1: the memory alone is over the threshold, so more would free nothing", n)
	}
}

// roomProbe is a tool that reports the context room its call sees.
func roomProbe(seen *[]int) tool.Tool {
	return tool.MustBuild(tool.Def[printInput, string]{
		Name: "Room", Description: "reports the context room", MaxResultSizeChars: 1000,
		IsReadOnly: tool.Always[printInput], IsConcurrencySafe: tool.Never[printInput],
		Call: func(_ context.Context, _ printInput, env *tool.Env, _ tool.Progress) (string, error) {
			room, known := env.Session.ContextRoom()
			if !known {
				room = -1
			}
			*seen = append(*seen, room)
			return "ok", nil
		},
	})
}

// TestToolsSeeTheContextRoom checks the room the agent gives each batch of
// calls: 70% of what is left below the compaction threshold, as Claude Code
// sizes an allow_large read, shrinking as the history grows.
func TestToolsSeeTheContextRoom(t *testing.T) {
	h := newHarness(t)
	h.srv.Push(
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("r1", "Room", `{"chars":0}`)}, Usage: llm.Usage{InputTokens: 1000, OutputTokens: 10}},
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("r2", "Room", `{"chars":0}`)}, Usage: llm.Usage{InputTokens: 6000, OutputTokens: 10}},
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("done")}},
	)
	var seen []int
	a := h.agent(t, func(o *agent.Options) {
		o.Tools = []tool.Tool{roomProbe(&seen)}
		o.Permissions = &permission.Context{Mode: permission.ModeBypassPermissions}
		o.CompactThreshold = 20_000
	})
	if res := a.Run(context.Background(), "probe"); res.Outcome != agent.Completed {
		t.Fatalf("%v %v", res.Outcome, res.Err)
	}
	if len(seen) != 2 || seen[0] <= seen[1] || seen[0] > (20_000-1000)*7/10 || seen[0] < (20_000-1100)*7/10 || seen[1] > (20_000-6000)*7/10 {
		t.Errorf("rooms %v, want about %d then about %d", seen, (20_000-1000)*7/10, (20_000-6000)*7/10)
	}
}

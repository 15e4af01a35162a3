package agent_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
	"github.com/mini-claude/mini-claude/internal/permission"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools/testtools"
	"github.com/mini-claude/mini-claude/internal/tools/toolsearch"
)

// mcpLike returns n tools named like MCP tools, ten servers of n/10 tools,
// each with a schema of the size real MCP tools have.
func mcpLike(t testing.TB, n int) []tool.Tool {
	t.Helper()
	var ts []tool.Tool
	for i := range n {
		name := fmt.Sprintf("mcp__server%d__get_record_%03d", i%10, i)
		schema := fmt.Sprintf(`{"type":"object","properties":{"id":{"type":"string","description":"Identifier of record %d"},"fields":{"type":"array","items":{"type":"string"},"description":"Fields to return; all when empty"},"format":{"type":"string","enum":["json","text"]}},"required":["id"],"additionalProperties":false}`, i)
		tl, err := tool.BuildRaw(tool.Def[json.RawMessage, string]{
			Name: name, Description: fmt.Sprintf("Fetches one record of kind %d from server %d, with the fields asked for.", i, i%10),
			MaxResultSizeChars: 1000,
			IsReadOnly:         tool.Always[json.RawMessage],
			IsConcurrencySafe:  tool.Always[json.RawMessage],
			Call: func(_ context.Context, in json.RawMessage, _ *tool.Env, _ tool.Progress) (string, error) {
				return name + " got " + string(in), nil
			},
		}, json.RawMessage(schema))
		if err != nil {
			t.Fatal(err)
		}
		ts = append(ts, tl)
	}
	return ts
}

// rawTools returns the elements of the tools array of a request body, as sent.
func rawTools(t *testing.T, body []byte) []json.RawMessage {
	t.Helper()
	var req struct {
		Tools []json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	return req.Tools
}

// withoutBreakpoint removes the cache_control marker the Anthropic client puts
// on the last tool; it marks where a cached prefix ends and is not part of it.
func withoutBreakpoint(raw json.RawMessage) string {
	return strings.Replace(string(raw), `,"cache_control":{"type":"ephemeral"}`, "", 1)
}

// firstBodySize runs a one-turn conversation with pool and returns the size
// of the request body.
func firstBodySize(t *testing.T, pool []tool.Tool, policy toolsearch.Policy) int {
	h := newHarness(t)
	h.srv.Push(llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("ok")}})
	h.agent(t, func(o *agent.Options) { o.Tools, o.ToolSearch = pool, policy }).Run(context.Background(), "hi")
	return len(h.srv.Requests()[0].Body)
}

func TestTwoHundredDeferredToolsAreCheapAndLoadOnDemand(t *testing.T) {
	base := append(testtools.All(), toolsearch.Tool)
	generated := mcpLike(t, 200)
	pool := append(append([]tool.Tool{}, base...), generated...)
	always := toolsearch.Policy{Mode: toolsearch.Always}

	without := firstBodySize(t, base, always)
	deferred := firstBodySize(t, pool, always)
	inline := firstBodySize(t, pool, toolsearch.Policy{Mode: toolsearch.Never})
	// ToolSearch itself is part of the cost: without deferred tools it is not sent.
	cost := (deferred - without) / 4
	t.Logf("request body: %d bytes without the 200 tools, %d deferred (+%d tokens at 4 bytes a token), %d inline (+%d tokens)",
		without, deferred, cost, inline, (inline-without)/4)
	if cost >= 2000 {
		t.Errorf("200 deferred tools cost %d tokens of prompt, want < 2000", cost)
	}

	h := newHarness(t)
	target := "mcp__server7__get_record_137"
	h.srv.Push(
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("s1", "ToolSearch", `{"query":"select:`+target+`"}`)}},
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("c1", target, `{"id":"42"}`)}},
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("done")}},
	)
	res := h.agent(t, func(o *agent.Options) {
		o.Tools, o.ToolSearch, o.Permissions = pool, always, allowing(t, "mcp__server7")
	}).Run(context.Background(), "fetch record 42")
	if res.Outcome != agent.Completed {
		t.Fatalf("run ended %v: %v", res.Outcome, res.Err)
	}
	reqs := h.srv.Requests()
	first, second := rawTools(t, reqs[0].Body), rawTools(t, reqs[1].Body)
	if len(second) != len(first)+1 || !strings.Contains(string(second[len(second)-1]), `"name":"`+target+`"`) {
		t.Fatalf("second request has %d tools (first %d), last %s; want the loaded tool appended", len(second), len(first), second[len(second)-1])
	}
	for i := range first {
		if withoutBreakpoint(first[i]) != withoutBreakpoint(second[i]) {
			t.Errorf("tool %d changed between requests:\n%s\n%s", i, first[i], second[i])
		}
	}
	if reqs[0].System != reqs[1].System || !strings.Contains(reqs[0].System, "<available-deferred-tools>") || !strings.Contains(reqs[0].System, "\n"+target+"\n") {
		t.Errorf("system prompt changed or lacks the deferred names")
	}
	found := resultText(h.results(t, 1)[0])
	if !strings.HasPrefix(found, "<functions>\n<function>{\"description\":") || !strings.Contains(found, `"name":"`+target+`"`) {
		t.Errorf("ToolSearch result %q", found)
	}
	if got := h.results(t, 2)[0]; got.IsError || resultText(got) != target+` got {"id":"42"}` {
		t.Errorf("call of the loaded tool: %q (error %v)", resultText(got), got.IsError)
	}
}

func TestDeferredToolCanBeCalledWithoutLoading(t *testing.T) {
	h := newHarness(t)
	pool := append(append(testtools.All(), toolsearch.Tool), mcpLike(t, 3)...)
	h.srv.Push(
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("c1", "mcp__server1__get_record_001", `{"id":"7"}`)}},
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("done")}},
	)
	h.agent(t, func(o *agent.Options) {
		o.Tools, o.ToolSearch = pool, toolsearch.Policy{Mode: toolsearch.Always}
		o.Permissions = allowing(t, "mcp__server1")
	}).Run(context.Background(), "go")
	reqs := h.srv.Requests()
	for _, spec := range reqs[0].Tools {
		if strings.HasPrefix(spec.Name, "mcp__") {
			t.Errorf("deferred tool %s was sent", spec.Name)
		}
	}
	if got := h.results(t, 1)[0]; got.IsError || !bytes.Contains([]byte(resultText(got)), []byte(`got {"id":"7"}`)) {
		t.Errorf("direct call: %q (error %v)", resultText(got), got.IsError)
	}
}

// allowing is a permission context whose user allowed the given rules, as MCP
// tools need even when they are read-only.
func allowing(t *testing.T, rules ...string) *permission.Context {
	t.Helper()
	allow, errs := permission.ParseRuleList(rules, "test")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return &permission.Context{Mode: permission.ModeDefault, Allow: allow}
}

// TestMCPToolsAreDeferredAgainstTheModelsWindow offers 150 MCP tools, about
// 16,000 tokens of schemas: more than 10% of an unknown (local) model's
// 128,000-token window, less than 10% of Claude's 200,000.
func TestMCPToolsAreDeferredAgainstTheModelsWindow(t *testing.T) {
	pool := append(append(testtools.All(), toolsearch.Tool), mcpLike(t, 150)...)
	for _, tt := range []struct {
		model    string
		deferred bool
	}{
		{"claude-sonnet-4-5", false},
		{"qwen3-coder", true},
	} {
		h := newHarness(t)
		h.srv.Push(llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("ok")}})
		h.agent(t, func(o *agent.Options) { o.Model, o.Tools, o.ToolSearch = tt.model, pool, toolsearch.Policy{} }).Run(context.Background(), "hi")
		sent := len(h.srv.Requests()[0].Tools)
		if deferred := sent < len(pool)-1; deferred != tt.deferred {
			t.Errorf("%s: %d of %d tools sent, want deferred %v", tt.model, sent, len(pool), tt.deferred)
		}
	}
}

// TestASubAgentDefersToolsAsItsParentDoes: a sub-agent follows its parent's
// ToolSearch, MINI_CLAUDE_TOOL_SEARCH included.
func TestASubAgentDefersToolsAsItsParentDoes(t *testing.T) {
	h := newHarness(t)
	h.srv.Route(llmtest.FirstUserText("parent"), turn(agentCall("a1", "Look up", "task lookup", "")), turn(llmtest.Text("ok")))
	h.srv.Route(llmtest.FirstUserText("task lookup"), turn(llmtest.Text("found")))
	h.agent(t, func(o *agent.Options) {
		withSubAgents(o)
		o.Tools = append(append(o.Tools, toolsearch.Tool), mcpLike(t, 3)...)
		o.ToolSearch = toolsearch.Policy{Mode: toolsearch.Always}
	}).Run(context.Background(), "parent")
	for _, prompt := range []string{"parent", "task lookup"} {
		req := conversation(t, h.srv, prompt, 0)
		for _, spec := range req.Tools {
			if strings.HasPrefix(spec.Name, "mcp__") {
				t.Errorf("%q: deferred tool %s was sent", prompt, spec.Name)
			}
		}
		if !strings.Contains(req.System, "mcp__server1__get_record_001") {
			t.Errorf("%q: the system prompt does not list the deferred tools", prompt)
		}
	}
}

package anthropic

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

func TestTextTurn(t *testing.T) {
	srv := llmtest.New(t)
	const text = "Hello there, this answer is streamed in several chunks."
	srv.Push(llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text(text)},
		Usage: llm.Usage{InputTokens: 11, OutputTokens: 22, CacheCreationInputTokens: 33, CacheReadInputTokens: 44}})
	events, err := llmtest.Collect(context.Background(), newClient(t, srv), simpleRequest("hi"))
	if err != nil {
		t.Fatal(err)
	}
	var got strings.Builder
	deltas := 0
	for _, ev := range events[:len(events)-1] {
		d, ok := ev.(llm.TextDelta)
		if !ok {
			t.Fatalf("unexpected event %#v", ev)
		}
		got.WriteString(d.Text)
		deltas++
	}
	if got.String() != text || deltas < 3 {
		t.Errorf("text %q in %d deltas", got.String(), deltas)
	}
	want := llm.MessageEnd{
		Message:    llm.Message{Role: llm.RoleAssistant, Content: []llm.ContentBlock{llm.TextBlock(text)}},
		StopReason: llm.StopEndTurn,
		Usage:      llm.Usage{InputTokens: 11, OutputTokens: 22, CacheCreationInputTokens: 33, CacheReadInputTokens: 44},
		MessageID:  "msg_llmtest_001",
		RequestID:  "req_llmtest_001",
	}
	if end := llmtest.LastEnd(t, events); !reflect.DeepEqual(end, want) {
		t.Errorf("end = %+v\nwant %+v", end, want)
	}
	req := srv.Requests()[0]
	if req.Header.Get("x-api-key") != "test-key" || req.Header.Get("Authorization") != "" {
		t.Errorf("auth headers: x-api-key %q, authorization %q", req.Header.Get("x-api-key"), req.Header.Get("Authorization"))
	}
	if req.Model != "claude-test" || req.MaxTokens != 32000 || !req.Stream || req.Header.Get("anthropic-version") == "" {
		t.Errorf("request: model %q max_tokens %d stream %v version %q", req.Model, req.MaxTokens, req.Stream, req.Header.Get("anthropic-version"))
	}
}

func TestToolUseTurn(t *testing.T) {
	const input = `{"command":"go test ./... -run TestToolUseTurn","timeout":120000}`
	tests := []struct {
		name, input, want string
	}{
		{"split JSON", input, input},
		{"empty input", "", "{}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.New(t)
			srv.Push(llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("Running."), llmtest.ToolUse("toolu_7", "Bash", tt.input)}})
			events, err := llmtest.Collect(context.Background(), newClient(t, srv), simpleRequest("test it"))
			if err != nil {
				t.Fatal(err)
			}
			var kinds []string
			var partial strings.Builder
			for _, ev := range events {
				switch e := ev.(type) {
				case llm.ToolUseStart:
					kinds = append(kinds, "start:"+e.ID+":"+e.Name)
				case llm.ToolUseDelta:
					partial.WriteString(e.PartialJSON)
					if e.ID != "toolu_7" {
						t.Errorf("delta id %q", e.ID)
					}
				case llm.ToolUseEnd:
					kinds = append(kinds, "end:"+e.ID+":"+string(e.Input))
				}
			}
			wantKinds := []string{"start:toolu_7:Bash", "end:toolu_7:" + tt.want}
			if !reflect.DeepEqual(kinds, wantKinds) || partial.String() != tt.input {
				t.Errorf("tool events %q, partial %q", kinds, partial.String())
			}
			end := llmtest.LastEnd(t, events)
			uses := end.Message.ToolUses()
			if end.StopReason != llm.StopToolUse || len(uses) != 1 || string(uses[0].Input) != tt.want || end.Message.Text() != "Running." {
				t.Errorf("end = %+v", end)
			}
		})
	}
}

func TestThinkingRoundTrip(t *testing.T) {
	srv := llmtest.New(t)
	srv.Push(
		llmtest.Turn{Blocks: []llm.ContentBlock{
			llmtest.Thinking("I should list the files first.", "sig-EqQBCgIYAh"),
			llmtest.RedactedThinking("opaque-redacted"),
			llmtest.ToolUse("toolu_1", "Glob", `{"pattern":"*.go"}`),
		}},
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("done")}},
	)
	c := newClient(t, srv)
	req := simpleRequest("list")
	req.ThinkingBudget = 2048
	events, err := llmtest.Collect(context.Background(), c, req)
	if err != nil {
		t.Fatal(err)
	}
	var thinking strings.Builder
	for _, ev := range events {
		if d, ok := ev.(llm.ThinkingDelta); ok {
			thinking.WriteString(d.Thinking)
		}
	}
	first := llmtest.LastEnd(t, events).Message
	if thinking.String() != "I should list the files first." || first.Content[0].Signature != "sig-EqQBCgIYAh" || first.Content[1].Data != "opaque-redacted" {
		t.Fatalf("thinking %q, message %+v", thinking.String(), first)
	}
	req.Messages = append(req.Messages, first, llm.Message{Role: llm.RoleUser, Content: []llm.ContentBlock{
		llm.ToolResultBlock("toolu_1", []llm.ContentBlock{llm.TextBlock("a.go")}, false)}})
	if _, err := llmtest.Collect(context.Background(), c, req); err != nil {
		t.Fatal(err)
	}
	sent := srv.Requests()[1]
	if !reflect.DeepEqual(sent.Messages[1], first) {
		t.Errorf("assistant message sent back as %+v\nwant %+v", sent.Messages[1], first)
	}
	var body struct {
		Thinking json.RawMessage `json:"thinking"`
	}
	json.Unmarshal(sent.Body, &body)
	if string(body.Thinking) != `{"type":"enabled","budget_tokens":2048}` {
		t.Errorf("thinking param = %s", body.Thinking)
	}
}

func TestCacheControlPlacement(t *testing.T) {
	srv := llmtest.New(t)
	srv.Push(llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("ok")}})
	schema := `{"type":"object","properties":{"path":{"type":"string","description":"where"},"n":{"type":"integer","minimum":1}},"required":["path"],"additionalProperties":false,"$defs":{"x":{"type":"null"}}}`
	req := llm.Request{
		Model:  "claude-test",
		System: "You are a test.",
		Tools: []llm.ToolSpec{
			{Name: "A", Description: "a", InputSchema: json.RawMessage(schema)},
			{Name: "B", Description: "b", InputSchema: json.RawMessage(`{"type":"object"}`)},
			{Name: "C", Description: "c", InputSchema: json.RawMessage(`{"type":"object"}`)},
		},
		Messages: []llm.Message{
			llm.UserText("first"),
			{Role: llm.RoleAssistant, Content: []llm.ContentBlock{llm.TextBlock("calling"), {Type: llm.BlockToolUse, ID: "t1", Name: "A", Input: json.RawMessage(`{"path":"x"}`)}}},
			{Role: llm.RoleUser, Content: []llm.ContentBlock{llm.ToolResultBlock("t1", []llm.ContentBlock{llm.TextBlock("result")}, true), llm.TextBlock("and then")}},
		},
	}
	if _, err := llmtest.Collect(context.Background(), newClient(t, srv), req); err != nil {
		t.Fatal(err)
	}
	raw := srv.Requests()[0].Body
	var body struct {
		System []map[string]any `json:"system"`
		Tools  []struct {
			InputSchema  json.RawMessage `json:"input_schema"`
			CacheControl any             `json:"cache_control"`
		} `json:"tools"`
		Messages []struct {
			Content []map[string]any `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(raw, &body); err != nil {
		t.Fatal(err)
	}
	ephemeral := map[string]any{"type": "ephemeral"}
	if n := strings.Count(string(raw), `"cache_control"`); n != 3 {
		t.Errorf("%d cache_control markers, want 3:\n%s", n, raw)
	}
	if !reflect.DeepEqual(body.System[0]["cache_control"], ephemeral) {
		t.Errorf("system = %v", body.System)
	}
	if !reflect.DeepEqual(body.Tools[2].CacheControl, ephemeral) || string(body.Tools[0].InputSchema) != schema {
		t.Errorf("tools: last cache_control %v, first schema %s", body.Tools[2].CacheControl, body.Tools[0].InputSchema)
	}
	last := body.Messages[2].Content
	if !reflect.DeepEqual(last[1]["cache_control"], ephemeral) || last[0]["is_error"] != true {
		t.Errorf("last message = %v", last)
	}
}

// TestWebSearchTurn proves the round trip of the API's server-side web search:
// the request carries the web_search_20250305 tool with its domains and use
// limit and forces it, and the answer's server_tool_use and
// web_search_tool_result blocks reach the message, without a ToolUseStart
// the loop would take for a call of its own.
func TestWebSearchTurn(t *testing.T) {
	srv := llmtest.New(t)
	hits := []llm.SearchResult{{Title: "Go", URL: "https://go.dev/", EncryptedContent: "enc", PageAge: "2 days"}}
	srv.Push(llmtest.Turn{Blocks: []llm.ContentBlock{
		llmtest.ServerToolUse("", "web_search", `{"query":"golang generics"}`),
		llmtest.WebSearchResult("", hits...),
		llmtest.Text("Go has generics."),
	}})
	req := simpleRequest("Perform a web search for the query: golang generics")
	req.WebSearch = &llm.WebSearch{AllowedDomains: []string{"go.dev"}, MaxUses: 8}
	req.ToolChoice = "web_search"
	req.NoCache = true
	events, err := llmtest.Collect(context.Background(), newClient(t, srv), req)
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range events {
		if _, ok := ev.(llm.ToolUseStart); ok {
			t.Errorf("a server tool's call reached the loop as %#v", ev)
		}
	}
	want := []llm.ContentBlock{
		{Type: llm.BlockServerToolUse, ID: "srvtoolu_llmtest_0_0", Name: "web_search", Input: json.RawMessage(`{"query":"golang generics"}`)},
		{Type: llm.BlockWebSearchResult, ToolUseID: "srvtoolu_llmtest_0_0", SearchResults: hits},
		llm.TextBlock("Go has generics."),
	}
	if got := llmtest.LastEnd(t, events).Message.Content; !reflect.DeepEqual(got, want) {
		t.Errorf("content = %+v\nwant %+v", got, want)
	}
	sent := srv.Requests()[0]
	if len(sent.ServerTools) != 1 || string(sent.ServerTools[0]) != `{"max_uses":8,"allowed_domains":["go.dev"],"name":"web_search","type":"web_search_20250305"}` {
		t.Errorf("server tools = %s", sent.ServerTools)
	}
	if string(sent.ToolChoice) != `{"name":"web_search","type":"tool"}` {
		t.Errorf("tool_choice = %s", sent.ToolChoice)
	}
	if strings.Contains(string(sent.Body), "cache_control") {
		t.Errorf("a NoCache request carries cache breakpoints: %s", sent.Body)
	}
}

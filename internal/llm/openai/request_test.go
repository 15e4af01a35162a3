package openai

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/goldenfile"
	"github.com/mini-claude/mini-claude/internal/llm"
)

// TestRequestGolden checks the whole body of a conversation that has every
// kind of block: what a chat completions model reads.
func TestRequestGolden(t *testing.T) {
	png := &llm.ImageSource{Type: "base64", MediaType: "image/png", Data: "iVBORw0KGgo="}
	req := llm.Request{
		Model: "gpt-5", System: "You are a coding agent. Use <tools> & be brief.", MaxTokens: 4096,
		Tools: []llm.ToolSpec{
			{Name: "Read", Description: "Reads a file.", InputSchema: json.RawMessage(`{"type":"object","properties":{"file_path":{"type":"string"}},"required":["file_path"]}`)},
			{Name: "Nop"},
		},
		Messages: []llm.Message{
			{Role: llm.RoleUser, Content: []llm.ContentBlock{llm.TextBlock("What is in a.go and this screenshot?"), {Type: llm.BlockImage, Source: png}}},
			{Role: llm.RoleAssistant, Content: []llm.ContentBlock{
				{Type: llm.BlockThinking, Thinking: "Read both.", Signature: "sig"},
				llm.TextBlock("Reading."),
				{Type: llm.BlockToolUse, ID: "call_1", Name: "Read", Input: json.RawMessage(`{"file_path":"a.go"}`)},
				{Type: llm.BlockToolUse, ID: "call_2", Name: "Read", Input: json.RawMessage(`{"file_path":"shot.png"}`)},
			}},
			{Role: llm.RoleUser, Content: []llm.ContentBlock{
				llm.ToolResultBlock("call_1", []llm.ContentBlock{llm.TextBlock("package a"), llm.TextBlock("(1 line)")}, false),
				llm.ToolResultBlock("call_2", []llm.ContentBlock{{Type: llm.BlockImage, Source: png}}, false),
				llm.TextBlock("<system-reminder>A background task finished.</system-reminder>"),
			}},
			{Role: llm.RoleAssistant, Content: []llm.ContentBlock{{Type: llm.BlockToolUse, ID: "call_3", Name: "Nop"}}},
			{Role: llm.RoleUser, Content: []llm.ContentBlock{llm.ToolResultBlock("call_3", nil, true)}},
		},
	}
	body, err := buildBody(req)
	if err != nil {
		t.Fatal(err)
	}
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, body, "", "  "); err != nil {
		t.Fatal(err)
	}
	pretty.WriteByte('\n')
	golden := filepath.Join("testdata", "request.golden.json")
	goldenfile.Check(t, golden, pretty.String())
}

func TestBuildBodyErrors(t *testing.T) {
	tests := []struct {
		name string
		req  llm.Request
		want string
	}{
		{"no model", llm.Request{Messages: []llm.Message{llm.UserText("hi")}}, "no model"},
		{"invalid schema", llm.Request{Model: "m", Tools: []llm.ToolSpec{{Name: "T", InputSchema: json.RawMessage(`{`)}}}, `tool "T"`},
		{"invalid tool input", llm.Request{Model: "m", Messages: []llm.Message{{Role: llm.RoleAssistant, Content: []llm.ContentBlock{
			{Type: llm.BlockToolUse, ID: "c", Name: "T", Input: json.RawMessage(`{"a":`)}}}}}, "messages[0]: tool_use c: input is not valid JSON"},
		{"url image", llm.Request{Model: "m", Messages: []llm.Message{{Role: llm.RoleUser, Content: []llm.ContentBlock{
			{Type: llm.BlockImage, Source: &llm.ImageSource{Type: "url", Data: "https://x"}}}}}}, "only base64"},
		{"server web search", llm.Request{Model: "m", WebSearch: &llm.WebSearch{MaxUses: 8}}, "no server-side web search"},
	}
	for _, tt := range tests {
		if _, err := buildBody(tt.req); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want %q", tt.name, err, tt.want)
		}
	}
}

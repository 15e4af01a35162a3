package anthropic

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/llm"
)

func TestBuildParams(t *testing.T) {
	png := &llm.ImageSource{Type: "base64", MediaType: "image/png", Data: "iVBORw0KGgo="}
	tests := []struct {
		name    string
		req     llm.Request
		want    []string // substrings of the marshalled params
		wantErr string
	}{
		{name: "default model and max_tokens",
			req:  llm.Request{Messages: []llm.Message{llm.UserText("hi")}},
			want: []string{`"model":"` + llm.DefaultModel + `"`, `"max_tokens":32000`}},
		{name: "older model limit",
			req:  llm.Request{Model: "claude-3-5-haiku-latest", Messages: []llm.Message{llm.UserText("hi")}},
			want: []string{`"max_tokens":8192`}},
		{name: "explicit max_tokens",
			req:  llm.Request{Model: "m", MaxTokens: 500, Messages: []llm.Message{llm.UserText("hi")}},
			want: []string{`"max_tokens":500`}},
		{name: "empty text blocks dropped, images and errors kept",
			req: llm.Request{Model: "m", Messages: []llm.Message{
				{Role: llm.RoleUser, Content: []llm.ContentBlock{llm.TextBlock(""), llm.TextBlock("look"), {Type: llm.BlockImage, Source: png}}},
				{Role: llm.RoleAssistant, Content: []llm.ContentBlock{{Type: llm.BlockToolUse, ID: "t1", Name: "Shot"}}},
				{Role: llm.RoleUser, Content: []llm.ContentBlock{llm.ToolResultBlock("t1", []llm.ContentBlock{{Type: llm.BlockImage, Source: png}}, true)}},
			}},
			want: []string{`"content":[{"text":"look","type":"text"},{"source":{"data":"iVBORw0KGgo=","media_type":"image/png","type":"base64"},"type":"image"}]`,
				`"input":{}`, `"is_error":true`, `"content":[{"source":{"data":"iVBORw0KGgo="`}},
		{name: "tool without schema",
			req:  llm.Request{Model: "m", Tools: []llm.ToolSpec{{Name: "Nop"}}, Messages: []llm.Message{llm.UserText("hi")}},
			want: []string{`"input_schema":{"type":"object","properties":{}}`}},
		{name: "thinking budget above max_tokens",
			req:     llm.Request{Model: "m", MaxTokens: 1000, ThinkingBudget: 1000, Messages: []llm.Message{llm.UserText("hi")}},
			wantErr: "thinking budget 1000 must be below max_tokens 1000"},
		{name: "invalid tool_use input",
			req: llm.Request{Model: "m", Messages: []llm.Message{llm.UserText("hi"),
				{Role: llm.RoleAssistant, Content: []llm.ContentBlock{{Type: llm.BlockToolUse, ID: "t1", Name: "X", Input: json.RawMessage(`{"a":`)}}}}},
			wantErr: "messages[1]: content[0]: tool_use t1: input is not valid JSON"},
		{name: "invalid schema",
			req:     llm.Request{Model: "m", Tools: []llm.ToolSpec{{Name: "Bad", InputSchema: json.RawMessage(`{`)}}},
			wantErr: `tool "Bad": input schema is not valid JSON`},
		{name: "unknown role",
			req:     llm.Request{Model: "m", Messages: []llm.Message{{Role: "system", Content: []llm.ContentBlock{llm.TextBlock("x")}}}},
			wantErr: `unknown role "system"`},
		{name: "url image",
			req:     llm.Request{Model: "m", Messages: []llm.Message{{Role: llm.RoleUser, Content: []llm.ContentBlock{{Type: llm.BlockImage, Source: &llm.ImageSource{Type: "url"}}}}}},
			wantErr: "only base64 sources"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := buildParams(tt.req)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			b, err := json.Marshal(p)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(string(b), w) {
					t.Errorf("params lack %s:\n%s", w, b)
				}
			}
		})
	}
}

package agent

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools/bash"
	"github.com/mini-claude/mini-claude/internal/tools/edit"
	"github.com/mini-claude/mini-claude/internal/tools/read"
	"github.com/mini-claude/mini-claude/internal/tools/subagent"
	"github.com/mini-claude/mini-claude/internal/tools/write"
)

func TestHooksGetTheInputAsTheToolValidatedIt(t *testing.T) {
	raw, err := tool.BuildRaw(tool.Def[json.RawMessage, string]{Name: "mcp__srv__echo", Description: "Echoes.", MaxResultSizeChars: 100,
		Call: func(context.Context, json.RawMessage, *tool.Env, tool.Progress) (string, error) { return "", nil }}, json.RawMessage(`{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name       string
		tool       tool.Tool
		sent, want string
	}{
		{"keys in the schema's order, a default added", edit.Tool,
			`{"file_path":"/p/a.txt","new_string":"b","old_string":"a"}`,
			`{"file_path":"/p/a.txt","old_string":"a","new_string":"b","replace_all":false}`},
		{"a value given keeps its place", edit.Tool,
			`{"replace_all":true,"file_path":"/p/a.txt","old_string":"a","new_string":"b"}`,
			`{"file_path":"/p/a.txt","old_string":"a","new_string":"b","replace_all":true}`},
		{"an explicit false stays", subagent.Tool,
			`{"run_in_background":false,"description":"Read","prompt":"p","subagent_type":"general-purpose"}`,
			`{"description":"Read","prompt":"p","subagent_type":"general-purpose","run_in_background":false}`},
		{"a coerced value as the tool read it", bash.Tool,
			`{"timeout":"5000","command":"ls"}`,
			`{"command":"ls","timeout":5000}`},
		{"a schema given as JSON keeps the input as sent", raw,
			`{"b":1,"a":2}`,
			`{"b":1,"a":2}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			call, err := tt.tool.Parse(json.RawMessage(tt.sent))
			if err != nil {
				t.Fatal(err)
			}
			if got := string(validatedInput(tt.tool, call.Input(), json.RawMessage(tt.sent))); got != tt.want {
				t.Errorf("tool_input = %s, want %s", got, tt.want)
			}
		})
	}
}

func TestPostToolBatchGetsTheInputAsClaudeCodeKeepsItInTheMessage(t *testing.T) {
	tests := []struct {
		name       string
		tool       tool.Tool
		sent, want string
	}{
		{"Edit puts replace_all first, with its default", edit.Tool,
			`{"file_path":"/p/a.txt","new_string":"b","old_string":"a"}`,
			`{"replace_all":false,"file_path":"/p/a.txt","old_string":"a","new_string":"b"}`},
		{"Bash has its command and description first", bash.Tool,
			`{"timeout":"5000","description":"List","command":"ls"}`,
			`{"command":"ls","description":"List","timeout":5000}`},
		{"Write has file_path and content", write.Tool,
			`{"content":"x\n","file_path":"/p/b.txt"}`,
			`{"file_path":"/p/b.txt","content":"x\n"}`},
		{"Read's offset sent as a string is the number read", read.Tool,
			`{"offset":"3","file_path":"/p/a.txt"}`,
			`{"offset":3,"file_path":"/p/a.txt"}`},
		{"another tool keeps the order sent", subagent.Tool,
			`{"description":"Read","prompt":"p","run_in_background":false,"subagent_type":"general-purpose"}`,
			`{"description":"Read","prompt":"p","run_in_background":false,"subagent_type":"general-purpose"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			call, err := tt.tool.Parse(json.RawMessage(tt.sent))
			if err != nil {
				t.Fatal(err)
			}
			if got := string(messageInput(tt.tool, call.Input(), json.RawMessage(tt.sent))); got != tt.want {
				t.Errorf("tool_input = %s, want %s", got, tt.want)
			}
		})
	}
}

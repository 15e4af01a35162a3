package agent_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
	"github.com/mini-claude/mini-claude/internal/permission"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools/read"
	"github.com/mini-claude/mini-claude/internal/tools/write"
	"github.com/mini-claude/mini-claude/internal/workspace"
)

// claudeCodeRecording is a recording of Claude Code 2.1.332 in
// testdata/claude-code (see the README there).
type claudeCodeRecording struct {
	FirstResponse []struct {
		Type, Text, Name string
		InputJSON        string `json:"input_json"`
	} `json:"first_response"`
	FirstStopReason llm.StopReason `json:"first_stop_reason"`
	Requests        []struct {
		MaxTokens int           `json:"max_tokens"`
		Messages  []llm.Message `json:"messages"`
	} `json:"requests"`
}

// loadRecording reads testdata/claude-code/NAME.json.
func loadRecording(t *testing.T, name string) claudeCodeRecording {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "claude-code", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var rec claudeCodeRecording
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return rec
}

// firstTurn is the recording's scripted response, "<cwd>" in its tool inputs
// replaced by cwd.
func (r claudeCodeRecording) firstTurn(cwd string) llmtest.Turn {
	turn := llmtest.Turn{StopReason: r.FirstStopReason}
	for _, b := range r.FirstResponse {
		if b.Type == string(llm.BlockToolUse) {
			turn.Blocks = append(turn.Blocks, llmtest.ToolUse("", b.Name, strings.ReplaceAll(b.InputJSON, "<cwd>", cwd)))
		} else {
			turn.Blocks = append(turn.Blocks, llmtest.Text(b.Text))
		}
	}
	return turn
}

// claudeCodeTokensLeft is the reminder Claude Code ends every tool result with;
// mini-claude has no token budget to report.
const claudeCodeTokensLeft = "\n\n<system-reminder>\n<total_tokens>14999850 tokens left</total_tokens>\n</system-reminder>"

// comparable is messages as JSON, cwd as "<cwd>", the generated tool_use ids
// as "<id>" (so that ids of a different serial compare equal), and tool
// results without Claude Code's tokens-left reminder and trailing white space
// (Claude Code trims the result it appends the reminder to).
func comparable(t *testing.T, messages []llm.Message, cwd string) string {
	t.Helper()
	out := make([]llm.Message, len(messages))
	for i, m := range messages {
		out[i] = m
		out[i].Content = nil
		for _, b := range m.Content {
			if b.Type == llm.BlockToolResult {
				b.ToolUseID = "<id>"
				content := []llm.ContentBlock{llm.TextBlock(strings.TrimRight(strings.TrimSuffix(toolResultText(b), claudeCodeTokensLeft), " \t\n"))}
				b = llm.ToolResultBlock(b.ToolUseID, content, b.IsError)
			}
			if b.Type == llm.BlockToolUse {
				b.ID = "<id>"
			}
			out[i].Content = append(out[i].Content, b)
		}
	}
	var buf strings.Builder
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(buf.String(), cwd, "<cwd>")
}

// toolResultText is the text of a tool_result however its content was sent.
func toolResultText(b llm.ContentBlock) string {
	var parts []string
	for _, c := range b.Content {
		parts = append(parts, c.Text)
	}
	return strings.Join(parts, "")
}

func TestResponseCutByMaxTokensIsAnsweredAsClaudeCodeDoes(t *testing.T) {
	for _, name := range []string{"max_tokens_tool_use", "max_tokens_long_tool_use", "max_tokens_complete_tool_use"} {
		t.Run(name, func(t *testing.T) {
			rec := loadRecording(t, name)
			h := newHarness(t)
			for f, content := range map[string]string{"a.txt": "alpha\n", "b.txt": "beta\n"} {
				if err := os.WriteFile(filepath.Join(h.cwd, f), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			h.srv.Push(rec.firstTurn(h.cwd), llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("done")}})
			res := h.agent(t, func(o *agent.Options) {
				o.Tools = []tool.Tool{read.Tool, write.Tool}
				o.Permissions = &permission.Context{Mode: permission.ModeDefault, Dirs: []string{workspace.RealPath(h.cwd)}}
				o.MaxTokens = rec.Requests[0].MaxTokens
			}).Run(context.Background(), "Do the task.")
			if res.Outcome != agent.Completed || res.Text != "done" {
				t.Fatalf("result = %+v, want completed with the second answer", res)
			}
			reqs := h.srv.Requests()
			if len(reqs) != len(rec.Requests) {
				t.Fatalf("%d requests, Claude Code made %d", len(reqs), len(rec.Requests))
			}
			for i, req := range reqs {
				if req.MaxTokens != rec.Requests[i].MaxTokens {
					t.Errorf("request %d asks max_tokens %d, Claude Code %d", i, req.MaxTokens, rec.Requests[i].MaxTokens)
				}
			}
			got, want := comparable(t, reqs[1].Messages[1:], h.cwd), comparable(t, rec.Requests[1].Messages, "<cwd>")
			if got != want {
				t.Errorf("the second request continues with\n%s\nClaude Code's with\n%s", got, want)
			}
		})
	}
}

package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// maxTokensRecording is one of Claude Code's recordings in
// internal/agent/testdata/claude-code (see the README there).
type maxTokensRecording struct {
	FirstResponse []struct {
		Type, Text, Name string
		InputJSON        string `json:"input_json"`
	} `json:"first_response"`
	FirstStopReason llm.StopReason `json:"first_stop_reason"`
	Requests        []struct {
		MaxTokens int           `json:"max_tokens"`
		Messages  []llm.Message `json:"messages"`
	} `json:"requests"`
	StreamJSON struct {
		ExitCode int              `json:"exit_code"`
		Stdout   []map[string]any `json:"stdout"`
	} `json:"stream_json"`
	Text struct {
		ExitCode int    `json:"exit_code"`
		Stdout   string `json:"stdout"`
	} `json:"text"`
}

// TestToolCallCutByMaxTokens replays Claude Code's recordings of a response
// that stops at max_tokens inside a tool call through the binary: the same
// requests (no second try with more room), the same texts for the model, the
// same tool_use and tool_result lines in stream-json and the same result.
func TestToolCallCutByMaxTokens(t *testing.T) {
	for _, name := range []string{"max_tokens_tool_use", "max_tokens_long_tool_use", "max_tokens_complete_tool_use"} {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("..", "internal", "agent", "testdata", "claude-code", name+".json"))
			if err != nil {
				t.Fatal(err)
			}
			var rec maxTokensRecording
			if err := json.Unmarshal(data, &rec); err != nil {
				t.Fatal(err)
			}
			r := newRun(t)
			for f, content := range map[string]string{"a.txt": "alpha\n", "b.txt": "beta\n"} {
				if err := os.WriteFile(filepath.Join(r.dir, f), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			first := llmtest.Turn{StopReason: rec.FirstStopReason}
			for _, b := range rec.FirstResponse {
				if b.Type == string(llm.BlockToolUse) {
					first.Blocks = append(first.Blocks, llmtest.ToolUse("", b.Name, strings.ReplaceAll(b.InputJSON, "<cwd>", r.dir)))
				} else {
					first.Blocks = append(first.Blocks, llmtest.Text(b.Text))
				}
			}
			done := llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("done")}}

			r.srv.Push(first, done)
			out := r.exec("-p", "Do the task.", "--output-format", "stream-json", "--verbose")
			if out.code != rec.StreamJSON.ExitCode {
				t.Fatalf("exit %d, Claude Code's %d: %s", out.code, rec.StreamJSON.ExitCode, out.stderr)
			}
			reqs := r.srv.Requests()
			if len(reqs) != len(rec.Requests) {
				t.Fatalf("%d requests, Claude Code made %d", len(reqs), len(rec.Requests))
			}
			for i, req := range reqs {
				if req.MaxTokens != rec.Requests[i].MaxTokens {
					t.Errorf("request %d asks max_tokens %d, Claude Code %d", i, req.MaxTokens, rec.Requests[i].MaxTokens)
				}
			}
			if got, want := sentBack(t, reqs[1].Messages[1:], r.dir), sentBack(t, rec.Requests[1].Messages, "<cwd>"); got != want {
				t.Errorf("the second request continues with\n%s\nClaude Code's with\n%s", got, want)
			}
			if got, want := toolLines(t, lines(t, out.stdout), r.dir), toolLines(t, rec.StreamJSON.Stdout, "<cwd>"); !reflect.DeepEqual(got, want) {
				t.Errorf("stream-json tool lines\n%q\nClaude Code's\n%q", got, want)
			}

			r.srv.Push(first, done)
			out = r.exec("-p", "Do the task.")
			if out.code != rec.Text.ExitCode || out.stdout != rec.Text.Stdout {
				t.Errorf("text run: exit %d, stdout %q; Claude Code's %d, %q", out.code, out.stdout, rec.Text.ExitCode, rec.Text.Stdout)
			}
		})
	}
}

// sentBack is messages as JSON, cwd as "<cwd>", tool_use ids as "<id>", and
// tool results as one text without Claude Code's tokens-left reminder and
// trailing white space (Claude Code trims the result it appends it to).
func sentBack(t *testing.T, messages []llm.Message, cwd string) string {
	t.Helper()
	var out []llm.Message
	for _, m := range messages {
		var content []llm.ContentBlock
		for _, b := range m.Content {
			switch b.Type {
			case llm.BlockToolResult:
				text := strings.TrimRight(strings.TrimSuffix(contentText(b), tokensLeft), " \t\n")
				b = llm.ToolResultBlock("<id>", []llm.ContentBlock{llm.TextBlock(text)}, b.IsError)
			case llm.BlockToolUse:
				b.ID = "<id>"
			}
			content = append(content, b)
		}
		out = append(out, llm.Message{Role: m.Role, Content: content})
	}
	return strings.ReplaceAll(mustMarshal(t, out), cwd, "<cwd>")
}

// toolLines are the tool_use blocks, tool results (with tool_use_result) and
// result fields of stream-json lines, as JSON with cwd as "<cwd>". Results of
// calls that ran together are sorted: they are printed as the calls finish.
// num_turns is left out: Claude Code 2.1.332 counts one more for two calls
// in one response (3 for max_tokens_complete_tool_use, as in the hooks
// recording post_tool_batch_two_calls), a difference of its own.
func toolLines(t *testing.T, events []map[string]any, cwd string) []string {
	t.Helper()
	var out []string
	results := 0 // tool results at the end of out
	for _, ev := range events {
		if ev["type"] != "user" {
			slices.Sort(out[len(out)-results:])
			results = 0
		}
		switch ev["type"] {
		case "assistant", "user":
			msg, _ := ev["message"].(map[string]any)
			blocks, _ := msg["content"].([]any)
			for _, b := range blocks {
				block, _ := b.(map[string]any)
				switch block["type"] {
				case "tool_use":
					out = append(out, mustMarshal(t, []any{block["name"], block["input"]}))
				case "tool_result":
					out = append(out, mustMarshal(t, []any{resultText(block["content"]), block["is_error"] == true, ev["tool_use_result"]}))
					results++
				}
			}
		case "result":
			out = append(out, mustMarshal(t, []any{ev["subtype"], ev["is_error"], ev["result"], ev["stop_reason"]}))
		}
	}
	for i := range out {
		out[i] = strings.ReplaceAll(out[i], cwd, "<cwd>")
	}
	return out
}

// resultText is a tool_result's content, a string or text blocks, as one text.
func resultText(content any) string {
	if s, ok := content.(string); ok {
		return s
	}
	var parts []string
	blocks, _ := content.([]any)
	for _, b := range blocks {
		block, _ := b.(map[string]any)
		s, _ := block["text"].(string)
		parts = append(parts, s)
	}
	return strings.Join(parts, "")
}

// mustMarshal is v as JSON without HTML escaping.
func mustMarshal(t *testing.T, v any) string {
	t.Helper()
	var buf strings.Builder
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

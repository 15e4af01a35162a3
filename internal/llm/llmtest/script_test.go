package llmtest

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/llm"
)

func TestLoadScript(t *testing.T) {
	script := `{"turns": [
		{"text": "hello"},
		{"thinking": {"text": "hmm", "signature": "sig"}, "text": "reading",
		 "tool_uses": [{"name": "Read", "input": {"file_path": "x"}}, {"id": "toolu_b", "name": "Glob"}]},
		{"blocks": [{"type": "redacted_thinking", "data": "opaque"}, {"type": "text", "text": "done"}],
		 "stop_reason": "max_tokens", "usage": {"input_tokens": 5, "output_tokens": 6}, "model": "m",
		 "chunk_delay_ms": 3, "faults": [{"status": 429, "retry_after_ms": 20}, {"drop_after_events": 2}]}
	]}`
	want := []Turn{
		{Blocks: []llm.ContentBlock{Text("hello")}},
		{Blocks: []llm.ContentBlock{Thinking("hmm", "sig"), Text("reading"),
			ToolUse("", "Read", `{"file_path": "x"}`), ToolUse("toolu_b", "Glob", "")}},
		{Blocks: []llm.ContentBlock{RedactedThinking("opaque"), Text("done")},
			StopReason: llm.StopMaxTokens, Usage: llm.Usage{InputTokens: 5, OutputTokens: 6}, Model: "m",
			ChunkDelay: 3 * time.Millisecond, Faults: []Fault{{Status: 429, RetryAfterMs: 20}, {DropAfterEvents: 2}}},
	}
	got, err := LoadScript(writeFile(t, script))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("turns:\n got %+v\nwant %+v", got, want)
	}
}

func TestLoadScriptErrors(t *testing.T) {
	tests := []struct{ name, script, want string }{
		{"unknown field", `{"turns":[{"txt":"x"}]}`, `unknown field "txt"`},
		{"no turns", `{"turns":[]}`, "has no turns"},
		{"blocks and text", `{"turns":[{"text":"a","blocks":[{"type":"text","text":"b"}]}]}`, "cannot be combined"},
		{"tool without name", `{"turns":[{"tool_uses":[{"input":{}}]}]}`, "name is required"},
		{"two fault kinds", `{"turns":[{"text":"a","faults":[{"status":500,"hang":true}]}]}`, "exactly one"},
		{"unservable block", `{"turns":[{"blocks":[{"type":"image"}]}]}`, `cannot hold a "image" block`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := LoadScript(writeFile(t, tt.script))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want it to contain %q", err, tt.want)
			}
		})
	}
	if _, err := LoadScript(filepath.Join(t.TempDir(), "missing.json")); err == nil {
		t.Error("missing file: no error")
	}
}

// writeFile writes content to a file in a temporary folder and returns its path.
func writeFile(t *testing.T, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "script.json")
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

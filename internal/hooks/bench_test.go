package hooks

import (
	"context"
	"encoding/json"
	"os"
	"testing"
	"time"
)

// BenchmarkPreToolUse measures what a PreToolUse hook adds to a tool call:
// building the input and running the hooks that match, with none configured
// and with one hook whose command is `true`.
func BenchmarkPreToolUse(b *testing.B) {
	in := PreToolUseInput{Common: Common{SessionID: "s", TranscriptPath: "/t/s.jsonl", Cwd: "/p", PermissionMode: "default", HookEventName: PreToolUse},
		ToolName: "Bash", ToolInput: json.RawMessage(`{"command":"go test ./..."}`), ToolUseID: "toolu_1"}
	for _, bc := range []struct {
		name  string
		hooks []Hook
	}{
		{"no hooks", nil},
		{"one hook: true", []Hook{{Event: PreToolUse, Matcher: "Bash", Command: "true", Timeout: time.Minute}}},
	} {
		e := New(bc.hooks, Options{ProjectDir: b.TempDir(), Env: os.Environ()})
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if e.Has(PreToolUse, "Bash") {
					e.Run(context.Background(), PreToolUse, "Bash", in)
				}
			}
		})
	}
}

package sdkproto

import (
	"context"
	"encoding/json"
	"io"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/permission"
)

// TestAQuestionOnlyAPersonMayAnswerSaysSo checks the can_use_tool request's
// fields as Claude Code 2.1.332 sends them (e2e/testdata/sdk/golden/plan_*):
// ExitPlanMode's and AskUserQuestion's carry requires_user_interaction and
// no permission_suggestions; a call with a rule to suggest carries it.
func TestAQuestionOnlyAPersonMayAnswerSaysSo(t *testing.T) {
	tests := []struct {
		name   string
		prompt permission.Prompt
		want   []string
	}{
		{"the plan", permission.Prompt{Tool: "ExitPlanMode", ToolUseID: "toolu_1", Input: json.RawMessage(`{"plan":"p","planFilePath":"/p.md"}`), UserInteraction: true},
			[]string{"display_name", "input", "requires_user_interaction", "subtype", "tool_name", "tool_use_id"}},
		{"a command", permission.Prompt{Tool: "Bash", ToolUseID: "toolu_1", Input: json.RawMessage(`{"command":"ls"}`), Rule: "Bash(ls:*)", Subject: "ls"},
			[]string{"description", "display_name", "input", "permission_suggestions", "subtype", "tool_name", "tool_use_id"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pr, pw := io.Pipe()
			defer pw.Close()
			out := &lockedBuffer{}
			c := New(out, nil)
			go func() { _ = c.Read(pr) }()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go func() { _, _ = Prompter{Conn: c}.Ask(ctx, tt.prompt) }()
			for len(out.lines()) == 0 {
				time.Sleep(time.Millisecond) // until the question is out
			}
			req := out.lines()[0]["request"].(map[string]any)
			var keys []string
			for k := range req {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			if !reflect.DeepEqual(keys, tt.want) {
				t.Errorf("the question has %v, want %v", keys, tt.want)
			}
			if tt.prompt.UserInteraction && req["requires_user_interaction"] != true {
				t.Errorf("requires_user_interaction = %v, want true", req["requires_user_interaction"])
			}
		})
	}
}

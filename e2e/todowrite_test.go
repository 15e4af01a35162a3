package e2e

import (
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// TestTodoWriteInPlanModeAndStreamJSON: TodoWrite only changes the session's
// list, so plan mode runs it unasked; stream-json reports the old and new
// lists as Claude Code does.
func TestTodoWriteInPlanModeAndStreamJSON(t *testing.T) {
	r := newRun(t)
	first := `{"todos":[{"content":"Read the code","status":"in_progress","activeForm":"Reading the code"}]}`
	second := `{"todos":[{"content":"Read the code","status":"completed","activeForm":"Reading the code"},{"content":"Write the plan","status":"in_progress","activeForm":"Writing the plan"}]}`
	r.srv.Push(
		calls(llmtest.ToolUse("t1", "TodoWrite", first)),
		calls(llmtest.ToolUse("t2", "TodoWrite", second)),
		text("planned"),
	)
	out := r.exec("-p", "plan it", "--permission-mode", "plan", "--output-format", "stream-json", "--verbose")
	if out.code != 0 {
		t.Fatalf("exit %d, stderr %q", out.code, out.stderr)
	}
	for i := 1; i <= 2; i++ {
		res := lastResults(t, r.srv, i)[0]
		if res.IsError || !strings.HasPrefix(contentText(res), "Todos have been modified successfully.") {
			t.Errorf("call %d: %q (error %v)", i, contentText(res), res.IsError)
		}
	}
	var results []map[string]any
	for _, ev := range lines(t, out.stdout) {
		if ev["type"] == "user" {
			results = append(results, ev["tool_use_result"].(map[string]any))
		}
	}
	if len(results) != 2 || len(results[1]["oldTodos"].([]any)) != 1 || len(results[1]["newTodos"].([]any)) != 2 {
		t.Errorf("tool_use_result lines %v, want the old and new lists", results)
	}
}

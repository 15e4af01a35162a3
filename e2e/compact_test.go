package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// TestCompactionThroughTheBinary runs a session that outgrows a small
// --compact-threshold: the binary asks for a summary, prints Claude Code's
// compact_boundary line, and goes on with the task, the todo list, the edited
// file and CLAUDE.md carried over verbatim.
func TestCompactionThroughTheBinary(t *testing.T) {
	r := newRun(t)
	os.WriteFile(filepath.Join(r.dir, "CLAUDE.md"), []byte("Run make check before committing.\n"), 0o644)
	edited := filepath.Join(r.dir, "main.go")
	todos := `{"todos":[{"content":"Write main.go","status":"completed","activeForm":"Writing main.go"},{"content":"Check the output","status":"in_progress","activeForm":"Checking the output"}]}`
	r.srv.Push(
		calls(llmtest.ToolUse("t1", "TodoWrite", todos),
			llmtest.ToolUse("w1", "Write", toolInput(t, map[string]any{"file_path": edited, "content": "package main\n"}))),
		// The system prompt and the tools take about 6,000 tokens; 20,000
		// characters of output take the next request over the threshold.
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("b1", "Bash", `{"command":"head -c 20000 /dev/zero | tr '\\0' y"}`)},
			Usage: llm.Usage{InputTokens: 6000, OutputTokens: 30}},
		text("<summary>main.go is written; its output is being checked.</summary>"),
		text("finished"),
	)
	const task = "Write main.go and check its output."
	out := r.exec("-p", task, "--output-format", "stream-json", "--verbose", "--dangerously-skip-permissions", "--compact-threshold", "9000")
	if out.code != 0 {
		t.Fatalf("exit %d, stderr %q", out.code, out.stderr)
	}
	reqs := r.srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests, want 4 (three turns and the summary)", len(reqs))
	}
	if got := reqs[2].Messages[len(reqs[2].Messages)-1].Text(); !strings.Contains(got, "Write that summary now.") {
		t.Errorf("third request is not the summary request; its last message says %.200q", got)
	}
	next := reqs[3]
	if len(next.Messages) != 1 {
		t.Fatalf("request after compaction holds %d messages, want 1", len(next.Messages))
	}
	compacted := next.Messages[0].Text()
	for _, want := range []string{
		"<original-task>\n" + task + "\n</original-task>",
		"<todo-list>\n1. [completed] Write main.go\n2. [in_progress] Check the output\n</todo-list>",
		"<files-edited>\n" + edited + "\n</files-edited>",
		"Run make check before committing.",
		"main.go is written; its output is being checked.",
	} {
		if !strings.Contains(compacted, want) {
			t.Errorf("compacted message lacks %q:\n%s", want, compacted)
		}
	}
	if tokens := len(next.Body) / 4; tokens > 9000 {
		t.Errorf("request after compaction is about %d tokens, want under 9000", tokens)
	}
	var boundary, todoResult, result map[string]any
	for _, ev := range lines(t, out.stdout) {
		switch {
		case ev["subtype"] == "compact_boundary":
			boundary = ev
		case ev["type"] == "user" && todoResult == nil:
			todoResult = ev
		case ev["type"] == "result":
			result = ev
		}
	}
	meta, _ := boundary["compact_metadata"].(map[string]any)
	if boundary["type"] != "system" || boundary["session_id"] == nil || meta["trigger"] != "auto" ||
		meta["pre_tokens"].(float64) <= 9000 || meta["post_tokens"].(float64) > 9000 {
		t.Errorf("compact_boundary line %v", boundary)
	}
	if use, _ := todoResult["tool_use_result"].(map[string]any); use == nil || len(use["newTodos"].([]any)) != 2 {
		t.Errorf("TodoWrite's stream-json line %v, want tool_use_result with newTodos", todoResult)
	}
	usage, _ := result["usage"].(map[string]any)
	if result["result"] != "finished" || usage["input_tokens"].(float64) != float64(3*llmtest.DefaultUsage.InputTokens+6000) {
		t.Errorf("result line %v, want the summary request's usage counted", result)
	}
}

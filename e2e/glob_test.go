package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// TestGlobThroughTheBinary checks Glob's results as the model reads them:
// oldest first, hidden and ignored files included, .git skipped, the list cut
// at 100 with a note, and errors for a path that is not a directory.
func TestGlobThroughTheBinary(t *testing.T) {
	r := newRun(t)
	files := [][2]string{
		{"b.go", ""}, {"pkg/a.go", ""}, {".hidden/h.go", ""}, {"vendor/v.go", ""}, {".git/hook.go", ""}, {".gitignore", "vendor/\n"},
	}
	for i := range 105 {
		files = append(files, [2]string{fmt.Sprintf("many/f%03d.txt", i), ""})
	}
	writeFiles(t, r.dir, files...)
	r.srv.Push(
		calls(
			llmtest.ToolUse("g1", "Glob", `{"pattern": "**/*.go"}`),
			llmtest.ToolUse("g2", "Glob", `{"pattern": "*.txt", "path": "many"}`),
			llmtest.ToolUse("g3", "Glob", `{"pattern": "*.rs"}`),
			llmtest.ToolUse("g4", "Glob", `{"pattern": "*", "path": "b.go"}`),
		),
		text("globbed"),
	)
	out := r.exec("-p", "find files", "--tools", "Glob")
	if out.code != 0 || out.stdout != "globbed\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	results := lastResults(t, r.srv, 1)
	if got := contentText(results[0]); got != "b.go\npkg/a.go\n.hidden/h.go\nvendor/v.go" {
		t.Errorf("**/*.go: %q", got)
	}
	lines := strings.Split(contentText(results[1]), "\n")
	if len(lines) != 101 || lines[0] != "many/f000.txt" || lines[99] != "many/f099.txt" ||
		lines[100] != "(Showing 100 of 105 matching files; 5 more are not listed. Narrow the pattern or path to see the rest.)" {
		t.Errorf("truncated list: %d lines, first %q, last %q", len(lines), lines[0], lines[len(lines)-1])
	}
	if got := contentText(results[2]); got != "No files found" {
		t.Errorf("no match: %q", got)
	}
	if !results[3].IsError || !strings.Contains(contentText(results[3]), "Path is not a directory: b.go") {
		t.Errorf("file as path: %q (error %v)", contentText(results[3]), results[3].IsError)
	}
}

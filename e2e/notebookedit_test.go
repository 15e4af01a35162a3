package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

const notebookJSON = `{
 "cells": [
  {
   "cell_type": "code",
   "execution_count": 1,
   "id": "c1",
   "metadata": {},
   "outputs": [{"output_type": "stream", "name": "stdout", "text": ["1\n"]}],
   "source": ["print(1)"]
  }
 ],
 "metadata": {},
 "nbformat": 4,
 "nbformat_minor": 5
}
`

// TestNotebookEditAfterWrite seeds the session with a Write of a new notebook
// (which records it as seen), replaces its cell, and is refused on a notebook
// it never saw.
func TestNotebookEditAfterWrite(t *testing.T) {
	r := newRun(t)
	path := filepath.Join(r.dir, "analysis.ipynb")
	unread := filepath.Join(r.dir, "other.ipynb")
	os.WriteFile(unread, []byte(notebookJSON), 0o644)
	r.srv.Push(
		calls(llmtest.ToolUse("w", "Write", toolInput(t, map[string]any{"file_path": path, "content": notebookJSON}))),
		calls(
			llmtest.ToolUse("n1", "NotebookEdit", toolInput(t, map[string]any{"notebook_path": path, "cell_id": "c1", "new_source": "print(2)"})),
			llmtest.ToolUse("n2", "NotebookEdit", toolInput(t, map[string]any{"notebook_path": unread, "cell_id": "c1", "new_source": "print(2)"})),
		),
		text("done"),
	)
	out := r.exec("-p", "notebook", "--permission-mode", "acceptEdits")
	if out.code != 0 || out.stdout != "done\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	results := lastResults(t, r.srv, 2)
	if got := contentText(results[0]); results[0].IsError || got != "Updated cell c1 with print(2)" {
		t.Errorf("replace: %q (error %v)", got, results[0].IsError)
	}
	if got := contentText(results[1]); !results[1].IsError || !strings.Contains(got, "has not been read") {
		t.Errorf("unread notebook: %q", got)
	}
	var nb struct {
		Cells []struct {
			ExecutionCount *int     `json:"execution_count"`
			Outputs        []any    `json:"outputs"`
			Source         []string `json:"source"`
		} `json:"cells"`
	}
	data, _ := os.ReadFile(path)
	if err := json.Unmarshal(data, &nb); err != nil || len(nb.Cells) != 1 {
		t.Fatalf("notebook after the edit: %v\n%s", err, data)
	}
	if c := nb.Cells[0]; c.ExecutionCount != nil || len(c.Outputs) != 0 || strings.Join(c.Source, "") != "print(2)" {
		t.Errorf("cell after the edit: %+v", c)
	}
	if data, _ := os.ReadFile(unread); string(data) != notebookJSON {
		t.Error("the unread notebook was changed")
	}
}

package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// fileResultsFiles are the files the script of testdata/file_results works on.
var fileResultsFiles = map[string]string{
	"existing.txt": linesOf("line %d\n", 20),
	"crlf.txt":     "one\r\ntwo\r\nthree\r\n",
	"rep.txt":      "foo bar\nfoo baz\nqux foo\n",
	"nonl.txt":     "a\nb\nc",
	"go.go":        "package x\n\nfunc a() {\n\treturn\n}\n\nfunc b() {\n\treturn\n}\n",
	"gap.txt":      linesOf("l%d\n", 40),
	"tabs.txt":     "a\tb\n\t\tc\n  \td\ne\n",
	"big.txt":      linesOf("line %d\n", 2000),
	"empty.txt":    "gone\n",
}

// linesOf is n lines, line i written with format and i.
func linesOf(format string, n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, format, i)
	}
	return b.String()
}

// TestWriteAndEditResultsAreClaudeCodes runs the Read, Write and Edit calls
// of testdata/file_results/script.json on fileResultsFiles and compares each
// Write and Edit tool_use_result in stream-json with the one Claude Code
// 2.1.332 printed for the same script and files (claude_code.jsonl, its
// directory written as $DIR): the same fields in the same order, with the
// same values. The reference was captured by running claude -p with
// --output-format stream-json --verbose --dangerously-skip-permissions against
// cmd/llmtest-serve serving the script.
func TestWriteAndEditResultsAreClaudeCodes(t *testing.T) {
	r := newRun(t)
	for name, content := range fileResultsFiles {
		if err := os.WriteFile(filepath.Join(r.dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	script, err := os.ReadFile(filepath.Join("testdata", "file_results", "script.json"))
	if err != nil {
		t.Fatal(err)
	}
	scriptPath := filepath.Join(t.TempDir(), "script.json")
	os.WriteFile(scriptPath, bytes.ReplaceAll(script, []byte("$DIR"), []byte(r.dir)), 0o644)
	turns, err := llmtest.LoadScript(scriptPath)
	if err != nil {
		t.Fatal(err)
	}
	r.srv.Push(turns...)
	out := r.exec("-p", "do the edits", "--output-format", "stream-json", "--verbose", "--permission-mode", "acceptEdits")
	if out.code != 0 {
		t.Fatalf("exit %d: %s", out.code, out.stderr)
	}
	got := fileResults(t, out.stdout, r.dir)
	want := readLines(t, filepath.Join("testdata", "file_results", "claude_code.jsonl"))
	if len(got) != len(want) {
		t.Fatalf("%d Write and Edit results, Claude Code gave %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("result %d differs from Claude Code's\n got %s\nwant %s", i+1, got[i], want[i])
		}
	}
}

// fileResults returns the compact tool_use_result of each user event that
// reports a Write or Edit (an object with filePath at its top), with dir
// written as $DIR.
func fileResults(t *testing.T, stdout, dir string) []string {
	t.Helper()
	var results []string
	for _, line := range strings.Split(strings.TrimSuffix(stdout, "\n"), "\n") {
		var ev struct {
			Type   string          `json:"type"`
			Result json.RawMessage `json:"tool_use_result"`
		}
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("line %q is not JSON: %v", line, err)
		}
		var fields struct {
			FilePath *string `json:"filePath"`
		}
		if ev.Type != "user" || json.Unmarshal(ev.Result, &fields) != nil || fields.FilePath == nil {
			continue
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, ev.Result); err != nil {
			t.Fatal(err)
		}
		results = append(results, strings.ReplaceAll(compact.String(), dir, "$DIR"))
	}
	return results
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	s := bufio.NewScanner(f)
	s.Buffer(nil, 1<<20)
	for s.Scan() {
		out = append(out, s.Text())
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// writeFiles writes files under dir, each one second newer than the one
// before in the order given.
func writeFiles(t *testing.T, dir string, files ...[2]string) {
	t.Helper()
	base := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	for i, f := range files {
		path := filepath.Join(dir, f[0])
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(f[1]), 0o644); err != nil {
			t.Fatal(err)
		}
		when := base.Add(time.Duration(i) * time.Second)
		os.Chtimes(path, when, when)
	}
}

var grepTree = [][2]string{
	{"main.go", "package main\n\nfunc main() {\n\tgreet()\n}\n"},
	{"greet.go", "package main\n\nfunc greet() {\n\tprintln(\"hello\")\n}\n"},
	{"docs/notes.md", "greet the user\n"},
	{".git/HEAD", "ref: refs/heads/main\n"},
	{".gitignore", "build/\n"},
	{"build/out.go", "func greet() {}\n"},
}

// TestGrepThroughTheBinary runs Grep calls through mini-claude with each
// search engine and checks what the model got back; both engines must agree.
func TestGrepThroughTheBinary(t *testing.T) {
	engines := []string{"builtin"}
	if _, err := exec.LookPath("rg"); err == nil {
		engines = append(engines, "rg")
	}
	want := []string{
		"Found 3 files\ndocs/notes.md\ngreet.go\nmain.go",
		"greet.go-2-\ngreet.go:3:func greet() {\ngreet.go-4-\tprintln(\"hello\")\n--\nmain.go-3-func main() {\nmain.go:4:\tgreet()\nmain.go-5-}",
		"docs/notes.md:1\ngreet.go:1\nmain.go:1\n\nFound 3 total occurrences across 3 files.",
		"Found 1 file limit: 1, offset: 1\ngreet.go",
	}
	for _, engine := range engines {
		t.Run(engine, func(t *testing.T) {
			r := newRun(t)
			r.env = append(r.env, "MINI_CLAUDE_GREP_ENGINE="+engine)
			writeFiles(t, r.dir, grepTree...)
			r.srv.Push(
				calls(
					llmtest.ToolUse("g1", "Grep", `{"pattern": "greet"}`),
					llmtest.ToolUse("g2", "Grep", `{"pattern": "greet\\(", "output_mode": "content", "glob": "*.go", "-C": 1}`),
					llmtest.ToolUse("g3", "Grep", `{"pattern": "greet", "output_mode": "count"}`),
					llmtest.ToolUse("g4", "Grep", `{"pattern": "greet", "head_limit": 1, "offset": 1}`),
				),
				text("searched"),
			)
			out := r.exec("-p", "find greet", "--tools", "Grep")
			if out.code != 0 || out.stdout != "searched\n" {
				t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
			}
			results := lastResults(t, r.srv, 1)
			for i, res := range results {
				if res.IsError || contentText(res) != want[i] {
					t.Errorf("result %d (error %v):\n got %q\nwant %q", i, res.IsError, contentText(res), want[i])
				}
			}
		})
	}
}

func TestGrepErrorsAndPermissions(t *testing.T) {
	r := newRun(t)
	writeFiles(t, r.dir, grepTree...)
	outside := t.TempDir()
	writeFiles(t, outside, [2]string{"secret.txt", "greet the secret\n"})
	r.srv.Push(
		calls(
			llmtest.ToolUse("bad", "Grep", `{"pattern": "greet("}`),
			llmtest.ToolUse("out", "Grep", `{"pattern": "greet", "path": "`+outside+`"}`),
			llmtest.ToolUse("none", "Grep", `{"pattern": "x", "path": "missing"}`),
		),
		text("done"),
	)
	if out := r.exec("-p", "search", "--tools", "Grep"); out.code != 0 {
		t.Fatalf("exit %d, stderr %q", out.code, out.stderr)
	}
	results := lastResults(t, r.srv, 1)
	checks := []string{"is not a valid regular expression", "outside the allowed directories", "Path does not exist: missing"}
	for i, want := range checks {
		if !results[i].IsError || !strings.Contains(contentText(results[i]), want) {
			t.Errorf("result %d: %q (error %v), want an error containing %q", i, contentText(results[i]), results[i].IsError, want)
		}
		if strings.Contains(contentText(results[i]), "greet the secret") {
			t.Errorf("result %d shows a file outside the allowed directories", i)
		}
	}

	r2 := newRun(t)
	r2.srv.Push(calls(llmtest.ToolUse("ok", "Grep", `{"pattern": "greet", "path": "`+outside+`", "output_mode": "content"}`)), text("done"))
	if out := r2.exec("-p", "search", "--tools", "Grep", "--add-dir", outside); out.code != 0 {
		t.Fatalf("exit %d, stderr %q", out.code, out.stderr)
	}
	if got := contentText(lastResults(t, r2.srv, 1)[0]); got != filepath.Join(outside, "secret.txt")+":1:greet the secret" {
		t.Errorf("with --add-dir: %q", got)
	}
}

package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// The README's team hooks example, taken from the README itself, each of
// its hooks doing what the README says.

// readmeTeamHooks returns the settings of the README's team example: the
// json block of the Hooks section that holds a Stop hook.
func readmeTeamHooks(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(data), "\n## Hooks\n")
	if !ok {
		t.Fatal("the README has no Hooks section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	for _, block := range strings.Split(section, "```json\n")[1:] {
		block, _, _ = strings.Cut(block, "```")
		if strings.Contains(block, `"Stop"`) {
			if !json.Valid([]byte(block)) {
				t.Fatalf("the README's example is not valid JSON:\n%s", block)
			}
			return block
		}
	}
	t.Fatal("the README's Hooks section has no team example")
	return ""
}

// teamProject is a Go project with the README's hooks, trusted, its tests
// failing until Add adds.
func teamProject(t *testing.T) *run {
	t.Helper()
	for _, tool := range []string{"jq", "gofmt", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("the README's example needs %s (.ci/run installs jq)", tool)
		}
	}
	r := newRun(t)
	writeSettings(t, r.dir, ".claude/settings.json", readmeTeamHooks(t))
	writeSettings(t, r.dir, "go.mod", "module team\n\ngo 1.22\n")
	writeSettings(t, r.dir, "add.go", "package team\n\nfunc Add(a, b int) int { return a - b }\n")
	writeSettings(t, r.dir, "add_test.go", "package team\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(2, 3) != 5 {\n\t\tt.Fatal(\"Add(2, 3) != 5\")\n\t}\n}\n")
	writeSettings(t, r.dir, "TICKET.md", "ABC-123: adding two numbers subtracts them\n")
	os.MkdirAll(filepath.Join(r.dir, "migrations"), 0o755)
	os.MkdirAll(filepath.Join(r.dir, "build"), 0o755)
	cache, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	r.setenv("GOCACHE=" + strings.TrimSpace(string(cache)))
	r.setenv("GOFLAGS=-mod=mod")
	r.trust(false)
	return r
}

func TestHookREADMETeamExample(t *testing.T) {
	r := teamProject(t)
	addGo := filepath.Join(r.dir, "add.go")
	r.srv.Push(
		calls(bashUse("b1", "rm -rf build")),
		calls(llmtest.ToolUse("w1", "Write", fmt.Sprintf(`{"file_path":%q,"content":"DROP TABLE users;\n"}`, filepath.Join(r.dir, "migrations", "0002_drop.sql")))),
		text("Done, I think."),
		calls(llmtest.ToolUse("r1", "Read", fmt.Sprintf(`{"file_path":%q}`, addGo))),
		calls(llmtest.ToolUse("e1", "Edit", fmt.Sprintf(`{"file_path":%q,"old_string":"return a - b }","new_string":"return a+b }"}`, addGo))),
		text("Fixed: the tests pass."),
	)
	out := r.exec("-p", "fix the ticket", "--permission-mode", "acceptEdits", "--allowedTools", "Bash(rm:*)", "--verbose")
	if out.code != 0 || !strings.Contains(out.stdout, "Fixed: the tests pass.") {
		t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	if !strings.Contains(out.stderr, `": error (exit 2), blocking: rm -rf is not allowed here: delete the files by name`) {
		t.Errorf("--verbose does not name the blocking hook:\n%s", out.stderr)
	}
	reqs := r.srv.Requests()
	if len(reqs) != 6 {
		t.Fatalf("%d requests, want 6", len(reqs))
	}

	// UserPromptSubmit: the ticket goes with the prompt.
	if first := reqs[0].Messages[0].Content[0].Text; !strings.Contains(first, "UserPromptSubmit hook success: ABC-123: adding two numbers subtracts them") {
		t.Errorf("the first message starts %q, want the ticket", first)
	}
	// PreToolUse: no rm -rf, no writes to migrations/.
	if _, err := os.Stat(filepath.Join(r.dir, "build")); err != nil {
		t.Error("rm -rf ran")
	}
	if got := contentText(lastResults(t, r.srv, 1)[0]); !strings.Contains(got, "rm -rf is not allowed here") {
		t.Errorf("the model was told %q after rm -rf", got)
	}
	if _, err := os.Stat(filepath.Join(r.dir, "migrations", "0002_drop.sql")); err == nil {
		t.Error("the write to migrations/ ran")
	}
	if got := contentText(lastResults(t, r.srv, 2)[0]); !strings.Contains(got, "migrations/ is frozen") {
		t.Errorf("the model was told %q after the write to migrations/", got)
	}
	// Stop: the tests fail, so the turn goes on.
	last := reqs[3].Messages[len(reqs[3].Messages)-1]
	if text := last.Content[len(last.Content)-1].Text; !strings.Contains(text, "Stop hook feedback:") || !strings.Contains(text, "The tests fail") {
		t.Errorf("after the first stop the model got %q", text)
	}
	// PostToolUse: the edit was formatted; and with it the tests pass, so the turn ended.
	if data, _ := os.ReadFile(addGo); !strings.Contains(string(data), "return a + b") {
		t.Errorf("add.go after the edit:\n%s", data)
	}
}

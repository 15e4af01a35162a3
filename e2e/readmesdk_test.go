package e2e

import (
	"bytes"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// readmeBlock returns the first fenced block of lang after the heading.
func readmeBlock(t *testing.T, heading, lang string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(data), heading+"\n")
	if !ok {
		t.Fatalf("README has no %q", heading)
	}
	_, rest, ok = strings.Cut(rest, "```"+lang+"\n")
	block, _, closed := strings.Cut(rest, "```")
	if !ok || !closed {
		t.Fatalf("README's %q has no %s block", heading, lang)
	}
	return block
}

func TestTheREADMEsSDKProgramRunsAgainstTheBinary(t *testing.T) {
	npm := sdkNPM(t)
	r := newRun(t)
	proj, _ := filepath.EvalSymlinks(r.dir)
	fileURL := func(rel string) string {
		return (&url.URL{Scheme: "file", Path: filepath.Join(npm, "node_modules", rel)}).String()
	}
	program := strings.NewReplacer(
		"'@anthropic-ai/claude-agent-sdk'", "'"+fileURL("@anthropic-ai/claude-agent-sdk/sdk.mjs")+"'",
		"'zod'", "'"+fileURL("zod/index.js")+"'",
		"'mini-claude'", "'"+binary+"'",
	).Replace(readmeBlock(t, "## Use from a program", "js"))
	path := filepath.Join(t.TempDir(), "program.mjs")
	if err := os.WriteFile(path, []byte(program), 0o644); err != nil {
		t.Fatal(err)
	}
	r.srv.ServeByHistory(
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("", "mcp__calc__add", `{"a":2,"b":3}`)}},
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("", "Bash", `{"command":"echo 5 > sum.txt"}`)}},
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("", "Write", `{"file_path":"`+proj+`/sum.txt","content":"5\n"}`)}},
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("The sum is 5.")}},
	)
	cmd := exec.Command("node", path)
	cmd.Dir, cmd.Env = proj, r.env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("the README's program: %v\n%s", err, stderr.String())
	}
	if got := strings.TrimSpace(stdout.String()); got != "The sum is 5." {
		t.Errorf("it printed %q, want the model's answer", got)
	}
	reqs := r.srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d model requests, want 4", len(reqs))
	}
	results := []string{"5", "Bash is not for this program", "File created successfully"}
	for i, want := range results {
		got := lastToolResultText(reqs[i+1])
		if !strings.Contains(got, want) {
			t.Errorf("tool result %d %q, want it to contain %q (the MCP tool, canUseTool's deny, its allow)", i+1, got, want)
		}
	}
	if data, _ := os.ReadFile(filepath.Join(proj, "sum.txt")); string(data) != "5\n" {
		t.Errorf("sum.txt holds %q, want the Write canUseTool allowed", data)
	}
}

// lastToolResultText is the text of the last tool_result a request sent back.
func lastToolResultText(req llmtest.Request) string {
	last := req.Messages[len(req.Messages)-1]
	for _, b := range last.Content {
		if b.Type == llm.BlockToolResult {
			var s string
			for _, c := range b.Content {
				s += c.Text
			}
			return s
		}
	}
	return ""
}

// Command record asks Claude Code 2.1.332 what a resumed session does with
// its todo list: a session writes todos with TodoWrite and ends; resumed, it
// is compacted (/compact); resumed again, it gets a prompt. It prints, as
// JSON, the messages of the summary request and of the request after the
// summary, the placeholders of e2e/testdata/hooks/README.md applied to the
// paths and ids.
//
//	go run ./e2e/testdata/todos/record > e2e/testdata/todos/claude-code.json
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

const todos = `{"todos":[{"content":"Read the code","status":"completed","activeForm":"Reading the code"},{"content":"Fix the parser","status":"in_progress","activeForm":"Fixing the parser"},{"content":"Run the tests","status":"pending","activeForm":"Running the tests"}]}`

func main() {
	if err := record(); err != nil {
		fmt.Fprintln(os.Stderr, "record:", err)
		os.Exit(1)
	}
}

func record() error {
	home, _ := os.UserHomeDir()
	claude := filepath.Join(home, ".cache/mini-claude-ref/node_modules/.bin/claude")
	scratch, err := os.MkdirTemp("", "todos-record")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	proj, userHome := filepath.Join(scratch, "proj"), filepath.Join(scratch, "home")
	os.MkdirAll(proj, 0o755)
	os.MkdirAll(userHome, 0o755)
	state, _ := json.Marshal(map[string]any{"hasCompletedOnboarding": true,
		"customApiKeyResponses": map[string]any{"approved": []string{"test"}, "rejected": []string{}},
		"projects":              map[string]any{proj: map[string]any{"hasTrustDialogAccepted": true}}})
	os.WriteFile(filepath.Join(userHome, ".claude.json"), state, 0o644)

	srv, err := llmtest.Start()
	if err != nil {
		return err
	}
	defer srv.Close()
	srv.ServeFunc(func(req llmtest.Request) llmtest.Turn {
		last := req.Messages[len(req.Messages)-1].Text()
		body := string(req.Body)
		switch {
		case strings.Contains(last, "summary"):
			return llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("<summary>The parser fix is under way.</summary>")}}
		case !strings.Contains(body, `"name":"TodoWrite","input"`):
			return llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("", "TodoWrite", todos)}}
		}
		return llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("ok")}}
	})
	run := func(args ...string) (string, error) {
		cmd := exec.Command(claude, append(args, "--model", "claude-sonnet-4-5-20250929", "--output-format", "json")...)
		cmd.Dir = proj
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + userHome, "TERM=dumb", "IS_SANDBOX=1",
			"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_TELEMETRY=1", "DISABLE_AUTOUPDATER=1",
			"ANTHROPIC_BASE_URL=" + srv.URL, "ANTHROPIC_API_KEY=test",
			// TodoWrite is off in 2.1.332 unless tasks are (the Task tools replace it).
			"CLAUDE_CODE_ENABLE_TASKS=false"}
		var out, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &stderr
		if err := cmd.Run(); err != nil {
			return "", fmt.Errorf("claude %q: %w\n%s%s", args, err, out.String(), stderr.String())
		}
		var res struct {
			SessionID string `json:"session_id"`
		}
		json.Unmarshal(out.Bytes(), &res)
		return res.SessionID, nil
	}
	id, err := run("-p", "plan the fix")
	if err != nil {
		return err
	}
	afterPlan := len(srv.Requests())
	if _, err := run("-p", "/compact", "--resume", id); err != nil {
		return err
	}
	afterCompact := len(srv.Requests())
	if _, err := run("-p", "go on", "--resume", id); err != nil {
		return err
	}
	reqs := srv.Requests()
	out := map[string]any{
		"summary_request": lastMessages(reqs[afterPlan:afterCompact]),
		"after_summary":   lastMessages(reqs[afterCompact:]),
	}
	data, _ := json.MarshalIndent(out, "", "  ")
	text := strings.ReplaceAll(string(data), proj, "<cwd>")
	text = strings.ReplaceAll(text, userHome, "<home>")
	text = strings.ReplaceAll(text, id, "<session_id>")
	text = strings.ReplaceAll(text, slug.ReplaceAllString(proj, "-"), "<cwd_slug>")
	fmt.Println(text)
	return nil
}

// slug finds what Claude Code turns into "-" in a project's folder name.
var slug = regexp.MustCompile(`[^A-Za-z0-9]`)

// lastMessages returns the messages of the last request of reqs.
func lastMessages(reqs []llmtest.Request) json.RawMessage {
	if len(reqs) == 0 {
		return json.RawMessage(`null`)
	}
	var body struct {
		Messages json.RawMessage `json:"messages"`
	}
	json.Unmarshal(reqs[len(reqs)-1].Body, &body)
	return body.Messages
}

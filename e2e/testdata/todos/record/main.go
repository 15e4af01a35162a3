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
	"context"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"

	"github.com/mini-claude/mini-claude/internal/goldenfile/recorder"
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
	claude, err := recorder.Check("")
	if err != nil {
		return err
	}
	scratch, err := recorder.NewScratch("todos-record", "todos", false)
	if err != nil {
		return err
	}
	defer scratch.Remove()
	proj, userHome := scratch.Proj, scratch.Home
	if err := recorder.WriteState(userHome, proj); err != nil {
		return err
	}

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
		out, err := recorder.Command{Path: claude, Dir: proj,
			Args: append(args, "--model", recorder.Model, "--output-format", "json"),
			// TodoWrite is off in 2.1.332 unless tasks are (the Task tools replace it).
			Env: recorder.Env(userHome, srv.URL, "CLAUDE_CODE_ENABLE_TASKS=false"),
		}.Run(context.Background())
		if err == nil && out.ExitCode != 0 {
			err = fmt.Errorf("exit code %d", out.ExitCode)
		}
		if err != nil {
			return "", fmt.Errorf("claude %q: %w\n%s%s", args, err, out.Stdout, out.Stderr)
		}
		var res struct {
			SessionID string `json:"session_id"`
		}
		json.Unmarshal(out.Stdout, &res)
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

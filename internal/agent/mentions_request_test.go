package agent_test

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/goldenfile"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
	"github.com/mini-claude/mini-claude/internal/permission"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools/read"
	"github.com/mini-claude/mini-claude/internal/workspace"
)

// The user message of the request that carries a prompt with @mentions holds
// the blocks Claude Code 2.1.332 sends for it: the first attachment's Read
// call, then the other reminders, each ending in a newline, and the prompt.
// Claude Code sends the first block as a user message of its own; mini-claude
// joins it with the next (llm.Alternate), as a transcript read back does, so
// that roles alternate and a resumed session sends the same bytes. The goldens were checked against Claude Code's requests, but for the
// context reminders Claude Code adds to a session's first prompt, the
// line numbers of #L0 (it numbers the whole file from 0) and the result of a
// reversed range (it reports the file shorter than the first line).
func TestMentionRequestGoldens(t *testing.T) {
	tests := []struct {
		name    string
		prompts []string
	}{
		{"range", []string{"@notes.txt#L2-4 what is this?"}},
		{"line", []string{"@notes.txt#L3 what is this?"}},
		{"range_past_the_end", []string{"@notes.txt#L5-100 what?"}},
		{"range_after_the_end", []string{"@notes.txt#L10-20 what?"}},
		{"bad_range", []string{"@notes.txt#Lfoo what?"}},
		{"reversed_range", []string{"@notes.txt#L4-2 what?"}},
		{"quoted_path_with_spaces", []string{`@"my file.txt" what?`}},
		{"directory", []string{"@sub what?"}},
		{"quoted_mention_first", []string{`compare @notes.txt#L1-2 and @"my file.txt"`}},
		{"missing_file", []string{"@missing.txt#L1-2 what?"}},
		{"later_prompt", []string{"hello", "now @notes.txt#L2-3 and @sub"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			writeFiles(t, h.cwd, map[string]string{
				"notes.txt":   "one\ntwo\nthree\nfour\nfive\nsix\n",
				"my file.txt": "spaced\ncontent\n",
				"sub/a.txt":   "a\n",
			})
			a := h.agent(t, func(o *agent.Options) {
				o.AttachMentions = true
				o.Tools = []tool.Tool{read.Tool}
				o.Permissions = &permission.Context{Mode: permission.ModeDefault, Dirs: []string{workspace.RealPath(h.cwd)}}
			})
			for _, prompt := range tt.prompts {
				h.srv.Push(llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("done")}})
				if res := a.Run(context.Background(), prompt); res.Err != nil {
					t.Fatalf("run %q: %v", prompt, res.Err)
				}
			}
			reqs := h.srv.Requests()
			got := strings.ReplaceAll(requestMessages(t, reqs[len(reqs)-1].Body), h.cwd, "/project")
			goldenfile.Check(t, filepath.Join("testdata", "mentions", tt.name+".json"), got)
		})
	}
}

// requestMessages returns the messages of a request body as sent, indented.
func requestMessages(t *testing.T, body []byte) string {
	t.Helper()
	var req struct {
		Messages json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := json.Indent(&out, req.Messages, "", "  "); err != nil {
		t.Fatal(err)
	}
	return out.String() + "\n"
}

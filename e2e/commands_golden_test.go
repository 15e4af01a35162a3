package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// goldenRequest is one request Claude Code 2.1.332 sent, as the recorder of
// e2e/testdata/commands keeps it.
type goldenRequest struct {
	Model    string `json:"model"`
	Messages []struct {
		Role    string            `json:"role"`
		Content []json.RawMessage `json:"content"`
	} `json:"messages"`
}

// goldenBlock is the part of a content block the comparison reads.
type goldenBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

// recordedScenario reads a scenario the recorder kept: its files, its claude
// arguments and its requests.
func recordedScenario(t *testing.T, name string) (files map[string]string, args []string, reqs []goldenRequest) {
	t.Helper()
	dir := filepath.Join("testdata", "commands", name)
	data, err := os.ReadFile(filepath.Join(dir, "files.txt"))
	if err != nil {
		t.Fatal(err)
	}
	files = map[string]string{}
	for entry := range strings.SplitSeq(string(data), "\n=====\n") {
		path, content, _ := strings.Cut(entry, "\n")
		files[path] = content
	}
	var run struct {
		Args []string `json:"args"`
	}
	data, _ = os.ReadFile(filepath.Join(dir, "run.json"))
	if err := json.Unmarshal(data, &run); err != nil {
		t.Fatal(err)
	}
	data, _ = os.ReadFile(filepath.Join(dir, "requests.json"))
	if err := json.Unmarshal(data, &reqs); err != nil {
		t.Fatal(err)
	}
	return files, run.Args, reqs
}

// scriptOf is the model's side of a recorded session: the assistant
// messages of its last request, then a final answer.
func scriptOf(t *testing.T, reqs []goldenRequest) []llmtest.Turn {
	t.Helper()
	var turns []llmtest.Turn
	for _, m := range reqs[len(reqs)-1].Messages {
		if m.Role != "assistant" {
			continue
		}
		var blocks []llm.ContentBlock
		for _, raw := range m.Content {
			var b llm.ContentBlock
			if err := json.Unmarshal(raw, &b); err != nil {
				t.Fatal(err)
			}
			if b.Type == llm.BlockToolUse {
				b.ID = ""
			}
			blocks = append(blocks, b)
		}
		turns = append(turns, llmtest.Turn{Blocks: blocks})
	}
	return append(turns, llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("Done.")}})
}

// totalTokensReminder is what Claude Code appends to every tool result.
var totalTokensReminder = regexp.MustCompile(`\n\n<system-reminder>\n<total_tokens>\d+ tokens left</total_tokens>\n</system-reminder>$`)

// comparableBlocks is a message as the comparison reads it: each block as one
// line of text, without the reminders Claude Code sends in every session
// (elided by the recorder), the skills of Claude Code's own in the listing
// (kept are the lines of names), and the tokens-left reminder of tool
// results. A reminder's trailing newline is left out: Claude Code puts it
// after its last standard reminder, which mini-claude does not send.
func comparableBlocks(t *testing.T, role string, content []json.RawMessage, names []string) []string {
	t.Helper()
	var out []string
	for _, raw := range content {
		var b goldenBlock
		if err := json.Unmarshal(raw, &b); err != nil {
			t.Fatal(err)
		}
		switch b.Type {
		case "text":
			text := b.Text
			switch {
			case strings.Contains(text, "[elided by the recorder]"):
				continue
			case strings.HasPrefix(text, "<system-reminder>\nThe following skills are available"):
				text = listingOf(text, names)
			case strings.HasPrefix(text, "<system-reminder>"):
				text = strings.TrimSuffix(text, "\n")
			}
			out = append(out, role+" text: "+text)
		case "tool_result":
			var s string
			if json.Unmarshal(b.Content, &s) != nil {
				var parts []struct{ Text string }
				json.Unmarshal(b.Content, &parts)
				for _, p := range parts {
					s += p.Text
				}
			}
			out = append(out, role+" tool_result "+b.ToolUseID+": "+totalTokensReminder.ReplaceAllString(s, ""))
		default:
			var v any
			json.Unmarshal(raw, &v)
			canonical, _ := json.Marshal(v)
			out = append(out, role+" "+string(canonical))
		}
	}
	for i := range out {
		out[i] = toolUseID.ReplaceAllString(out[i], "toolu_…")
	}
	return out
}

// toolUseID is an id llmtest gives a tool call; it counts the server's
// requests, which differ between the two programs.
var toolUseID = regexp.MustCompile(`toolu_llmtest_\d+_\d+`)

// listingOf keeps the lines of a skills listing that name one of names, in
// the listing's order.
func listingOf(listing string, names []string) string {
	head, body, _ := strings.Cut(listing, "\n\n")
	var kept []string
	for _, entry := range strings.Split(strings.TrimSuffix(body, "\n</system-reminder>"), "\n- ") {
		entry = "- " + strings.TrimPrefix(entry, "- ")
		name, _, _ := strings.Cut(strings.TrimPrefix(entry, "- "), ":")
		name, _, _ = strings.Cut(name, " (")
		if slices.Contains(names, name) {
			kept = append(kept, entry)
		}
	}
	return head + "\n\n" + strings.Join(kept, "\n") + "\n</system-reminder>"
}

// TestCommandRequestsMatchClaudeCodes runs the recorded commands and skills
// through mini-claude with the same files and arguments and compares what
// it sends with what Claude Code 2.1.332 sent: the command's header and text
// with its arguments, @file and !`cmd` expanded, the listing of the folder's
// skills, a Skill call's result and the skill's text after it. Requests past
// the ones listed differ on purpose (mini-claude asks before a Bash command
// writes a file even when a rule allows the command).
func TestCommandRequestsMatchClaudeCodes(t *testing.T) {
	for _, tc := range []struct {
		scenario string
		requests int
	}{
		{"review", 1}, {"positional", 1}, {"namespaced", 1}, {"plain", 1}, {"noargs", 1}, {"skill_named", 1}, {"model", 1}, {"user", 1},
		{"hidden", 1}, {"skill_user", 1}, {"skill_allowed", 2}, {"skill_safe", 2}, {"skill_unknown", 4},
	} {
		t.Run(tc.scenario, func(t *testing.T) {
			files, args, golden := recordedScenario(t, tc.scenario)
			r := newRun(t)
			home := ""
			for _, kv := range r.env {
				if h, ok := strings.CutPrefix(kv, "HOME="); ok {
					home = h
				}
			}
			var names []string
			for path, content := range files {
				if rel, ok := strings.CutPrefix(path, "proj/"); ok {
					writeSettings(t, r.dir, rel, content)
				} else if rel, ok := strings.CutPrefix(path, "home/"); ok {
					writeSettings(t, home, rel, content)
				}
				if m := regexp.MustCompile(`\.claude/(commands|skills)/(.+?)(/SKILL)?\.md$`).FindStringSubmatch(path); m != nil {
					names = append(names, strings.ReplaceAll(m[2], "/", ":"))
				}
			}
			r.trust(false)
			r.srv.ServeByHistory(scriptOf(t, golden)...)
			out := r.exec(args...)
			if out.code != 0 {
				t.Fatalf("exit %d: %s", out.code, out.stderr)
			}
			reqs := r.srv.Requests()
			if len(reqs) < tc.requests {
				t.Fatalf("mini-claude sent %d requests, want at least %d; stdout:\n%s", len(reqs), tc.requests, out.stdout)
			}
			for i := range tc.requests {
				var ours goldenRequest
				if err := json.Unmarshal(reqs[i].Body, &ours); err != nil {
					t.Fatal(err)
				}
				if ours.Model != golden[i].Model {
					t.Errorf("request %d: model %s, Claude Code's %s", i, ours.Model, golden[i].Model)
				}
				var got, want []string
				for _, m := range ours.Messages {
					got = append(got, comparableBlocks(t, m.Role, m.Content, names)...)
				}
				for _, m := range golden[i].Messages {
					want = append(want, comparableBlocks(t, m.Role, m.Content, names)...)
				}
				want = strings.Split(strings.ReplaceAll(strings.Join(want, "\x00"), "<cwd>", r.dir), "\x00")
				if !slices.Equal(got, want) {
					t.Errorf("request %d differs from Claude Code's.\nmini-claude:\n%s\nClaude Code:\n%s", i, strings.Join(got, "\n---\n"), strings.Join(want, "\n---\n"))
				}
			}
		})
	}
}

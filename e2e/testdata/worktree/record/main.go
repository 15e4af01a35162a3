// Command record runs Claude Code 2.1.332 on scratch git repositories to
// learn what its worktree features do (see e2e/testdata/worktree/README.md):
//
//	go run ./e2e/testdata/worktree/record [-claude PATH] [-only NAME,…] [-keep]
//
// Each scenario gets a scratch folder with a git repository (proj) and a
// HOME; the scripted model server of internal/llm/llmtest answers each
// conversation by the marker in its first user message. The recording keeps
// the claude arguments, its exit code, stderr, the tool results of every
// conversation, and the state of the repository afterwards (git worktree
// list, branches, files), with the scratch paths written as placeholders.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/mini-claude/mini-claude/internal/goldenfile/recorder"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

const outDir = "e2e/testdata/worktree"

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "record:", err)
		os.Exit(1)
	}
}

func run() error {
	var f recorder.Flags
	f.Register(flag.CommandLine)
	flag.Parse()
	claude, err := recorder.Check(f.Claude)
	if err != nil {
		return err
	}
	if _, err := os.Stat(outDir); err != nil {
		return fmt.Errorf("run from the repository's root: %w", err)
	}
	for _, sc := range scenarios {
		if !f.Wants(sc.Name) {
			continue
		}
		fmt.Fprintf(os.Stderr, "record: %s\n", sc.Name)
		g, err := record(claude, sc, f.Keep)
		if err != nil {
			return fmt.Errorf("%s: %w", sc.Name, err)
		}
		data, err := json.MarshalIndent(g, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(outDir, sc.Name+".json"), append(data, '\n'), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Scenario is one run of claude.
type Scenario struct {
	Name string `json:"name"`
	// Args are claude's arguments after -p and the prompt.
	Args []string `json:"args"`
	// Git says proj is a git repository with one commit.
	Git bool `json:"git"`
	// Scripts are the model's calls per conversation, keyed by a marker in
	// the conversation's first user message; the prompt is "main".
	Scripts map[string][]Call `json:"scripts"`
	// Tools says to keep the first request's tool definitions named here.
	Tools []string `json:"tools,omitempty"`
}

// Call is one tool_use; $CWD in Input is the project.
type Call struct {
	Tool  string          `json:"tool"`
	Input json.RawMessage `json:"input"`
}

// Golden is what the recorder writes for a scenario.
type Golden struct {
	Scenario
	ExitCode int                        `json:"exit_code"`
	Stderr   string                     `json:"stderr"`
	Results  map[string][]Result        `json:"results"`
	Sent     []SentTool                 `json:"sent_tools,omitempty"`
	Defs     map[string]json.RawMessage `json:"tool_definitions,omitempty"`
	Deferred string                     `json:"deferred_note,omitempty"`
	Notices  []string                   `json:"notices,omitempty"`
	After    map[string]string          `json:"after"`
	Final    map[string]json.RawMessage `json:"final_result,omitempty"`
}

// SentTool is one tool of the first request: its name and whether it was
// sent with defer_loading.
type SentTool struct {
	Name  string `json:"name"`
	Defer bool   `json:"defer_loading,omitempty"`
}

// Result is one tool_result as the model got it.
type Result struct {
	Tool    string `json:"tool"`
	Text    string `json:"text"`
	IsError bool   `json:"is_error"`
}

var scenarios = []Scenario{
	{Name: "tools", Git: true, Args: nil,
		Scripts: map[string][]Call{"main": nil},
		Tools:   []string{"Agent", "EnterWorktree", "ExitWorktree", "ToolSearch"}},
	{Name: "flag_named", Git: true, Args: []string{"--worktree", "feat"},
		Scripts: map[string][]Call{"main": {
			{"Bash", raw(`{"command":"pwd; git branch --show-current; git status --short"}`)},
			{"Write", raw(`{"file_path":"$CWD/new.txt","content":"written\n"}`)},
			{"Write", raw(`{"file_path":"rel.txt","content":"relative\n"}`)},
		}}},
	{Name: "flag_unnamed", Git: true, Args: []string{"-w"},
		Scripts: map[string][]Call{"main": {
			{"Bash", raw(`{"command":"pwd; git branch --show-current"}`)},
		}}},
	{Name: "flag_clean", Git: true, Args: []string{"--worktree", "clean"},
		Scripts: map[string][]Call{"main": {
			{"Bash", raw(`{"command":"pwd"}`)},
		}}},
	{Name: "flag_not_git", Git: false, Args: []string{"--worktree", "x"},
		Scripts: map[string][]Call{"main": nil}},
	{Name: "enter_exit", Git: true, Args: nil,
		Tools: []string{"EnterWorktree", "ExitWorktree"},
		Scripts: map[string][]Call{"main": {
			{"ToolSearch", raw(`{"query":"select:EnterWorktree,ExitWorktree"}`)},
			{"EnterWorktree", raw(`{"name":"try-one"}`)},
			{"Bash", raw(`{"command":"pwd; git branch --show-current"}`)},
			{"Write", raw(`{"file_path":"made.txt","content":"in tree\n"}`)},
			{"EnterWorktree", raw(`{"name":"again"}`)},
			{"ExitWorktree", raw(`{"action":"remove"}`)},
			{"ExitWorktree", raw(`{"action":"keep"}`)},
			{"Bash", raw(`{"command":"pwd"}`)},
			{"ExitWorktree", raw(`{"action":"keep"}`)},
		}}},
	{Name: "enter_remove", Git: true, Args: nil,
		Scripts: map[string][]Call{"main": {
			{"ToolSearch", raw(`{"query":"select:EnterWorktree,ExitWorktree"}`)},
			{"EnterWorktree", raw(`{}`)},
			{"Bash", raw(`{"command":"pwd; git branch --show-current"}`)},
			{"ExitWorktree", raw(`{"action":"remove"}`)},
			{"Bash", raw(`{"command":"pwd"}`)},
		}}},
	{Name: "enter_remove_dirty", Git: true, Args: nil,
		Scripts: map[string][]Call{"main": {
			{"ToolSearch", raw(`{"query":"select:EnterWorktree,ExitWorktree"}`)},
			{"EnterWorktree", raw(`{"name":"dirty"}`)},
			{"Write", raw(`{"file_path":"made.txt","content":"in tree\n"}`)},
			{"Bash", raw(`{"command":"echo more >> base.txt && git add base.txt && git commit -qm wip"}`)},
			{"ExitWorktree", raw(`{"action":"remove"}`)},
			{"ExitWorktree", raw(`{"action":"remove","discard_changes":true}`)},
		}}},
	{Name: "enter_remove_plural", Git: true,
		Scripts: map[string][]Call{"main": {
			{"ToolSearch", raw(`{"query":"select:EnterWorktree,ExitWorktree"}`)},
			{"EnterWorktree", raw(`{"name":"many"}`)},
			{"Bash", raw(`{"command":"echo a > a.txt && echo b > b.txt && echo 1 >> base.txt && git commit -qam one && echo 2 >> base.txt && git commit -qam two"}`)},
			{"ExitWorktree", raw(`{"action":"remove"}`)},
			{"Bash", raw(`{"command":"rm a.txt b.txt"}`)},
			{"ExitWorktree", raw(`{"action":"remove"}`)},
			{"ExitWorktree", raw(`{"action":"remove","discard_changes":true}`)},
		}}},
	{Name: "enter_not_git", Git: false, Args: nil,
		Scripts: map[string][]Call{"main": {
			{"ToolSearch", raw(`{"query":"select:EnterWorktree,ExitWorktree"}`)},
			{"EnterWorktree", raw(`{"name":"x"}`)},
			{"ExitWorktree", raw(`{"action":"keep"}`)},
		}}},
	{Name: "search_checkout", Git: true, Args: []string{"--tools", "Bash,Grep,Glob"},
		Scripts: map[string][]Call{"main": {
			{"Bash", raw(`{"command":"echo needle > top.txt && git worktree add -q -b worktree-x .claude/worktrees/x && echo needle > .claude/worktrees/x/n.txt && mkdir -p .claude/other && echo needle > .claude/other/o.txt"}`)},
			{"Grep", raw(`{"pattern":"needle","output_mode":"files_with_matches"}`)},
			{"Glob", raw(`{"pattern":"**/*.txt"}`)},
		}}},
	{Name: "agent_isolation", Git: true, Args: nil,
		Scripts: map[string][]Call{
			"main": {
				{"Agent", raw(`{"description":"change it","prompt":"SUB-CHANGE edit base.txt","subagent_type":"general-purpose","isolation":"worktree","run_in_background":false}`)},
				{"Agent", raw(`{"description":"just look","prompt":"SUB-LOOK read base.txt","subagent_type":"general-purpose","isolation":"worktree","run_in_background":false}`)},
				{"Bash", raw(`{"command":"git worktree list --porcelain; git branch -a; cat base.txt"}`)},
			},
			"SUB-CHANGE": {
				{"Bash", raw(`{"command":"pwd; git branch --show-current"}`)},
				{"Read", raw(`{"file_path":"base.txt"}`)},
				{"Write", raw(`{"file_path":"base.txt","content":"changed by sub-agent\n"}`)},
			},
			"SUB-LOOK": {
				{"Bash", raw(`{"command":"pwd; git branch --show-current"}`)},
				{"Read", raw(`{"file_path":"base.txt"}`)},
			},
		}},
	{Name: "agent_isolation_commit", Git: true, Args: nil,
		Scripts: map[string][]Call{
			"main": {
				{"Agent", raw(`{"description":"commit it","prompt":"SUB-COMMIT commit a change","isolation":"worktree","run_in_background":false}`)},
			},
			"SUB-COMMIT": {
				{"Bash", raw(`{"command":"echo c >> base.txt && git commit -qam sub && git log --oneline | head -3"}`)},
			},
		}},
	{Name: "agent_isolation_background", Git: true, Args: nil,
		Scripts: map[string][]Call{
			"main": {
				{"Agent", raw(`{"description":"change it","prompt":"SUB-BG write a file","isolation":"worktree"}`)},
			},
			"SUB-BG": {
				{"Write", raw(`{"file_path":"bg.txt","content":"from the background\n"}`)},
			},
		}},
	{Name: "agent_isolation_not_git", Git: false, Args: nil,
		Scripts: map[string][]Call{
			"main": {
				{"Agent", raw(`{"description":"change it","prompt":"SUB-X do it","isolation":"worktree"}`)},
			},
			"SUB-X": {},
		}},
}

func raw(s string) json.RawMessage { return json.RawMessage(s) }

func record(claude string, sc Scenario, keep bool) (*Golden, error) {
	s, err := recorder.NewScratch("worktree-", sc.Name, keep)
	if err != nil {
		return nil, err
	}
	defer s.Remove()
	dir, proj, home := s.Dir, s.Proj, s.Home
	if err := os.WriteFile(filepath.Join(proj, "base.txt"), []byte("base\n"), 0o644); err != nil {
		return nil, err
	}
	if sc.Git {
		for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "."}, {"commit", "-qm", "initial"}} {
			if out, err := git(proj, home, args...); err != nil {
				return nil, fmt.Errorf("git %v: %w: %s", args, err, out)
			}
		}
	}
	if err := recorder.WriteState(home, proj); err != nil {
		return nil, err
	}
	srv, err := llmtest.Start()
	if err != nil {
		return nil, err
	}
	defer srv.Close()
	srv.SetRecord(true)
	srv.ServeFunc(func(req llmtest.Request) llmtest.Turn {
		calls := sc.Scripts[marker(sc, req)]
		n := req.AssistantTurns()
		if n >= len(calls) {
			return llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("Done.")}}
		}
		input := strings.ReplaceAll(string(calls[n].Input), "$CWD", proj)
		return llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("", calls[n].Tool, input)}}
	})
	args := append([]string{"-p", "main: do the task."}, sc.Args...)
	args = append(args, "--output-format", "stream-json", "--verbose",
		"--model", recorder.Model, "--permission-mode", "bypassPermissions")
	res, err := recorder.Command{Path: claude, Args: args, Dir: proj, Timeout: 5 * time.Minute,
		Env: recorder.Env(home, srv.URL, gitIdentity...)}.Run(context.Background())
	stdout, stderr, code := res.Stdout, res.Stderr, res.ExitCode
	if keep {
		os.WriteFile(filepath.Join(dir, "stdout.jsonl"), stdout, 0o644)
		bodies, _ := json.Marshal(requestBodies(srv.Requests()))
		os.WriteFile(filepath.Join(dir, "requests.json"), bodies, 0o644)
	}
	if err != nil {
		return nil, err
	}
	recorder.ReportViolations(sc.Name, srv)
	n := strings.NewReplacer(proj, "$CWD", home, "$HOME", dir, "$TMP")
	g := &Golden{Scenario: sc, ExitCode: code, Stderr: normalize(n, string(stderr)), Results: map[string][]Result{},
		After: map[string]string{}}
	reqs := srv.Requests()
	for _, req := range reqs {
		m := marker(sc, req)
		calls := sc.Scripts[m]
		i := req.AssistantTurns() - 1
		if i < 0 || i >= len(calls) || i != len(g.Results[m]) {
			continue
		}
		text, isErr, _ := recorder.LastToolResult(req)
		g.Results[m] = append(g.Results[m], Result{Tool: calls[i].Tool, Text: normalize(n, text), IsError: isErr})
	}
	if len(sc.Tools) > 0 && len(reqs) > 0 {
		g.Sent, g.Defs, err = sentTools(reqs[0].Body, sc.Tools)
		if err != nil {
			return nil, err
		}
		for _, req := range reqs[1:] {
			_, later, err := sentTools(req.Body, sc.Tools)
			if err != nil {
				return nil, err
			}
			for name, def := range later {
				if _, ok := g.Defs[name]; !ok {
					g.Defs[name] = def
				}
			}
		}
		g.Deferred = deferredNote(reqs[0])
	}
	for _, line := range bytes.Split(stdout, []byte("\n")) {
		var ev map[string]json.RawMessage
		if json.Unmarshal(line, &ev) == nil && string(ev["type"]) == `"result"` {
			g.Final = map[string]json.RawMessage{"subtype": ev["subtype"], "is_error": ev["is_error"], "result": ev["result"]}
		}
	}
	for _, req := range reqs {
		for _, m := range req.Messages {
			for _, b := range m.Content {
				note := normalize(n, notification.FindString(b.Text))
				if m.Role == llm.RoleUser && note != "" && !slices.Contains(g.Notices, note) {
					g.Notices = append(g.Notices, note)
				}
			}
		}
	}
	if sc.Git {
		for _, args := range [][]string{{"worktree", "list", "--porcelain"}, {"branch", "-a", "-v", "--no-abbrev"},
			{"status", "--short"}, {"log", "--all", "--format=%s"}} {
			out, _ := git(proj, home, args...)
			g.After["git "+strings.Join(args, " ")] = normalize(n, string(out))
		}
	}
	err = filepath.WalkDir(proj, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		rel, _ := filepath.Rel(proj, path)
		if d.IsDir() {
			g.After[rel+"/"] = ""
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		g.After[rel] = normalize(n, string(data))
		return nil
	})
	return g, err
}

// notification is a background agent's notice in a user message.
var notification = regexp.MustCompile(`(?s)<task-notification>.*</task-notification>`)

// hashes are git object names.
var hashes = regexp.MustCompile(`\b[0-9a-f]{40}\b`)

// reminder is a system-reminder block Claude Code appends to a tool result.
var reminder = regexp.MustCompile(`(?s)\n*<system-reminder>\n.*?\n</system-reminder>\s*`)

// volatile are the parts of a text that change from run to run, and their placeholders.
var volatile = []struct {
	re   *regexp.Regexp
	with string
}{
	{hashes, "<hash>"},
	{regexp.MustCompile(`/tmp/claude-\d+/[^\s<]*/tasks/`), "<tasks>/"},
	{regexp.MustCompile(`\ba[0-9a-f]{16}\b`), "<agent_id>"},
	{regexp.MustCompile(`\(pid \d+ start \d+\)`), "(pid <pid> start <start>)"},
	{regexp.MustCompile(`(duration_ms>?:? ?)\d+`), "${1}0"},
	{regexp.MustCompile(`\b[0-9a-f]{7}\b( sub| initial)`), "<short>$1"},
}

func normalize(n *strings.Replacer, s string) string {
	s = n.Replace(reminder.ReplaceAllString(s, ""))
	for _, v := range volatile {
		s = v.re.ReplaceAllString(s, v.with)
	}
	return s
}

// marker returns the script key found in the request's first user message.
func marker(sc Scenario, req llmtest.Request) string {
	keys := make([]string, 0, len(sc.Scripts))
	for k := range sc.Scripts {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return len(keys[i]) > len(keys[j]) })
	for _, k := range keys {
		if k != "main" && llmtest.FirstUserText(k)(req) {
			return k
		}
	}
	return "main"
}

// sentTools lists the tools of a request body and keeps the definitions named.
func sentTools(body []byte, keep []string) ([]SentTool, map[string]json.RawMessage, error) {
	var req struct {
		Tools []json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return nil, nil, err
	}
	var sent []SentTool
	defs := map[string]json.RawMessage{}
	for _, t := range req.Tools {
		var head struct {
			Name  string `json:"name"`
			Defer bool   `json:"defer_loading"`
		}
		if err := json.Unmarshal(t, &head); err != nil {
			return nil, nil, err
		}
		sent = append(sent, SentTool{Name: head.Name, Defer: head.Defer})
		if slices.Contains(keep, head.Name) {
			defs[head.Name] = t
		}
	}
	return sent, defs, nil
}

// deferredNote is the part of the first request that names the deferred
// tools: the system prompt's or a message's block holding "deferred".
func deferredNote(req llmtest.Request) string {
	var parts []string
	for _, m := range req.Messages {
		for _, b := range m.Content {
			if strings.Contains(b.Text, "EnterWorktree") {
				parts = append(parts, b.Text)
			}
		}
	}
	for _, para := range strings.Split(req.System, "\n\n") {
		if strings.Contains(para, "EnterWorktree") || strings.Contains(para, "deferred") {
			parts = append(parts, para)
		}
	}
	return strings.Join(parts, "\n---\n")
}

// requestBodies is every request's body, for -keep.
func requestBodies(reqs []llmtest.Request) []json.RawMessage {
	var out []json.RawMessage
	for _, r := range reqs {
		out = append(out, r.Body)
	}
	return out
}

// gitIdentity is who commits, in the setup and in claude's runs.
var gitIdentity = []string{"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
	"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com"}

func git(dir, home string, args ...string) ([]byte, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + home}, gitIdentity...),
		"GIT_AUTHOR_DATE=2024-01-02T03:04:05Z", "GIT_COMMITTER_DATE=2024-01-02T03:04:05Z")
	return cmd.CombinedOutput()
}

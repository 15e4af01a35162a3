package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// What each recorded hook behaviour does to the session, against Claude
// Code 2.1.332 (testdata/hooks/effects/<scenario>/): what the model reads
// in every request, the exit code and output of each run, and the files
// the project holds afterwards.

// effectsLeftOut are the recorded effects this test does not replay, with the reason.
var effectsLeftOut = map[string]string{
	"permission_request_allow": "PermissionRequest is one of the new events of branch hookev, tested there",
	"permission_request_deny":  "PermissionRequest is one of the new events of branch hookev, tested there",
	"stop_failure":             "StopFailure is one of the new events of branch hookev, tested there",
	"untrusted": "on purpose: mini-claude runs no project hook in an untrusted folder (issue 16), where Claude Code " +
		"runs them in -p; TestProjectHooksRunOnlyInATrustedFolder covers it",
}

// effectDifference is a text of the recording that mini-claude words
// otherwise on purpose: the test expects ours in its place.
type effectDifference struct {
	recorded, ours, why string
}

// effectDifferences are the deliberate differences, per scenario; <cwd> is
// the project.
var effectDifferences = map[string][]effectDifference{
	"pre_allow_vs_deny_rule": {{
		recorded: "Permission to use Bash with command touch denied.txt has been denied.",
		ours:     "Permission for the command `touch denied.txt` has been denied by the rule Bash(touch:*) (from <cwd>/.claude/settings.json).",
		why:      "mini-claude's refusals by a rule name the rule and its file; the hook's allow loses to the deny rule as in Claude Code",
	}},
}

// expected replaces the recorded texts mini-claude words otherwise.
func (sc *effectScenario) expected(text string) string {
	for _, d := range effectDifferences[sc.name] {
		text = strings.ReplaceAll(text, d.recorded, strings.ReplaceAll(d.ours, "<cwd>", sc.proj))
	}
	return text
}

// effectScenario is one recorded effect, replayed.
type effectScenario struct {
	name, dir string
	// proj is the project folder; its parent is the scenario's own (for
	// the Stop scripts' input log, as in the recording).
	proj string
}

// effectRun is one recorded run of runs.json.
type effectRun struct {
	Run      string   `json:"run"`
	Args     []string `json:"args"`
	ExitCode int      `json:"exit_code"`
	Stderr   string   `json:"stderr"`
	Stdout   *string  `json:"stdout"`
}

// seenBlock is a content block as the model reads it, in a form both
// recordings share: a tool_result's content as one text, a tool_use's input
// as compact JSON with sorted keys.
type seenBlock struct {
	Type    string `json:"type"`
	Text    string `json:"text,omitempty"`
	ID      string `json:"id,omitempty"`
	Name    string `json:"name,omitempty"`
	Input   string `json:"input,omitempty"`
	IsError bool   `json:"is_error,omitempty"`
}

// seenMessage is a message as the model reads it.
type seenMessage struct {
	Role   string      `json:"role"`
	Blocks []seenBlock `json:"blocks"`
}

// elidedMark ends the standard reminders requests.json shortens.
const elidedMark = "… [elided by the recorder]"

// tokensLeft is how Claude Code ends every tool_result: not a hook's doing.
const tokensLeft = "\n\n<system-reminder>\n<total_tokens>14999850 tokens left</total_tokens>\n</system-reminder>"

// recordedRequests reads requests.json as the model read it, Claude Code's
// standard reminders (elided by the recorder, and the tokens left at the end
// of each tool result) out.
func recordedRequests(t *testing.T, path, cwd string) [][]seenMessage {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	data = []byte(strings.ReplaceAll(string(data), "<cwd>", cwd))
	var reqs []struct {
		Messages []struct {
			Role    string            `json:"role"`
			Content []json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(data, &reqs); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var out [][]seenMessage
	for _, req := range reqs {
		var msgs []seenMessage
		for _, m := range req.Messages {
			sm := seenMessage{Role: m.Role}
			for _, raw := range m.Content {
				var b struct {
					Type      string          `json:"type"`
					Text      string          `json:"text"`
					ID        string          `json:"id"`
					Name      string          `json:"name"`
					Input     json.RawMessage `json:"input"`
					ToolUseID string          `json:"tool_use_id"`
					Content   json.RawMessage `json:"content"`
					IsError   bool            `json:"is_error"`
				}
				if err := json.Unmarshal(raw, &b); err != nil {
					t.Fatalf("%s: %v", path, err)
				}
				switch b.Type {
				case "text":
					if !strings.HasSuffix(b.Text, elidedMark) {
						sm.Blocks = append(sm.Blocks, seenBlock{Type: "text", Text: b.Text})
					}
				case "tool_use":
					sm.Blocks = append(sm.Blocks, seenBlock{Type: "tool_use", ID: b.ID, Name: b.Name, Input: canonicalJSON(t, b.Input)})
				case "tool_result":
					var text string
					if err := json.Unmarshal(b.Content, &text); err != nil {
						t.Fatalf("%s: a tool_result whose content is not a string: %s", path, b.Content)
					}
					sm.Blocks = append(sm.Blocks, seenBlock{Type: "tool_result", ID: b.ToolUseID, Text: strings.TrimSuffix(text, tokensLeft), IsError: b.IsError})
				default:
					t.Fatalf("%s: unexpected block %s", path, raw)
				}
			}
			msgs = append(msgs, sm)
		}
		out = append(out, msgs)
	}
	return out
}

// canonicalJSON is raw compacted with its object keys sorted.
func canonicalJSON(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	data, _ := json.Marshal(v)
	return string(data)
}

// sentRequests are the requests mini-claude sent, as the model read them,
// each tool result's end trimmed: Claude Code trims it where it appends its
// tokens-left reminder, which mini-claude does not send. (mini-claude's first
// message holds no standard reminders: what it tells of the environment is
// in the system prompt.)
func sentRequests(t *testing.T, reqs []llmtest.Request) [][]seenMessage {
	t.Helper()
	var out [][]seenMessage
	for _, req := range reqs {
		var msgs []seenMessage
		for _, m := range req.Messages {
			sm := seenMessage{Role: string(m.Role)}
			for _, b := range m.Content {
				switch b.Type {
				case llm.BlockText:
					sm.Blocks = append(sm.Blocks, seenBlock{Type: "text", Text: b.Text})
				case llm.BlockToolUse:
					sm.Blocks = append(sm.Blocks, seenBlock{Type: "tool_use", ID: b.ID, Name: b.Name, Input: canonicalJSON(t, b.Input)})
				case llm.BlockToolResult:
					sm.Blocks = append(sm.Blocks, seenBlock{Type: "tool_result", ID: b.ToolUseID, Text: strings.TrimRight(contentText(b), " \t\n"), IsError: b.IsError})
				default:
					t.Fatalf("unexpected block %+v", b)
				}
			}
			msgs = append(msgs, sm)
		}
		out = append(out, msgs)
	}
	return out
}

// effectScenarios are the recorded effects this test replays, and fails
// when a scenario is neither replayed nor left out with a reason.
func effectScenarios(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join("testdata", "hooks", "effects"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if _, out := effectsLeftOut[e.Name()]; e.IsDir() && !out {
			names = append(names, e.Name())
		}
	}
	return names
}

// stopScriptOf is a scenario's Stop hook script as recorded
// (record/effects.go), logging its input next to the project; "" when the
// scenario has none.
func stopScriptOf(name string) string {
	head := "#!/bin/sh\nin=$(cat)\nprintf '%s\\n' \"$in\" >> \"$CLAUDE_PROJECT_DIR/../inputs.jsonl\"\n"
	if name == "stop_always_block" {
		return head + `echo '{"decision":"block","reason":"Never done"}'` + "\n"
	}
	if block, ok := recordedStopBlocks[name]; ok {
		return head + "case \"$in\" in\n*'\"stop_hook_active\":false'*) " + block + " ;;\nesac\n"
	}
	return ""
}

// logHookScript stands for the recorder's `record log-hook FILE LABEL`: it
// appends the label and the hook's input, tab-separated, to FILE.
const logHookScript = "#!/bin/sh\nin=$(cat)\nprintf '%s\\t%s\\n' \"$3\" \"$in\" >> \"$2\"\n"

// setUp makes the scenario's project as the recorder did: a.txt, the Stop
// script, the settings with the recorder's paths replaced, trusted.
func (sc *effectScenario) setUp(t *testing.T, r *run) {
	t.Helper()
	scratch := t.TempDir()
	sc.proj = filepath.Join(scratch, "proj")
	r.dir = sc.proj
	writeSettings(t, sc.proj, "a.txt", "hello\n")
	if script := stopScriptOf(sc.name); script != "" {
		writeSettings(t, sc.proj, ".claude/hooks/stop.sh", script)
		if err := os.Chmod(filepath.Join(sc.proj, ".claude/hooks/stop.sh"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeSettings(t, scratch, "record", logHookScript)
	if err := os.Chmod(filepath.Join(scratch, "record"), 0o755); err != nil {
		t.Fatal(err)
	}
	settings, err := os.ReadFile(filepath.Join(sc.dir, "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	s := strings.NewReplacer("<record>", filepath.Join(scratch, "record"), "<tmp>", scratch).Replace(string(settings))
	writeSettings(t, sc.proj, ".claude/settings.json", s)
	r.trust(false)
}

// projectFiles lists the project's files as files.txt does: relative
// paths, sorted, .claude left out.
func projectFiles(t *testing.T, dir string) string {
	t.Helper()
	var files []string
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || path == dir {
			return nil
		}
		if d.IsDir() && d.Name() == ".claude" {
			return filepath.SkipDir
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(dir, path)
			files = append(files, rel)
		}
		return nil
	})
	sort.Strings(files)
	return strings.Join(files, "\n") + "\n"
}

// firedHooks is fired.txt of the hooks that logged through logHookScript.
func firedHooks(t *testing.T, scratch string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(scratch, "hooks.jsonl"))
	if err != nil {
		return ""
	}
	var lines []string
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		label, stdin, _ := strings.Cut(line, "\t")
		var in struct {
			Event string `json:"hook_event_name"`
			Tool  string `json:"tool_name"`
		}
		if err := json.Unmarshal([]byte(stdin), &in); err != nil {
			t.Fatalf("a logged hook input: %v: %s", err, stdin)
		}
		lines = append(lines, in.Event+" "+in.Tool+": "+label+"\n")
	}
	sort.Strings(lines)
	return strings.Join(lines, "")
}

// stopInputs are the Stop hook inputs of a scenario as compared: event,
// stop_hook_active and the last assistant message of each.
func stopInputs(inputs []map[string]any) []string {
	var out []string
	for _, in := range inputs {
		out = append(out, fmt.Sprintf("%v active=%v last=%q", in["hook_event_name"], in["stop_hook_active"], in["last_assistant_message"]))
	}
	return out
}

func TestHookEffectsAsClaudeCode(t *testing.T) {
	for _, name := range effectScenarios(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			for _, d := range effectDifferences[name] {
				t.Logf("different on purpose: %s", d.why)
			}
			sc := &effectScenario{name: name, dir: filepath.Join("testdata", "hooks", "effects", name)}
			r := newRun(t)
			sc.setUp(t, r)
			sc.replay(t, r)
			time.Sleep(settleOf(sc.name))
			sc.checkAfterwards(t)
		})
	}
}

// replay runs the recorded runs with the recorded model turns, comparing
// each run's exit code and output, and what the model read in the stream run.
func (sc *effectScenario) replay(t *testing.T, r *run) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(sc.dir, "stream.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	stream := parseJSONL(t, "stream.jsonl", []byte(strings.ReplaceAll(string(data), "<cwd>", sc.proj)))
	r.srv.ServeByHistory(recordedTurns(t, stream)...)
	var runs []effectRun
	if data, err = os.ReadFile(filepath.Join(sc.dir, "runs.json")); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &runs); err != nil {
		t.Fatal(err)
	}
	placeholders := strings.NewReplacer("<cwd>", sc.proj, "<home>", r.envValue("HOME"))
	for _, want := range runs {
		before := len(r.srv.Requests())
		out := r.exec(want.Args...)
		if out.code != want.ExitCode {
			t.Errorf("%s: exit %d, want %d (stderr %q)", want.Run, out.code, want.ExitCode, out.stderr)
		}
		if w := sc.expected(placeholders.Replace(want.Stderr)); out.stderr != w {
			t.Errorf("%s: stderr\n got %q\nwant %q", want.Run, out.stderr, w)
		}
		if want.Stdout != nil && out.stdout != sc.expected(*want.Stdout) {
			t.Errorf("%s: stdout\n got %q\nwant %q", want.Run, out.stdout, *want.Stdout)
		}
		if want.Run != "stream" {
			continue
		}
		wantReqs := recordedRequests(t, filepath.Join(sc.dir, "requests.json"), sc.proj)
		for _, msgs := range wantReqs {
			for _, m := range msgs {
				for i := range m.Blocks {
					m.Blocks[i].Text = sc.expected(m.Blocks[i].Text)
				}
			}
		}
		for _, d := range requestDiffs(sentRequests(t, r.srv.Requests()[before:]), wantReqs) {
			t.Error(d)
		}
	}
}

// checkAfterwards compares the project's files, the hooks that ran and the
// Stop hooks' inputs with the recording's.
func (sc *effectScenario) checkAfterwards(t *testing.T) {
	t.Helper()
	if want, err := os.ReadFile(filepath.Join(sc.dir, "files.txt")); err != nil {
		t.Fatal(err)
	} else if got := projectFiles(t, sc.proj); got != string(want) {
		t.Errorf("the project's files\n got %q\nwant %q", got, want)
	}
	if want, err := os.ReadFile(filepath.Join(sc.dir, "fired.txt")); err == nil {
		if got := firedHooks(t, filepath.Dir(sc.proj)); got != string(want) {
			t.Errorf("the hooks that ran\n got %s\nwant %s", got, want)
		}
	}
	if data, err := os.ReadFile(filepath.Join(sc.dir, "inputs.json")); err == nil {
		var want []map[string]any
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatal(err)
		}
		got := readJSONL(t, filepath.Join(filepath.Dir(sc.proj), "inputs.jsonl"))
		if g, w := stopInputs(got), stopInputs(want); !reflect.DeepEqual(g, w) {
			t.Errorf("the Stop hooks' inputs\n got %q\nwant %q", g, w)
		}
	}
}

// settleOf is how long the recorder waited after the runs before listing
// the project's files: long enough for a hook that outlived its timeout to
// leave its file.
func settleOf(name string) time.Duration {
	if name == "pre_timeout" {
		return 4 * time.Second
	}
	return 0
}

// requestDiffs says where what the model read differs: each request whose
// messages differ, by the first message that does.
func requestDiffs(got, want [][]seenMessage) []string {
	var diffs []string
	if len(got) != len(want) {
		diffs = append(diffs, fmt.Sprintf("%d model requests, want %d", len(got), len(want)))
	}
	for i := range min(len(got), len(want)) {
		g, w := got[i], want[i]
		for j := range max(len(g), len(w)) {
			var gm, wm any
			if j < len(g) {
				gm = g[j]
			}
			if j < len(w) {
				wm = w[j]
			}
			if !reflect.DeepEqual(gm, wm) {
				gj, _ := json.MarshalIndent(gm, "", " ")
				wj, _ := json.MarshalIndent(wm, "", " ")
				diffs = append(diffs, fmt.Sprintf("request %d, message %d:\n got %s\nwant %s", i, j, gj, wj))
				break
			}
		}
	}
	return diffs
}

package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
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
	"untrusted": "on purpose: mini-claude runs no project hook in an untrusted folder (issue 16), where Claude Code " +
		"runs them in -p; TestProjectHooksRunOnlyInATrustedFolder covers it",
}

// effectDifference is a text of the recording that mini-claude words
// otherwise on purpose: the test expects ours in its place. With skip, it is
// instead a comparison the test leaves out: "<run> requests", "<run>
// output" (exit code, stdout and stderr), "fired" (the hooks that ran) or
// "Agent results" (the text of the sub-agent's hand-back).
type effectDifference struct {
	recorded, ours, skip, why string
}

// engineRefusal is mini-claude's own refusal in -p of a call that would
// ask: the permission engine's wording, not a hook's doing.
func engineRefusal(tool, reason string) string {
	return "Permission to use " + tool + " has not been granted, and nobody can approve it in this session. " + reason +
		" Continue without it, or tell the user which permission the task needs (for example --allowedTools " + tool + ")."
}

// Reasons shared by several scenarios.
const (
	whyEngineWording = "a hook that decides nothing leaves the call to the permission engine, which refuses it in -p " +
		"in mini-claude's own words (the permission engine's matter, not the hooks')"
	whyNoCompactInP = "-p has no /compact in mini-claude: the prompt goes to the model, so nothing is compacted, " +
		"no PostCompact hook runs and the resumed prompt sees the whole conversation"
	whyAPIErrorReport = "mini-claude reports an API error on stderr with a hint, where Claude Code prints " +
		"\"API Error: …\" on stdout: the headless error report's matter; the exit code is compared"
	whyNoRetryOf400 = "Claude Code sent the refused first request 6 times, mini-claude does not send a 400 again " +
		"(the API client's matter); the request is the bare prompt in both"
	whyHandBack = "the sub-agent's report reaches the main conversation in mini-claude's own frame " +
		"(the Agent tool's matter); the SubagentStart hooks change none of it"
)

// subAgentDifferences are the deliberate differences of the SubagentStart scenarios.
var subAgentDifferences = []effectDifference{{skip: "Agent results", why: whyHandBack}}

// postCompactDifferences are the deliberate differences of the PostCompact scenarios.
var postCompactDifferences = []effectDifference{
	{skip: "stream requests", why: whyNoCompactInP},
	{skip: "stream output", why: whyNoCompactInP},
	{skip: "after requests", why: whyNoCompactInP},
	{skip: "fired", why: whyNoCompactInP},
	{skip: "after output", why: "mini-claude notes on stderr the session -p --resume resumed (the resume's matter, not the hooks')"},
}

// stopFailureDifferences are the deliberate differences of the StopFailure scenarios.
var stopFailureDifferences = []effectDifference{
	{skip: "stream requests", why: whyNoRetryOf400},
	{skip: "stream output", why: whyAPIErrorReport},
	{skip: "stream_hook_events output", why: whyAPIErrorReport},
	{skip: "text output", why: whyAPIErrorReport},
}

// effectDifferences are the deliberate differences, per scenario; <cwd> is
// the project.
var effectDifferences = map[string][]effectDifference{
	"pre_allow_vs_deny_rule": {{
		recorded: "Permission to use Bash with command touch denied.txt has been denied.",
		ours:     "Permission for the command `touch denied.txt` has been denied by the rule Bash(touch:*) (from <cwd>/.claude/settings.json).",
		why:      "mini-claude's refusals by a rule name the rule and its file; the hook's allow loses to the deny rule as in Claude Code",
	}},
	"permission_request_exit2":  {bashRefusal},
	"permission_request_stdout": {bashRefusal},
	"permission_request_write": {{
		recorded: "Claude requested permissions to write to <cwd>/new.txt, but you haven't granted it yet.",
		ours:     engineRefusal("Write", "Writing <cwd>/new.txt (by Write) needs approval."),
		why:      whyEngineWording,
	}},
	"post_compact_auto": {
		{skip: "stream_hook_events requests", why: "mini-claude does not compact when the API refuses a prompt as too long " +
			"(the compaction's matter, not the hooks'), so the replay serves the next turn in place of that 400"},
		{skip: "fired", why: "no compaction, so no PreCompact, PostCompact or SessionStart compact hook runs: see the requests"},
	},
	"post_compact_exit2":          postCompactDifferences,
	"post_compact_stdout":         postCompactDifferences,
	"post_compact_system_message": postCompactDifferences,
	"stop_failure":                stopFailureDifferences,
	"stop_failure_output": append(slices.Clone(stopFailureDifferences), effectDifference{skip: "fired",
		why: "Claude Code does not wait for StopFailure hooks: in one of the three recorded runs it exited before the logging " +
			"hook wrote (stop_failure's three runs logged three times); mini-claude waits for them, TestStopFailureHooksRunButAreNotReported"}),
	"subagent_start_context":        subAgentDifferences,
	"subagent_start_exit2":          subAgentDifferences,
	"subagent_start_stdout":         subAgentDifferences,
	"subagent_start_system_message": subAgentDifferences,
}

// bashRefusal is the refusal of `touch denied.txt` in -p.
var bashRefusal = effectDifference{
	recorded: "touch in '<cwd>/denied.txt' needs approval. The path is inside the working directories for this session ('<cwd>'), " +
		"and Claude Code asks before a shell command creates, changes or removes files there.",
	ours: engineRefusal("Bash", "The command `touch denied.txt` (by Bash) needs approval."),
	why:  whyEngineWording,
}

// expected replaces the recorded texts mini-claude words otherwise.
func (sc *effectScenario) expected(text string) string {
	for _, d := range effectDifferences[sc.name] {
		if d.skip == "" {
			text = strings.ReplaceAll(text, strings.ReplaceAll(d.recorded, "<cwd>", sc.proj), strings.ReplaceAll(d.ours, "<cwd>", sc.proj))
		}
	}
	return text
}

// skips says whether the comparison what is left out in this scenario.
func (sc *effectScenario) skips(what string) bool {
	for _, d := range effectDifferences[sc.name] {
		if d.skip == what {
			return true
		}
	}
	return false
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

// recordedRequests reads a requests file as the model read it, Claude
// Code's standard reminders (elided by the recorder, and the tokens left at
// the end of a message's last tool result) out. A message's content may be
// one string, and a tool_result's an array of text blocks.
func recordedRequests(t *testing.T, path, cwd string) [][]seenMessage {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	data = []byte(strings.ReplaceAll(string(data), "<cwd>", cwd))
	var reqs []struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
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
			var text string
			if json.Unmarshal(m.Content, &text) == nil {
				sm.Blocks = append(sm.Blocks, seenBlock{Type: "text", Text: text})
				msgs = append(msgs, sm)
				continue
			}
			var content []json.RawMessage
			if err := json.Unmarshal(m.Content, &content); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			for _, raw := range content {
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
					sm.Blocks = append(sm.Blocks, seenBlock{Type: "tool_result", ID: b.ToolUseID, Text: recordedResultText(t, path, b.Content), IsError: b.IsError})
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

// recordedResultText is a recorded tool_result's content as one text, the
// tokens-left reminder out: a string ending with it, or text blocks, the
// last of them the reminder alone.
func recordedResultText(t *testing.T, path string, content json.RawMessage) string {
	t.Helper()
	var text string
	if json.Unmarshal(content, &text) == nil {
		return strings.TrimSuffix(text, tokensLeft)
	}
	var blocks []struct {
		Type, Text string
	}
	if err := json.Unmarshal(content, &blocks); err != nil {
		t.Fatalf("%s: a tool_result's content: %v: %s", path, err, content)
	}
	var texts []string
	for _, b := range blocks {
		if b.Type != "text" {
			t.Fatalf("%s: a tool_result block %q", path, b.Type)
		}
		if b.Text != strings.TrimPrefix(tokensLeft, "\n\n") {
			texts = append(texts, b.Text)
		}
	}
	return strings.TrimRight(strings.Join(texts, "\n"), " \t\n")
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
// the end of each message's last tool result trimmed: Claude Code trims it
// where it appends its tokens-left reminder, which mini-claude does not send. (mini-claude's first
// message holds no standard reminders: what it tells of the environment is
// in the system prompt.)
func sentRequests(t *testing.T, reqs []llmtest.Request) [][]seenMessage {
	t.Helper()
	var out [][]seenMessage
	for _, req := range reqs {
		var msgs []seenMessage
		for _, m := range req.Messages {
			sm := seenMessage{Role: string(m.Role)}
			last := -1
			for i, b := range m.Content {
				if b.Type == llm.BlockToolResult {
					last = i
				}
			}
			for i, b := range m.Content {
				switch b.Type {
				case llm.BlockText:
					sm.Blocks = append(sm.Blocks, seenBlock{Type: "text", Text: b.Text})
				case llm.BlockToolUse:
					sm.Blocks = append(sm.Blocks, seenBlock{Type: "tool_use", ID: b.ID, Name: b.Name, Input: canonicalJSON(t, b.Input)})
				case llm.BlockToolResult:
					text := contentText(b)
					if i == last {
						text = strings.TrimRight(text, " \t\n")
					}
					sm.Blocks = append(sm.Blocks, seenBlock{Type: "tool_result", ID: b.ToolUseID, Text: text, IsError: b.IsError})
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
				if d.skip != "" {
					t.Logf("%s not compared: %s", d.skip, d.why)
				} else {
					t.Logf("different on purpose: %s", d.why)
				}
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
// each run's exit code and output, and what the model read in the runs whose
// requests were recorded. A run with --resume <session_id> resumes the
// session of the run before it.
func (sc *effectScenario) replay(t *testing.T, r *run) {
	t.Helper()
	var runs []effectRun
	data, err := os.ReadFile(filepath.Join(sc.dir, "runs.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &runs); err != nil {
		t.Fatal(err)
	}
	r.srv.ServeByHistory(sc.turns(t, runs)...)
	if strings.HasPrefix(sc.name, "subagent_start_") {
		// The sub-agent's script, as the recorder's (record/events_effects.go):
		// Claude Code does not print the sub-agent's answer.
		r.srv.Route(func(req llmtest.Request) bool { return strings.Contains(firstUserText(req), "SUBAGENT:") }, text("The sub-agent is done."))
	}
	placeholders := strings.NewReplacer("<cwd>", sc.proj, "<home>", r.envValue("HOME"))
	session := ""
	for _, want := range runs {
		before := len(r.srv.Requests())
		args := slices.Clone(want.Args)
		if i := slices.Index(args, "<session_id>"); i >= 0 {
			args[i] = session
		}
		out := r.exec(args...)
		if id := sessionOf(out.stdout); id != "" {
			session = id
		}
		if !sc.skips(want.Run + " output") {
			if out.code != want.ExitCode {
				t.Errorf("%s: exit %d, want %d (stderr %q)", want.Run, out.code, want.ExitCode, out.stderr)
			}
			if w := sc.expected(placeholders.Replace(want.Stderr)); out.stderr != w {
				t.Errorf("%s: stderr\n got %q\nwant %q", want.Run, out.stderr, w)
			}
			if want.Stdout != nil && out.stdout != sc.expected(*want.Stdout) {
				t.Errorf("%s: stdout\n got %q\nwant %q", want.Run, out.stdout, *want.Stdout)
			}
		} else if out.code != want.ExitCode {
			t.Errorf("%s: exit %d, want %d (stderr %q)", want.Run, out.code, want.ExitCode, out.stderr)
		}
		file := "requests_" + want.Run + ".json"
		if want.Run == "stream" {
			file = "requests.json"
		}
		if _, err := os.Stat(filepath.Join(sc.dir, file)); err != nil || sc.skips(want.Run+" requests") {
			continue
		}
		wantReqs := recordedRequests(t, filepath.Join(sc.dir, file), sc.proj)
		for _, msgs := range wantReqs {
			for _, m := range msgs {
				for i := range m.Blocks {
					m.Blocks[i].Text = sc.expected(m.Blocks[i].Text)
				}
			}
		}
		got := sentRequests(t, r.srv.Requests()[before:])
		if sc.skips("Agent results") {
			got, wantReqs = withoutAgentResults(got), withoutAgentResults(wantReqs)
		}
		for _, d := range requestDiffs(got, wantReqs) {
			t.Errorf("%s: %s", want.Run, d)
		}
	}
}

// turns are the model's recorded turns, run after run, from each run's
// stream (<run>.jsonl; the stream run's stream.jsonl, or the one with hook
// events when it alone was kept). A turn that ended on an API error
// (Claude Code's synthetic message) is served as that error.
func (sc *effectScenario) turns(t *testing.T, runs []effectRun) []llmtest.Turn {
	t.Helper()
	var turns []llmtest.Turn
	for _, run := range runs {
		file := run.Run + ".jsonl"
		if run.Run == "stream_hook_events" || run.Run == "text" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(sc.dir, file))
		if err != nil {
			t.Fatal(err)
		}
		stream := parseJSONL(t, file, []byte(strings.ReplaceAll(string(data), "<cwd>", sc.proj)))
		var kept []map[string]any
		for _, ev := range stream {
			if msg, ok := ev["message"].(map[string]any); ok && ev["type"] == "assistant" && msg["model"] == "<synthetic>" {
				turns = append(turns, apiErrorTurn(t, stream))
				continue
			}
			kept = append(kept, ev)
		}
		turns = append(turns, recordedTurns(t, kept)...)
	}
	if len(turns) == 0 {
		data, err := os.ReadFile(filepath.Join(sc.dir, "stream_hook_events.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		turns = recordedTurns(t, parseJSONL(t, "stream_hook_events.jsonl", data))
	}
	return turns
}

// apiErrorTurn is the API error a recorded run ended on ("API Error: 400
// Bad request on purpose" in its result), served to every run.
func apiErrorTurn(t *testing.T, stream []map[string]any) llmtest.Turn {
	t.Helper()
	for _, ev := range stream {
		if ev["type"] != "result" {
			continue
		}
		var status int
		var message string
		result, _ := ev["result"].(string)
		if _, err := fmt.Sscanf(result, "API Error: %d", &status); err != nil {
			t.Fatalf("a result that is no API error: %q", result)
		}
		_, message, _ = strings.Cut(strings.TrimPrefix(result, "API Error: "), " ")
		faults := make([]llmtest.Fault, 60)
		for i := range faults {
			faults[i] = llmtest.Fault{Status: status, Message: message}
		}
		return llmtest.Turn{Faults: faults, Blocks: text("never served").Blocks}
	}
	t.Fatal("a synthetic message without a result")
	return llmtest.Turn{}
}

// sessionOf is the session id a stream-json run printed, or "".
func sessionOf(stdout string) string {
	for _, line := range strings.Split(stdout, "\n") {
		var ev struct {
			SessionID string `json:"session_id"`
		}
		if json.Unmarshal([]byte(line), &ev) == nil && ev.SessionID != "" {
			return ev.SessionID
		}
	}
	return ""
}

// firstUserText is the text of a request's first message.
func firstUserText(req llmtest.Request) string {
	if len(req.Messages) == 0 {
		return ""
	}
	var texts []string
	for _, b := range req.Messages[0].Content {
		texts = append(texts, b.Text)
	}
	return strings.Join(texts, "\n")
}

// withoutAgentResults blanks the text of the results of Agent calls.
func withoutAgentResults(reqs [][]seenMessage) [][]seenMessage {
	for _, msgs := range reqs {
		agents := map[string]bool{}
		for _, m := range msgs {
			for i, b := range m.Blocks {
				if b.Type == "tool_use" && b.Name == "Agent" {
					agents[b.ID] = true
				}
				if b.Type == "tool_result" && agents[b.ID] {
					m.Blocks[i].Text = "(the sub-agent's report, not compared)"
				}
			}
		}
	}
	return reqs
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
	if want, err := os.ReadFile(filepath.Join(sc.dir, "fired.txt")); err == nil && !sc.skips("fired") {
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

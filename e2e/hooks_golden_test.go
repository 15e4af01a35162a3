package e2e

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/hooks"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// What mini-claude's hooks read on stdin, against what Claude Code 2.1.332
// sent for the same session (testdata/hooks/events, see its README): the
// recorded session is played through the binary, with the recorded prompts
// and model turns and a logging hook on every event of hooks.Events, and each
// input is compared with the recorded one: the same keys in the same order,
// the same JSON types and the same values once the volatile ones are
// replaced by the recorder's placeholders.
//
// mini-claude keeps its transcripts where Claude Code keeps its own, under
// its own folder: <MINI_CLAUDE_HOME>/projects/<cwd_slug>/<session_id>.jsonl
// (MINI_CLAUDE_HOME is ~/.mini-claude by default) for Claude Code's
// ~/.claude/projects/<cwd_slug>/<session_id>.jsonl, and a sub-agent's in
// <session_id>/subagents/agent-<agent_id>.jsonl beside it. The comparison
// reads <MINI_CLAUDE_HOME> as <home>/.claude.

// goldenModel is the model of the recorded runs.
const goldenModel = "claude-sonnet-4-5-20250929"

// goldenEventsDir holds the recorded session; goldenTUIDir the recorded
// interactive session; goldenResumeDir the session resumed around its
// compactions, headless and in the UI.
var (
	goldenEventsDir = filepath.Join("testdata", "hooks", "events")
	goldenTUIDir    = filepath.Join(goldenEventsDir, "tui")
	goldenResumeDir = filepath.Join(goldenEventsDir, "resume")
)

// notFired are the recorded events mini-claude does not fire, with why; an
// event of hooks.Events is compared whatever this says.
var notFired = map[string]string{
	"PostToolBatch":       "no batch-level hook event in mini-claude",
	"PermissionRequest":   "no PermissionRequest event in mini-claude",
	"SubagentStart":       "no SubagentStart event in mini-claude",
	"PostCompact":         "no PostCompact event in mini-claude",
	"UserPromptExpansion": "mini-claude has no custom slash commands to expand",
	"TaskCreated":         "mini-claude has TodoWrite, not Claude Code's task tools",
	"TaskCompleted":       "mini-claude has TodoWrite, not Claude Code's task tools",
	"InstructionsLoaded":  "mini-claude fires no event when it reads CLAUDE.md",
	"MessageDisplay":      "mini-claude fires no event per text shown",
}

// recordedElsewhere are events of hooks.Events that a recording holds in
// another folder than the one being compared, with where. Claude Code fired
// none of them in the recording compared, so mini-claude must fire none in
// its replay.
var recordedElsewhere = map[string]map[string]string{
	goldenEventsDir: {
		"Notification": "fires only in the UI: compared in the tui subtest against events/tui/Notification.json",
		"StopFailure":  "fires when a turn ends on an API error, which the recorded session has none of (effects/stop_failure)",
	},
	goldenResumeDir: {
		"PreToolUse":          "the resumed session calls no tool: compared in the session subtest",
		"PostToolUse":         "the resumed session calls no tool: compared in the session subtest",
		"PostToolUseFailure":  "the resumed session calls no tool: compared in the session subtest",
		"Notification":        "fires only on a permission dialog or when idle: compared in the tui subtest",
		"StopFailure":         "fires when a turn ends on an API error, which the recorded session has none of (effects/stop_failure)",
		"PostToolBatch":       "the resumed session calls no tool: compared in the session and tui subtests",
		"PermissionRequest":   "the resumed session calls no tool: compared in the session and tui subtests",
		"SubagentStart":       "the resumed session starts no sub-agent (Claude Code's compaction sub-agent fires SubagentStop alone): compared in the session subtest",
		"UserPromptExpansion": "the resumed session runs no custom command: compared in the session subtest",
		"InstructionsLoaded":  "the resumed project has no CLAUDE.md: compared in the session subtest",
	},
	goldenTUIDir: {
		"StopFailure":         "fires when a turn ends on an API error, which the recorded session has none of (effects/stop_failure)",
		"PostToolUseFailure":  "the recorded UI session has no failing call: compared in the session subtest",
		"SubagentStop":        "the recorded UI session starts no sub-agent: compared in the session subtest",
		"PreCompact":          "the recorded UI session does not compact: compared in the session subtest",
		"PostCompact":         "the recorded UI session does not compact: compared in the session and resume subtests",
		"SubagentStart":       "the recorded UI session starts no sub-agent: compared in the session subtest (events/SubagentStart.json)",
		"UserPromptExpansion": "the recorded UI session runs no custom command: compared in the session subtest (events/UserPromptExpansion.json)",
		"InstructionsLoaded":  "the recorded UI project has no CLAUDE.md: compared in the session subtest (events/InstructionsLoaded.json)",
	},
}

// leftOut says why a recorded input has no counterpart in the replay, or "".
func leftOut(e recordedInput) string {
	switch {
	case taskTool(e.input.get("tool_name").text()), taskTool(e.input.get("tool_calls").first().get("tool_name").text()):
		return "mini-claude has TodoWrite in place of TaskCreate/TaskUpdate: those two calls are left out of the model's script"
	case e.event == hooks.SubagentStop && e.input.get("agent_type").text() == "":
		return "Claude Code writes the /compact summary in a sub-agent and fires SubagentStop for it; mini-claude's summary is a request of the session itself"
	}
	return ""
}

// taskTool reports whether name is one of Claude Code's task tools, which
// mini-claude does not have.
func taskTool(name string) bool { return name == "TaskCreate" || name == "TaskUpdate" }

// expected is the input mini-claude sends in place of a recorded one where it
// differs on purpose: the reasons are in the cases.
func expected(e recordedInput, inUI bool) *ordered {
	in := e.input
	switch {
	case e.event == hooks.SessionEnd && inUI && in.get("reason").text() == "other":
		// The compact and clear runs are played in the UI, mini-claude's only
		// place for /compact and /clear, and left with /exit: the reason is
		// prompt_input_exit, as events/tui/SessionEnd.json records for /exit.
		return in.with("reason", &ordered{kind: 's', str: "prompt_input_exit"})
	case e.event == hooks.SessionStart && e.run == "clear" && in.get("source").text() == "resume":
		// This resume follows the /compact run. Claude Code's compaction kept
		// the last messages of the conversation, an assistant response among
		// them, which its resume fields describe; mini-claude's keeps only the
		// summary, so the resumed conversation has no last response and, as
		// Claude Code does for a transcript without one, the input has no
		// resume fields.
		return in.without("seconds_since_last_response", "context_tokens", "prompt_cache_likely_expired", "estimated_cache_write_usd")
	case e.event == hooks.PermissionRequest:
		// The suggestions are what the permission dialog offers to remember:
		// mini-claude's offers the rule for the command's first word, where
		// Claude Code's offers the project folder and acceptEdits
		// (TestPermissionRequestStdinIsClaudeCodes checks the shape).
		word, _, _ := strings.Cut(in.get("tool_input").get("command").text(), " ")
		rule, err := parseOrdered([]byte(`[{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"` + word + `:*"}],"behavior":"allow","destination":"localSettings"}]`))
		if err != nil {
			panic(err)
		}
		return in.with("permission_suggestions", rule)
	}
	return in
}

// agentResponseKeys are the keys of the Agent tool's result (PostToolUse's
// tool_response) that mini-claude's has too, which are compared. Its
// sub-agents keep no harness notes (harnessNoteCount, harnessTailCount,
// harnessSectionHash), cannot be continued with SendMessage
// (canContinueAgent) and count no tools by kind (toolsUsed, toolStats); its
// usage sums the sub-agent's requests, with their cost (costUSD), where
// Claude Code's is the last response's as the API reported it.
var agentResponseKeys = []string{"status", "prompt", "agentId", "agentType", "content", "resolvedModel",
	"totalDurationMs", "totalTokens", "totalToolUseCount"}

// ownResultText are the calls of the recorded session whose result, which
// PostToolBatch's tool_response carries as the model gets it, is worded by
// mini-claude, with why; that tool_response is not compared.
var ownResultText = map[string]string{
	"toolu_llmtest_6_0": "the Bash call refused in -p: mini-claude's refusal says how to allow it (--allowedTools), Claude Code's explains its path check",
	"toolu_llmtest_9_0": "the Agent call: the sub-agent's hand-back frame is mini-claude's own (internal/tools/subagent/testdata), and a lone text result goes to the model as a string, where Claude Code sends this one as a text block",
}

// comparable is an input as compared: an Agent call's tool_response cut to
// agentResponseKeys, and PostToolBatch's tool_response of the calls of
// ownResultText replaced by a marker.
func comparable(v *ordered) *ordered {
	if calls := v.get("tool_calls"); calls != nil && calls.kind == 'a' {
		cut := &ordered{kind: 'a'}
		for _, c := range calls.vals {
			if why := ownResultText[c.get("tool_use_id").text()]; why != "" {
				c = c.with("tool_response", &ordered{kind: 's', str: "<not compared: " + why + ">"})
			}
			cut.vals = append(cut.vals, c)
		}
		return v.with("tool_calls", cut)
	}
	resp := v.get("tool_response")
	if v.get("tool_name").text() != "Agent" || resp == nil || resp.kind != 'o' {
		return v
	}
	cut := &ordered{kind: 'o'}
	for i, k := range resp.keys {
		if slices.Contains(agentResponseKeys, k) {
			cut.keys, cut.vals = append(cut.keys, k), append(cut.vals, resp.vals[i])
		}
	}
	return v.with("tool_response", cut)
}

// uiRuns are the recorded runs played in the UI rather than with -p.
var uiRuns = map[string]bool{"compact": true, "clear": true, "tui": true}

// envChecked are the variables of events/env.json whose values are compared;
// envNotSet those mini-claude does not set, with why. The others are the
// recorder's own environment, passed through.
var (
	envChecked = []string{"CLAUDE_PROJECT_DIR"}
	envNotSet  = map[string]string{
		"ANTHROPIC_API_KEY":                  "mini-claude keeps the API keys it uses from hooks (README, Hooks)",
		"AI_AGENT":                           "Claude Code's own marker",
		"CLAUDECODE":                         "Claude Code's own marker",
		"CLAUDE_CODE_ENTRYPOINT":             "Claude Code's own marker",
		"CLAUDE_CODE_SESSION_ATTENDED":       "Claude Code's own marker",
		"CLAUDE_CODE_CHILD_SESSION":          "Claude Code's own marker",
		"CLAUDE_CODE_CHILD_NOTES_DIR":        "Claude Code's own child-process notes",
		"CLAUDE_CODE_MESSAGING_SOCKET":       "Claude Code's messaging socket, which mini-claude does not have",
		"CLAUDE_CODE_MESSAGING_TOKEN":        "Claude Code's messaging socket, which mini-claude does not have",
		"CLAUDE_CODE_SESSION_ID":             "the session id is on the hook's stdin",
		"CLAUDE_PID":                         "Claude Code's process id",
		"CLAUDE_ENV_FILE":                    "mini-claude does not read variables that SessionStart hooks write to a file",
		"COREPACK_ENABLE_AUTO_PIN":           "Claude Code's setting for Node tools",
		"NoDefaultCurrentDirectoryInExePath": "Claude Code's setting for Windows shells",
	}
)

func TestHookInputsMatchClaudeCode(t *testing.T) {
	t.Run("session", testGoldenSession)
	t.Run("tui", testGoldenTUI)
	t.Run("resume", testGoldenResume)
}

// headlessRun runs the binary with -p as the recorder ran Claude Code, and
// returns the session id.
func headlessRun(t *testing.T, r *run, prompt string, more ...string) string {
	t.Helper()
	args := append([]string{"-p", prompt, "--output-format", "stream-json", "--verbose", "--include-hook-events", "--model", goldenModel}, more...)
	out := r.exec(args...)
	if out.code != 0 {
		t.Fatalf("%v: exit %d: %s", args, out.code, out.stderr)
	}
	id, _ := lines(t, out.stdout)[0]["session_id"].(string)
	return id
}

// uiCommand opens the UI on session id, types command (/compact, /clear),
// waits for shown, and leaves with /exit: mini-claude's /compact and /clear
// are the UI's.
func uiCommand(t *testing.T, r *run, id, command, shown string) {
	t.Helper()
	s := openScreen(t, r, "--resume", id, "--model", goldenModel)
	s.typeLine(command)
	s.waitFor(shown)
	s.typeLine("/exit")
	if !s.exited() {
		t.Fatalf("/exit did not leave the UI after %s", command)
	}
}

// testGoldenSession plays the recorded session: startup, --resume with a
// prompt and --resume with the custom command /greet headless, then /compact and /clear in the UI opened with --resume.
func testGoldenSession(t *testing.T) {
	r := newRun(t)
	log := newHookLog(t, r, []string{"Bash(exit 1)", "Edit", "Write"})
	writeSettings(t, r.dir, "a.txt", "hello\n")
	writeSettings(t, r.dir, "CLAUDE.md", "# Notes\n\nKeep answers short.\n")
	writeSettings(t, r.dir, ".claude/commands/greet.md", "Say hello to $ARGUMENTS.\n")
	r.trust(false)
	recorded := readRecorded(t, goldenEventsDir)

	startup := readRecordedStream(t, filepath.Join(goldenEventsDir, "stream", "startup.jsonl"), r.dir)
	r.srv.Push(sessionTurns(t, startup, recorded)...)
	r.srv.Push(recordedTurns(t, readRecordedStream(t, filepath.Join(goldenEventsDir, "stream", "resume.jsonl"), r.dir))...)
	r.srv.Push(recordedTurns(t, readRecordedStream(t, filepath.Join(goldenEventsDir, "stream", "command.jsonl"), r.dir))...)
	r.srv.Push(text(recordedOne(t, recorded, "PostCompact").get("compact_summary").text()))

	id := headlessRun(t, r, "Run the hook session.")
	log.endPhase("startup")
	headlessRun(t, r, "Resume the hook session.", "--resume", id)
	log.endPhase("resume")
	headlessRun(t, r, "/greet world", "--resume", id)
	log.endPhase("command")
	uiCommand(t, r, id, "/compact", "Conversation compacted: ")
	log.endPhase("compact")
	uiCommand(t, r, id, "/clear", "Started a new conversation.")
	log.endPhase("clear")
	compareGolden(t, goldenEventsDir, recorded, log, r)
}

// testGoldenResume plays the session resumed around its compactions: a
// prompt headless, /compact in the UI, a prompt resumed headless after it,
// then the UI opened on the session and /compact there.
func testGoldenResume(t *testing.T) {
	r := newRun(t)
	log := newHookLog(t, r, []string{})
	r.trust(false)
	recorded := readRecorded(t, goldenResumeDir)
	summary := text(recordedOne(t, recorded, "PostCompact").get("compact_summary").text())
	stream := func(run string) []llmtest.Turn {
		return recordedTurns(t, readRecordedStream(t, filepath.Join(goldenResumeDir, "stream", run+".jsonl"), r.dir))
	}
	r.srv.Push(stream("startup")...)
	r.srv.Push(summary)
	r.srv.Push(stream("after")...)
	r.srv.Push(summary)

	id := headlessRun(t, r, recordedOne(t, recorded, "UserPromptSubmit").get("prompt").text())
	log.endPhase("startup")
	uiCommand(t, r, id, "/compact", "Conversation compacted: ")
	log.endPhase("compact")
	headlessRun(t, r, "Go on after the compaction.", "--resume", id)
	log.endPhase("after")
	uiCommand(t, r, id, "/compact", "Conversation compacted: ")
	log.endPhase("tui")
	compareGolden(t, goldenResumeDir, recorded, log, r)
}

// testGoldenTUI plays the recorded interactive session: a prompt, a Bash
// call waiting at the permission dialog until Notification fires, approved,
// the idle Notification, /exit.
func testGoldenTUI(t *testing.T) {
	r := newRun(t)
	log := newHookLog(t, r, []string{})
	r.trust(false)
	r.setenv("MINI_CLAUDE_PERMISSION_NOTIFY_MS=300")
	r.setenv("MINI_CLAUDE_IDLE_NOTIFY_MS=300")
	recorded := readRecorded(t, goldenTUIDir)
	pre := recordedOne(t, recorded, "PreToolUse")
	r.srv.Push(calls(llmtest.ToolUse(pre.get("tool_use_id").text(), pre.get("tool_name").text(), pre.get("tool_input").render())),
		text(recordedOne(t, recorded, "Stop").get("last_assistant_message").text()))
	s := openScreen(t, r, "--model", goldenModel)
	s.typeLine(recordedOne(t, recorded, "UserPromptSubmit").get("prompt").text())
	log.waitFor(hooks.Notification, 1)
	s.run("send-keys", "-t", "0", "-l", "1")
	log.waitFor(hooks.Notification, 2)
	s.typeLine("/exit")
	if !s.exited() {
		t.Fatal("/exit did not leave the UI")
	}
	log.endPhase("tui")
	compareGolden(t, goldenTUIDir, recorded, log, r)
}

// recordedInput is one recorded hook input, with the run of order.txt it
// belongs to.
type recordedInput struct {
	run, event string
	input      *ordered
}

// readRecorded reads a recording's inputs in the order order.txt gives them.
func readRecorded(t *testing.T, dir string) []recordedInput {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "order.txt"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]*ordered{}
	seen := map[string]int{}
	var out []recordedInput
	run := ""
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if rest, ok := strings.CutPrefix(line, "== run "); ok {
			run, _, _ = strings.Cut(rest, ":")
			continue
		}
		event, _, _ := strings.Cut(line, " ")
		if _, ok := files[event]; !ok {
			raw, err := os.ReadFile(filepath.Join(dir, event+".json"))
			if err != nil {
				t.Fatalf("order.txt names %s: %v", event, err)
			}
			v, err := parseOrdered(raw)
			if err != nil {
				t.Fatalf("%s.json: %v", event, err)
			}
			files[event] = v.vals
		}
		i := seen[event]
		seen[event]++
		if i >= len(files[event]) {
			t.Fatalf("order.txt has more %s lines than %s.json has inputs", event, event)
		}
		out = append(out, recordedInput{run: run, event: event, input: files[event][i]})
	}
	return out
}

// recordedOne is the first recorded input of event.
func recordedOne(t *testing.T, recorded []recordedInput, event string) *ordered {
	t.Helper()
	for _, e := range recorded {
		if e.event == event {
			return e.input
		}
	}
	t.Fatalf("the recording has no %s input", event)
	return nil
}

// readRecordedStream reads a recorded run's stream-json output with the
// project's placeholder replaced by the replay's project.
func readRecordedStream(t *testing.T, path, cwd string) []map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return lines(t, strings.TrimSpace(strings.ReplaceAll(string(data), "<cwd>", cwd)))
}

// sessionTurns are the model's turns of the startup run: the stream's
// assistant messages without the task-tool calls (see leftOut), and, after
// the sub-agent's calls, its closing answer, which the stream does not show
// (SubagentStop's last_assistant_message).
func sessionTurns(t *testing.T, stream []map[string]any, recorded []recordedInput) []llmtest.Turn {
	t.Helper()
	inSub := func(ev map[string]any) bool { return ev["type"] == "assistant" && ev["parent_tool_use_id"] != nil }
	first := slices.IndexFunc(stream, inSub)
	if first < 0 {
		t.Fatal("the recorded stream shows no sub-agent turn")
	}
	last := first
	for i := range stream {
		if inSub(stream[i]) {
			last = i
		}
	}
	answer := text(recordedOne(t, recorded, "SubagentStop").get("last_assistant_message").text())
	turns := slices.Concat(recordedTurns(t, stream[:first]), recordedTurns(t, stream[first:last+1]),
		[]llmtest.Turn{answer}, recordedTurns(t, stream[last+1:]))
	return slices.DeleteFunc(turns, func(turn llmtest.Turn) bool {
		b := turn.Blocks[0]
		return b.Type == llm.BlockToolUse && (b.Name == "TaskCreate" || b.Name == "TaskUpdate")
	})
}

// hookLog is where the logging hook writes each input, one file per hook run
// named after its start, with the event, the working directory and the
// environment.
type hookLog struct {
	t      *testing.T
	dir    string
	phases []loggedPhase
	taken  int
}

// loggedPhase is the inputs logged while one recorded run was replayed.
type loggedPhase struct {
	run    string
	inputs []loggedInput
}

// loggedInput is one hook run as the logging hook saw it.
type loggedInput struct {
	event, cwd string
	env        map[string]string
	stdin      []byte
}

// newHookLog writes the project's settings: the permission rules allow and a
// logging hook for every event mini-claude fires.
func newHookLog(t *testing.T, r *run, allow []string) *hookLog {
	t.Helper()
	l := &hookLog{t: t, dir: t.TempDir()}
	script := filepath.Join(t.TempDir(), "log-hook")
	body := "#!/bin/sh\nf=" + shellQuote(l.dir) + "/$(date +%s%N).$$\n" +
		"{ printf '%s\\n' \"$1\"; pwd -P; env -0 | base64 -w0; printf '\\n'; cat; } > \"$f.part\" && mv \"$f.part\" \"$f.hook\"\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	var groups []string
	for _, event := range hooks.Events {
		command := fmt.Sprintf("%q", shellQuote(script)+" "+event)
		groups = append(groups, fmt.Sprintf(`%q: [{"hooks": [{"type": "command", "command": %s}]}]`, event, command))
	}
	rules := `"allow": [` + strings.Join(quoteAll(allow), ", ") + `]`
	writeSettings(t, r.dir, ".claude/settings.json", `{"permissions": {`+rules+`}, "hooks": {`+strings.Join(groups, ", ")+`}}`)
	return l
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}

// read returns every input logged so far, in the order the hooks started.
func (l *hookLog) read() []loggedInput {
	l.t.Helper()
	names, err := filepath.Glob(filepath.Join(l.dir, "*.hook"))
	if err != nil {
		l.t.Fatal(err)
	}
	sort.Strings(names)
	var out []loggedInput
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			l.t.Fatal(err)
		}
		rd := bufio.NewReader(bytes.NewReader(data))
		event, _ := rd.ReadString('\n')
		cwd, _ := rd.ReadString('\n')
		encoded, _ := rd.ReadString('\n')
		rawEnv, err := base64.StdEncoding.DecodeString(strings.TrimSpace(encoded))
		if err != nil {
			l.t.Fatalf("%s: the environment: %v", name, err)
		}
		env := map[string]string{}
		for _, kv := range strings.Split(string(rawEnv), "\x00") {
			if k, v, ok := strings.Cut(kv, "="); ok {
				env[k] = v
			}
		}
		var stdin bytes.Buffer
		rd.WriteTo(&stdin)
		out = append(out, loggedInput{event: strings.TrimSpace(event), cwd: strings.TrimSpace(cwd), env: env, stdin: stdin.Bytes()})
	}
	return out
}

// waitFor waits until n inputs of event are logged.
func (l *hookLog) waitFor(event string, n int) {
	l.t.Helper()
	deadline := time.Now().Add(screenTimeout)
	for {
		got := 0
		for _, in := range l.read() {
			if in.event == event {
				got++
			}
		}
		if got >= n {
			return
		}
		if time.Now().After(deadline) {
			l.t.Fatalf("%d %s hooks ran, want %d", got, event, n)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// count is the number of inputs of event logged in the phases.
func (l *hookLog) count(event string) int {
	n := 0
	for _, p := range l.phases {
		for _, in := range p.inputs {
			if in.event == event {
				n++
			}
		}
	}
	return n
}

// endPhase gives the inputs logged since the last phase to the recorded run
// they replay.
func (l *hookLog) endPhase(run string) {
	all := l.read()
	l.phases = append(l.phases, loggedPhase{run: run, inputs: all[l.taken:]})
	l.taken = len(all)
}

// compareGolden compares the logged inputs with the recorded ones of the
// runs replayed, event by event, and each event's environment.
func compareGolden(t *testing.T, dir string, recorded []recordedInput, log *hookLog, r *run) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	recordedEvents := map[string]bool{}
	for _, f := range files {
		if name := strings.TrimSuffix(filepath.Base(f), ".json"); name != "env" {
			recordedEvents[name] = true
		}
	}
	for event := range recordedEvents {
		if !slices.Contains(hooks.Events, event) && notFired[event] == "" {
			t.Errorf("%s/%s.json is recorded, but mini-claude does not fire %s and notFired does not say why", dir, event, event)
		}
	}
	played := map[string]bool{}
	for _, p := range log.phases {
		played[p.run] = true
	}
	norm := newGoldenNormalizer(r, log)
	for _, event := range hooks.Events {
		if !recordedEvents[event] {
			if recordedElsewhere[dir][event] == "" {
				t.Errorf("mini-claude fires %s, but %s has no %s.json and recordedElsewhere does not say where it is compared", event, dir, event)
			}
			if n := log.count(event); n > 0 {
				t.Errorf("mini-claude ran %d %s hooks in the replay of %s, where Claude Code ran none", n, event, dir)
			}
			continue
		}
		var want, got []*ordered
		inPlayed := 0
		for _, e := range recorded {
			if e.event != event || !played[e.run] {
				continue
			}
			inPlayed++
			if leftOut(e) == "" {
				want = append(want, comparable(expected(e, uiRuns[e.run])))
			}
		}
		for _, p := range log.phases {
			for _, in := range p.inputs {
				if in.event != event {
					continue
				}
				v, err := parseOrdered(in.stdin)
				if err != nil {
					t.Fatalf("%s input %q: %v", event, in.stdin, err)
				}
				got = append(got, comparable(norm.input(v)))
			}
		}
		if inPlayed == 0 {
			t.Errorf("%s/%s.json is recorded, but none of its inputs belongs to a run replayed here", dir, event)
		}
		renumber(want)
		renumber(got)
		if len(got) != len(want) {
			t.Errorf("%s: %d inputs, Claude Code sent %d:\n got %s\nwant %s", event, len(got), len(want), renderAll(got), renderAll(want))
			continue
		}
		for i := range want {
			if g, w := got[i].render(), want[i].render(); g != w {
				t.Errorf("%s input %d differs from Claude Code's:\n got %s\nwant %s", event, i+1, g, w)
			}
		}
	}
	compareGoldenEnv(t, dir, log, r)
}

func renderAll(vs []*ordered) string {
	var parts []string
	for _, v := range vs {
		parts = append(parts, v.render())
	}
	return "[" + strings.Join(parts, ",\n") + "]"
}

// compareGoldenEnv compares the working directory and environment of each
// event's first hook with events/env.json.
func compareGoldenEnv(t *testing.T, dir string, log *hookLog, r *run) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "env.json"))
	if err != nil {
		t.Fatal(err)
	}
	recordedEnv, err := parseOrdered(data)
	if err != nil {
		t.Fatal(err)
	}
	project, _ := filepath.EvalSymlinks(r.dir)
	ownEnv := map[string]bool{}
	for _, kv := range r.env {
		k, _, _ := strings.Cut(kv, "=")
		ownEnv[k] = true
	}
	first := map[string]loggedInput{}
	for _, p := range log.phases {
		for _, in := range p.inputs {
			if _, ok := first[in.event]; !ok {
				first[in.event] = in
			}
		}
	}
	for i, event := range recordedEnv.keys {
		in, ok := first[event]
		if !ok {
			continue
		}
		rec := recordedEnv.vals[i]
		if rec.get("cwd").text() != "<cwd>" || in.cwd != project {
			t.Errorf("%s hook ran in %q (Claude Code's in %q), want the project %q", event, in.cwd, rec.get("cwd").text(), project)
		}
		recEnv := rec.get("env")
		for j, k := range recEnv.keys {
			switch {
			case slices.Contains(envChecked, k):
				if want := strings.ReplaceAll(recEnv.vals[j].text(), "<cwd>", r.dir); in.env[k] != want {
					t.Errorf("%s hook: %s=%q, want %q", event, k, in.env[k], want)
				}
			case envNotSet[k] != "":
				if v, set := in.env[k]; set {
					t.Errorf("%s hook: %s=%q is set; envNotSet says %s", event, k, v, envNotSet[k])
				}
			case !ownEnv[k] && k != "PWD" && k != "TERM" && k != "COLUMNS" && k != "LINES" &&
				!strings.HasPrefix(k, "DISABLE_") && k != "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC":
				t.Errorf("Claude Code gives its %s hooks %s; neither envChecked nor envNotSet says what mini-claude does", event, k)
			}
		}
		if in.env["MINI_CLAUDE_PROJECT_DIR"] != r.dir {
			t.Errorf("%s hook: MINI_CLAUDE_PROJECT_DIR=%q, want %q", event, in.env["MINI_CLAUDE_PROJECT_DIR"], r.dir)
		}
	}
}

// goldenNormalizer replaces the volatile values of mini-claude's inputs by
// the recorder's placeholders (record/normalize.go): the project <cwd>, its
// slug <cwd_slug>, HOME <home> (and MINI_CLAUDE_HOME <home>/.claude, see the
// top of this file), a UUID by <KEY> after the key it first appears under
// (session ids first), a sub-agent id by <agent_id>, the numbers that
// measure time by 0.
type goldenNormalizer struct {
	paths       *strings.Replacer
	placeholder map[string]string
	count       map[string]int
}

var (
	goldenUUIDRe    = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	goldenAgentIDRe = regexp.MustCompile(`\ba[0-9a-f]{16}\b`)
	goldenDuration  = regexp.MustCompile(`duration_ms: \d+`)
	goldenTimeKeys  = map[string]bool{"duration_ms": true, "durationMs": true, "totalDurationMs": true, "seconds_since_last_response": true}
)

func newGoldenNormalizer(r *run, log *hookLog) *goldenNormalizer {
	home, miniHome := "", ""
	for _, kv := range r.env {
		if v, ok := strings.CutPrefix(kv, "HOME="); ok {
			home = v
		}
		if v, ok := strings.CutPrefix(kv, "MINI_CLAUDE_HOME="); ok {
			miniHome = v
		}
	}
	slug := regexp.MustCompile(`[^a-zA-Z0-9]`).ReplaceAllString(r.dir, "-")
	n := &goldenNormalizer{placeholder: map[string]string{}, count: map[string]int{},
		paths: strings.NewReplacer(miniHome+"/projects/"+slug, "<home>/.claude/projects/<cwd_slug>", r.dir, "<cwd>", home, "<home>")}
	for _, p := range log.phases {
		for _, in := range p.inputs {
			if v, err := parseOrdered(in.stdin); err == nil {
				n.name("session_id", v.get("session_id").text())
			}
		}
	}
	return n
}

func (n *goldenNormalizer) name(key, val string) string {
	if p, ok := n.placeholder[val]; ok {
		return p
	}
	n.count[key]++
	p := "<" + key + ">"
	if c := n.count[key]; c > 1 {
		p = fmt.Sprintf("<%s_%d>", key, c)
	}
	n.placeholder[val] = p
	return p
}

// input normalizes one input in place and returns it.
func (n *goldenNormalizer) input(v *ordered) *ordered {
	v.walk("", func(key string, v *ordered) {
		switch v.kind {
		case 's':
			v.str = n.str(key, v.str)
		case 'n':
			if goldenTimeKeys[key] {
				v.str = "0"
			}
		}
	})
	return v
}

func (n *goldenNormalizer) str(key, s string) string {
	if key == "" {
		key = "uuid"
	}
	if s != "" && goldenUUIDRe.FindString(s) == s {
		return n.name(key, s)
	}
	if s != "" && goldenAgentIDRe.FindString(s) == s {
		return n.name("agent_id", s)
	}
	s = goldenUUIDRe.ReplaceAllStringFunc(s, func(u string) string { return n.name("uuid", u) })
	s = goldenAgentIDRe.ReplaceAllStringFunc(s, func(id string) string { return n.name("agent_id", id) })
	s = goldenDuration.ReplaceAllString(s, "duration_ms: 0")
	return n.paths.Replace(s)
}

// placeholderRe matches the numbered placeholders of ids.
var placeholderRe = regexp.MustCompile(`<(session_id|prompt_id|agent_id|uuid)(?:_\d+)?>`)

// renumber gives the id placeholders of inputs new numbers in the order they
// first appear, so that two lists compare which values are equal, not which
// number each got in its whole file.
func renumber(inputs []*ordered) {
	names := map[string]string{}
	count := map[string]int{}
	for _, in := range inputs {
		in.walk("", func(_ string, v *ordered) {
			if v.kind != 's' {
				return
			}
			v.str = placeholderRe.ReplaceAllStringFunc(v.str, func(p string) string {
				if name, ok := names[p]; ok {
					return name
				}
				base := placeholderRe.FindStringSubmatch(p)[1]
				count[base]++
				names[p] = fmt.Sprintf("<%s#%d>", base, count[base])
				return names[p]
			})
		})
	}
}

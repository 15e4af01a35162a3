package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// The hook runs of PermissionRequest, PostToolBatch and SubagentStart in
// stream-json, against what Claude Code 2.1.332 printed for the same hooks
// and model turns (testdata/hooks/effects/<scenario>/stream*.jsonl). In the
// scenarios whose hooks log, the logging hook appends to a file here.

// eventStreamScenarios are those recorded effects, with the exit code of the run.
var eventStreamScenarios = map[string]int{
	"permission_request_allow": 0, "permission_request_deny": 0, "permission_request_updated_input": 0,
	"permission_request_exit2": 0, "permission_request_stdout": 0, "permission_request_write": 0,
	"post_tool_batch_context": 0, "post_tool_batch_block": 0, "post_tool_batch_exit2": 0, "post_tool_batch_stdout": 0,
	"post_tool_batch_continue_false": 0, "post_tool_batch_two_calls": 0,
	"subagent_start_context": 0, "subagent_start_stdout": 0, "subagent_start_exit2": 0, "subagent_start_system_message": 0,
}

// recordedLogHook is the recorder's logging hook command in a settings.json.
const recordedLogHook = `'<record>' log-hook '<tmp>/hooks.jsonl'`

func TestLaterHookEventsInStreamJSONAreClaudeCodes(t *testing.T) {
	for name, code := range eventStreamScenarios {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join("testdata", "hooks", "effects", name)
			settings, err := os.ReadFile(filepath.Join(dir, "settings.json"))
			if err != nil {
				t.Fatal(err)
			}
			for _, variant := range []struct {
				file  string
				flags []string
			}{{"stream.jsonl", nil}, {"stream_hook_events.jsonl", []string{"--include-hook-events"}}} {
				want := readJSONL(t, filepath.Join(dir, variant.file))
				r := newRun(t)
				log := filepath.Join(t.TempDir(), "hooks.jsonl")
				writeSettings(t, r.dir, ".claude/settings.json", strings.ReplaceAll(string(settings), recordedLogHook, "cat >> '"+log+"'; true"))
				os.WriteFile(filepath.Join(r.dir, "a.txt"), []byte("hello\n"), 0o644)
				r.trust(false)
				turns := recordedTurns(t, want)
				if strings.HasPrefix(name, "subagent_start") {
					// Claude Code does not print the sub-agent's answer.
					turns = slices.Insert(turns, 1, text("The sub-agent is done."))
				}
				r.srv.Push(turns...)
				args := append([]string{"-p", "Do the task.", "--output-format", "stream-json", "--verbose"}, variant.flags...)
				out := r.exec(args...)
				if out.code != code {
					t.Fatalf("%s: exit %d, want %d: %s", variant.file, out.code, code, out.stderr)
				}
				got := mainLines(concurrentRuns(lines(t, out.stdout)))
				want = mainLines(concurrentRuns(want))
				if g, w := kinds(got), kinds(want); !reflect.DeepEqual(g, w) {
					t.Errorf("%s: lines\n got %v\nwant %v", variant.file, g, w)
				}
				if g, w := withoutEngineWording(hookLines(got)), withoutEngineWording(hookLines(want)); !reflect.DeepEqual(g, w) {
					gj, _ := json.MarshalIndent(g, "", " ")
					wj, _ := json.MarshalIndent(w, "", " ")
					t.Errorf("%s: hook lines\n got %s\nwant %s", variant.file, gj, wj)
				}
			}
		})
	}
}

// mainLines leaves out the lines of a stream that are no hook's concern and
// that Claude Code prints otherwise: a sub-agent's own lines and the task_*
// lines that follow a sub-agent.
func mainLines(stream []map[string]any) []map[string]any {
	var out []map[string]any
	for _, ev := range stream {
		subtype, _ := ev["subtype"].(string)
		if ev["parent_tool_use_id"] != nil || ev["type"] == "system" && strings.HasPrefix(subtype, "task_") {
			continue
		}
		out = append(out, ev)
	}
	return out
}

// withoutEngineWording drops the message of the permission_denied lines no
// hook caused: the permission engine's wording is its own matter.
func withoutEngineWording(lines []map[string]any) []map[string]any {
	for _, l := range lines {
		if l["subtype"] == "permission_denied" && l["decision_reason_type"] == nil {
			delete(l, "message")
		}
	}
	return lines
}

func TestAPermissionRequestHookThatInterruptsEndsTheRun(t *testing.T) {
	r := newRun(t)
	writeSettings(t, r.dir, ".claude/settings.json", `{"hooks":{"PermissionRequest":[{"matcher":"Bash","hooks":[{"type":"command",
		"command":"echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PermissionRequest\",\"decision\":{\"behavior\":\"deny\",\"message\":\"Stop right there\",\"interrupt\":true}}}'"}]}]}}`)
	r.trust(false)
	r.srv.Push(calls(bashUse("b1", "touch denied.txt")), text("Done."))
	out := r.exec("-p", "Do the task.", "--output-format", "stream-json", "--verbose")
	if out.code != 1 || len(r.srv.Requests()) != 1 {
		t.Fatalf("exit %d after %d requests, want 1 after the first: %s", out.code, len(r.srv.Requests()), out.stderr)
	}
	var denied, result map[string]any
	for _, ev := range lines(t, out.stdout) {
		switch {
		case ev["subtype"] == "permission_denied":
			denied = ev
		case ev["type"] == "result":
			result = ev
		}
	}
	if denied["message"] != "Stop right there" || denied["decision_reason_type"] != "hook" ||
		result["subtype"] != "error_during_execution" || result["is_error"] != true {
		t.Errorf("permission_denied %v, result %v", denied, result)
	}
	if _, err := os.Stat(filepath.Join(r.dir, "denied.txt")); err == nil {
		t.Error("the refused call ran")
	}
}

// concurrentRuns puts each stretch of hook_started and hook_response lines
// in one order, starts first, then by output: the hooks of one event run in
// parallel, so their lines may change places from one run to the next.
func concurrentRuns(stream []map[string]any) []map[string]any {
	out := slices.Clone(stream)
	isRun := func(ev map[string]any) bool {
		return ev["subtype"] == "hook_started" || ev["subtype"] == "hook_response"
	}
	for i := 0; i < len(out); i++ {
		j := i
		for j < len(out) && isRun(out[j]) {
			j++
		}
		slices.SortStableFunc(out[i:j], func(a, b map[string]any) int {
			if c := strings.Compare(b["subtype"].(string), a["subtype"].(string)); c != 0 {
				return c
			}
			ao, _ := a["output"].(string)
			bo, _ := b["output"].(string)
			return strings.Compare(ao, bo)
		})
		i = max(i, j-1)
	}
	return out
}

func TestStopFailureHooksRunButAreNotReported(t *testing.T) {
	r := newRun(t)
	ran := filepath.Join(t.TempDir(), "ran")
	writeSettings(t, r.dir, ".claude/settings.json", `{"hooks":{"StopFailure":[{"hooks":[{"type":"command",
		"command":"touch '`+ran+`'; echo 'plain stdout from StopFailure'; echo 'StopFailure stderr' >&2; exit 2"}]}]}}`)
	r.trust(false)
	r.srv.Push(llmtest.Turn{Faults: []llmtest.Fault{{Status: 400, Message: "Bad request on purpose"}}})
	out := r.exec("-p", "Do the task.", "--output-format", "stream-json", "--verbose", "--include-hook-events")
	if out.code != 1 || strings.Contains(out.stdout, `"hook_event":"StopFailure"`) {
		t.Errorf("exit %d, stream:\n%s\nwant exit 1 and no StopFailure line", out.code, out.stdout)
	}
	if _, err := os.Stat(ran); err != nil {
		t.Error("the StopFailure hook did not run")
	}
}

// recordedScenarioRequests reads the messages of each model request of a recorded effect.
func recordedScenarioRequests(t *testing.T, scenario string) []struct{ Messages []llm.Message } {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "hooks", "effects", scenario, "requests.json"))
	if err != nil {
		t.Fatal(err)
	}
	var reqs []struct{ Messages []llm.Message }
	if err := json.Unmarshal(data, &reqs); err != nil {
		t.Fatal(err)
	}
	return reqs
}

// replayEffect runs a recorded effect's hooks and model turns headless, with
// extra turns inserted at index 1 (Claude Code does not print a
// sub-agent's answer).
func replayEffect(t *testing.T, scenario string, extra ...llmtest.Turn) *run {
	t.Helper()
	dir := filepath.Join("testdata", "hooks", "effects", scenario)
	settings, err := os.ReadFile(filepath.Join(dir, "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	r := newRun(t)
	writeSettings(t, r.dir, ".claude/settings.json", strings.ReplaceAll(string(settings), recordedLogHook, "true"))
	r.trust(false)
	r.srv.Push(slices.Insert(recordedTurns(t, readJSONL(t, filepath.Join(dir, "stream.jsonl"))), 1, extra...)...)
	if out := r.exec("-p", "Do the task."); out.code != 0 {
		t.Fatalf("exit %d: %s", out.code, out.stderr)
	}
	return r
}

func TestPostToolBatchContextReachesTheModelAsInClaudeCode(t *testing.T) {
	r := replayEffect(t, "post_tool_batch_context")
	recorded := recordedScenarioRequests(t, "post_tool_batch_context")[1].Messages
	want, _, _ := strings.Cut(contentText(recorded[2].Content[0]), "\n\n<system-reminder>\n<total_tokens>")
	if got := contentText(lastResults(t, r.srv, 1)[0]); got != want {
		t.Errorf("tool_result %q, Claude Code's %q", got, want)
	}
}

func TestSubagentStartContextOpensTheSubAgentsMessageAsInClaudeCode(t *testing.T) {
	r := replayEffect(t, "subagent_start_context", text("The sub-agent is done."))
	want := recordedScenarioRequests(t, "subagent_start_context")[1].Messages[0].Content[0].Text
	first := request(t, r.srv, "SUBAGENT:", 0).Messages[0].Content
	if first[0].Text != want {
		t.Errorf("the sub-agent's first block %q, Claude Code's %q", first[0].Text, want)
	}
	if main := request(t, r.srv, "Do the task.", 0).Messages[0].Content; strings.Contains(main[0].Text, "SubagentStart") {
		t.Error("the main conversation got the SubagentStart context")
	}
}

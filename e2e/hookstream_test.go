package e2e

import (
	"bufio"
	"bytes"
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

// The hook runs and notices in stream-json, against what Claude Code
// 2.1.332 printed for the same hooks and the same model turns
// (testdata/hooks/effects/<scenario>/stream*.jsonl).

// streamScenarios are the recorded effects whose stream-json lines
// mini-claude reproduces. Left out: PermissionRequest (no such event here),
// stop_failure, matchers and untrusted (other tests), stop_always_block (the
// cap's text names a variable mini-claude does not read).
var streamScenarios = []string{
	"pre_exit2", "pre_deny", "pre_allow", "pre_ask", "pre_updated_input", "pre_updated_input_no_decision",
	"pre_updated_input_partial", "pre_updated_input_invalid", "pre_allow_vs_deny_rule", "pre_deny_and_allow",
	"pre_exit1", "pre_exit1_stdout", "pre_timeout", "pre_stdout", "pre_continue_false", "pre_system_message",
	"pre_exit2_json_stdout", "post_exit2", "post_block", "post_context", "post_stdout", "post_exit1",
	"post_failure_exit2", "post_failure_context", "prompt_stdout", "prompt_stdout_no_newline", "prompt_context",
	"prompt_exit2", "prompt_block", "prompt_exit1", "session_start_stdout", "session_start_stdout_no_newline",
	"session_start_context", "session_start_exit2", "stop_block", "stop_exit2",
}

// recordedStopScript is the recorder's Stop hook script (record/effects.go)
// without its logging: block runs while stop_hook_active is false.
func recordedStopScript(block string) string {
	return "#!/bin/sh\nin=$(cat)\ncase \"$in\" in\n*'\"stop_hook_active\":false'*) " + block + " ;;\nesac\n"
}

var recordedStopBlocks = map[string]string{
	"stop_block": `echo '{"decision":"block","reason":"Run the tests first"}'`,
	"stop_exit2": `echo 'Tests are failing' >&2; exit 2`,
}

// readJSONL reads a recorded stream file.
func readJSONL(t *testing.T, path string) []map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return parseJSONL(t, path, data)
}

// parseJSONL parses the lines of a stream, path naming it in failures.
func parseJSONL(t *testing.T, path string, data []byte) []map[string]any {
	t.Helper()
	var out []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, m)
	}
	return out
}

// recordedTurns rebuilds the model's turns from the assistant lines of a
// recorded stream: one line per content block, a turn per message id.
func recordedTurns(t *testing.T, stream []map[string]any) []llmtest.Turn {
	t.Helper()
	var turns []llmtest.Turn
	last := ""
	for _, ev := range stream {
		if ev["type"] != "assistant" {
			continue
		}
		msg := ev["message"].(map[string]any)
		if id := msg["id"].(string); id != last {
			turns, last = append(turns, llmtest.Turn{}), id
		}
		block := msg["content"].([]any)[0].(map[string]any)
		var b llm.ContentBlock
		switch block["type"] {
		case "text":
			b = llmtest.Text(block["text"].(string))
		case "tool_use":
			input, _ := json.Marshal(block["input"])
			b = llmtest.ToolUse(block["id"].(string), block["name"].(string), string(input))
		default:
			t.Fatalf("unexpected block %v", block)
		}
		turns[len(turns)-1].Blocks = append(turns[len(turns)-1].Blocks, b)
	}
	return turns
}

// hookLines are the lines of a stream that concern hooks, their volatile
// values out: the hooks' runs, notices, notifications, denials and
// synthetic messages, and the result's text.
func hookLines(stream []map[string]any) []map[string]any {
	var out []map[string]any
	for _, ev := range stream {
		keep := map[string]any{}
		switch {
		case ev["type"] == "system" && ev["subtype"] != "init":
			for k, v := range ev {
				keep[k] = v
			}
		case ev["type"] == "user" && ev["isSynthetic"] == true:
			keep = map[string]any{"type": "user", "message": ev["message"], "isSynthetic": true}
		case ev["type"] == "result":
			keep = map[string]any{"type": "result", "result": ev["result"], "is_error": ev["is_error"]}
		default:
			continue
		}
		delete(keep, "uuid")
		delete(keep, "session_id")
		delete(keep, "hook_id")
		out = append(out, keep)
	}
	return out
}

// parallelRuns puts each stretch of hook_started and hook_response lines in
// one order, starts first: hooks of one event run in parallel, so their
// lines may change places from one run to the next.
func parallelRuns(stream []map[string]any) []map[string]any {
	out := slices.Clone(stream)
	isRun := func(ev map[string]any) bool {
		return ev["subtype"] == "hook_started" || ev["subtype"] == "hook_response"
	}
	for i := 0; i < len(out); {
		j := i
		for j < len(out) && isRun(out[j]) {
			j++
		}
		if j == i {
			i++
			continue
		}
		slices.SortStableFunc(out[i:j], func(a, b map[string]any) int {
			if c := strings.Compare(a["subtype"].(string), b["subtype"].(string)); c != 0 {
				return -c
			}
			aj, _ := json.Marshal(a["stdout"])
			bj, _ := json.Marshal(b["stdout"])
			return strings.Compare(string(aj), string(bj))
		})
		i = j
	}
	return out
}

// kinds is the stream's shape: each line's type and subtype, in order.
func kinds(stream []map[string]any) []string {
	var out []string
	for _, ev := range stream {
		k, _ := ev["type"].(string)
		if s, ok := ev["subtype"].(string); ok && k == "system" {
			k += "/" + s
		}
		out = append(out, k)
	}
	return out
}

func TestHookEventsInStreamJSONAreClaudeCodes(t *testing.T) {
	for _, name := range streamScenarios {
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
				writeSettings(t, r.dir, ".claude/settings.json", string(settings))
				if block, ok := recordedStopBlocks[name]; ok {
					writeSettings(t, r.dir, ".claude/hooks/stop.sh", recordedStopScript(block))
					os.Chmod(filepath.Join(r.dir, ".claude/hooks/stop.sh"), 0o755)
				}
				r.trust(false)
				r.srv.Push(recordedTurns(t, want)...)
				args := append([]string{"-p", "Do the task.", "--output-format", "stream-json", "--verbose"}, variant.flags...)
				out := r.exec(args...)
				if out.code != 0 {
					t.Fatalf("%s: exit %d: %s", variant.file, out.code, out.stderr)
				}
				got := parallelRuns(lines(t, out.stdout))
				want = parallelRuns(want)
				if g, w := kinds(got), kinds(want); !reflect.DeepEqual(g, w) {
					t.Errorf("%s: lines\n got %v\nwant %v", variant.file, g, w)
				}
				if g, w := hookLines(got), hookLines(want); !reflect.DeepEqual(g, w) {
					gj, _ := json.MarshalIndent(g, "", " ")
					wj, _ := json.MarshalIndent(w, "", " ")
					t.Errorf("%s: hook lines\n got %s\nwant %s", variant.file, gj, wj)
				}
				pairs := map[string]int{}
				for _, ev := range got {
					if id, ok := ev["hook_id"].(string); ok {
						pairs[id]++
					}
				}
				for id, n := range pairs {
					if n != 2 {
						t.Errorf("%s: hook_id %s on %d lines, want its start and its response", variant.file, id, n)
					}
				}
			}
		})
	}
}

// TestHookEventsOfABlockedPromptInTextMode: a blocked prompt prints the block
// text, as Claude Code does, and --verbose says which hooks ran on stderr.
func TestHookEventsOfABlockedPromptInTextMode(t *testing.T) {
	r := newRun(t)
	writeSettings(t, r.dir, ".claude/settings.json", `{"hooks":{"UserPromptSubmit":[{"hooks":[{"type":"command","command":"echo 'Prompt refused by hook' >&2; exit 2"}]}]}}`)
	r.trust(false)
	out := r.exec("-p", "Do the task.")
	want := "UserPromptSubmit operation blocked by hook:\n[echo 'Prompt refused by hook' >&2; exit 2]: Prompt refused by hook\n\n\nOriginal prompt: Do the task.\n"
	if out.code != 0 || out.stdout != want || out.stderr != "" {
		t.Errorf("exit %d, stdout %q, stderr %q; want stdout %q", out.code, out.stdout, out.stderr, want)
	}
	if n := len(r.srv.Requests()); n != 0 {
		t.Errorf("%d model requests, want none", n)
	}
	out = r.exec("-p", "Do the task.", "--verbose")
	if !strings.Contains(out.stderr, `Hook UserPromptSubmit "echo 'Prompt refused by hook' >&2; exit 2": error (exit 2), blocking: Prompt refused by hook`) {
		t.Errorf("--verbose stderr %q, want the hook's line", out.stderr)
	}
}

package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// The stdin of the hooks of PostToolBatch, SubagentStart, PostCompact,
// PermissionRequest, StopFailure and InstructionsLoaded, against what Claude
// Code 2.1.332 sent for the same session (testdata/hooks/events/<Event>.json,
// or an effect scenario's logged.json): the same keys in the same order, the
// same types, and the same values once the recorded placeholders are filled.

// leaf is one value of a JSON document, in document order: its dotted
// path, its kind, and for a scalar its text.
type leaf struct{ path, kind, value string }

// leaves flattens a JSON document, keeping the order of its keys.
func leaves(t *testing.T, raw []byte) []leaf {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var out []leaf
	var walk func(path string)
	walk = func(path string) {
		tok, err := dec.Token()
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		switch v := tok.(type) {
		case json.Delim:
			kind := map[json.Delim]string{'{': "object", '[': "array"}[v]
			out = append(out, leaf{path, kind, ""})
			for i := 0; dec.More(); i++ {
				key := strconv.Itoa(i)
				if kind == "object" {
					k, _ := dec.Token()
					key = k.(string)
				}
				walk(strings.TrimPrefix(path+"."+key, "."))
			}
			dec.Token()
		case string:
			out = append(out, leaf{path, "string", v})
		case json.Number:
			out = append(out, leaf{path, "number", v.String()})
		case bool:
			out = append(out, leaf{path, "bool", strconv.FormatBool(v)})
		case nil:
			out = append(out, leaf{path, "null", ""})
		}
	}
	walk("")
	return out
}

// recordedPlaceholder is a volatile value the recorder replaced (see
// testdata/hooks/README.md).
var recordedPlaceholder = regexp.MustCompile(`<[a-z_0-9]+>`)

// matchesRecorded says whether got is the recorded want: equal, or, where
// want holds placeholders, the project for <cwd> and any text for the others.
func matchesRecorded(got, want, cwd string) bool {
	if !recordedPlaceholder.MatchString(want) {
		return got == want
	}
	parts := recordedPlaceholder.Split(want, -1)
	names := recordedPlaceholder.FindAllString(want, -1)
	pattern := "^" + regexp.QuoteMeta(parts[0])
	for i, name := range names {
		if name == "<cwd>" {
			pattern += regexp.QuoteMeta(cwd)
		} else {
			pattern += ".+"
		}
		pattern += regexp.QuoteMeta(parts[i+1])
	}
	return regexp.MustCompile(pattern + "$").MatchString(got)
}

// sameStdin compares a hook's stdin with Claude Code's. differ names the
// paths whose values may differ, each on purpose: their key and type are
// compared, not their value nor what is under them. transcript_path always
// may: mini-claude keeps its transcripts under its own home, and the value
// must then end with the session's id.
func sameStdin(t *testing.T, label string, got, want []byte, cwd string, differ ...string) {
	t.Helper()
	differ = append(differ, "transcript_path")
	under := func(path string) bool {
		for _, d := range differ {
			if strings.HasPrefix(path, d+".") {
				return true
			}
		}
		return false
	}
	compared := func(ls []leaf) []leaf {
		var out []leaf
		for _, l := range ls {
			if !under(l.path) {
				out = append(out, l)
			}
		}
		return out
	}
	g, w := compared(leaves(t, got)), compared(leaves(t, want))
	for i := 0; i < len(g) || i < len(w); i++ {
		switch {
		case i >= len(g) || i >= len(w) || g[i].path != w[i].path:
			t.Errorf("%s: keys differ from Claude Code's at %d:\n got %v\nwant %v", label, i, paths(g), paths(w))
			return
		case g[i].kind != w[i].kind:
			t.Errorf("%s: %s is a %s, Claude Code's a %s", label, g[i].path, g[i].kind, w[i].kind)
		case !slices.Contains(differ, g[i].path) && !matchesRecorded(g[i].value, w[i].value, cwd):
			t.Errorf("%s: %s = %q, Claude Code's %q", label, g[i].path, g[i].value, w[i].value)
		}
	}
	var in struct{ SessionID, TranscriptPath string }
	json.Unmarshal(got, &struct {
		SessionID      *string `json:"session_id"`
		TranscriptPath *string `json:"transcript_path"`
	}{&in.SessionID, &in.TranscriptPath})
	if !strings.HasSuffix(in.TranscriptPath, "/"+in.SessionID+".jsonl") {
		t.Errorf("%s: transcript_path %q is not the session's (%s)", label, in.TranscriptPath, in.SessionID)
	}
}

func paths(ls []leaf) []string {
	var out []string
	for _, l := range ls {
		out = append(out, l.path)
	}
	return out
}

// recordedStdin is the i-th recorded stdin of a golden file under testdata/hooks.
func recordedStdin(t *testing.T, file string, i int) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "hooks", file))
	if err != nil {
		t.Fatal(err)
	}
	var all []json.RawMessage
	if err := json.Unmarshal(data, &all); err != nil {
		t.Fatal(err)
	}
	return all[i]
}

// logEvents is a settings file whose hooks append the stdin of every hook
// of events to log, one line each.
func logEvents(log string, events ...string) string {
	h := map[string]any{}
	for _, e := range events {
		h[e] = []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": fmt.Sprintf("cat >> %q; echo >> %q", log, log)}}}}
	}
	data, _ := json.Marshal(map[string]any{"hooks": h})
	return string(data)
}

// loggedStdin reads what the hooks of logEvents logged.
func loggedStdin(t *testing.T, log string) [][]byte {
	t.Helper()
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Split(bytes.TrimSpace(data), []byte("\n"))
}

// goldenRun is a run whose user settings log the stdin of events' hooks.
func goldenRun(t *testing.T, events ...string) (*run, string) {
	r := newRun(t)
	log := filepath.Join(t.TempDir(), "hooks.jsonl")
	r.userSettings(logEvents(log, events...))
	return r, log
}

func TestPostToolBatchStdinIsClaudeCodes(t *testing.T) {
	r, log := goldenRun(t, "PostToolBatch")
	os.WriteFile(filepath.Join(r.dir, "a.txt"), []byte("hello\n"), 0o644)
	r.srv.Push(calls(llmtest.ToolUse("toolu_llmtest_2_0", "Bash", `{"command":"echo hi","description":"Say hi"}`)), calls(llmtest.ToolUse("toolu_llmtest_1_0", "Read", `{"file_path":"a.txt"}`),
		llmtest.ToolUse("toolu_llmtest_1_1", "Bash", `{"command":"echo hi","description":"Say hi"}`)), text("Done."))
	if out := r.exec("-p", "Run the hook session."); out.code != 0 {
		t.Fatalf("exit %d: %s", out.code, out.stderr)
	}
	got := loggedStdin(t, log)
	if len(got) != 2 {
		t.Fatalf("%d PostToolBatch inputs, want one per batch", len(got))
	}
	sameStdin(t, "a batch of one", got[0], recordedStdin(t, "events/PostToolBatch.json", 1), r.dir)
	sameStdin(t, "a batch of two", got[1], recordedStdin(t, "effects/post_tool_batch_two_calls/logged.json", 0), r.dir)
}

func TestSubagentStartStdinIsClaudeCodes(t *testing.T) {
	r, log := goldenRun(t, "SubagentStart")
	r.srv.Push(calls(agentCall("toolu_llmtest_9_0", "Read a file", "SUBAGENT: read a.txt and say what it holds.", `,"subagent_type":"general-purpose","run_in_background":false`)),
		text("The file says hello."), text("All done."))
	if out := r.exec("-p", "Run the hook session."); out.code != 0 {
		t.Fatalf("exit %d: %s", out.code, out.stderr)
	}
	got := loggedStdin(t, log)
	if len(got) != 1 {
		t.Fatalf("%d SubagentStart inputs, want one", len(got))
	}
	sameStdin(t, "SubagentStart", got[0], recordedStdin(t, "events/SubagentStart.json", 0), r.dir)
}

func TestPermissionRequestStdinIsClaudeCodes(t *testing.T) {
	r, log := goldenRun(t, "PermissionRequest")
	r.srv.Push(calls(llmtest.ToolUse("toolu_llmtest_6_0", "Bash", `{"command":"touch denied.txt","description":"Needs a permission"}`)), text("Done."))
	if out := r.exec("-p", "Run the hook session."); out.code != 0 {
		t.Fatalf("exit %d: %s", out.code, out.stderr)
	}
	got := loggedStdin(t, log)
	if len(got) != 1 {
		t.Fatalf("%d PermissionRequest inputs, want one", len(got))
	}
	// The suggestions are the rule mini-claude's UI offers to remember, where
	// Claude Code offers the folder and acceptEdits; both are Claude Code's shape.
	sameStdin(t, "PermissionRequest", got[0], recordedStdin(t, "events/PermissionRequest.json", 0), r.dir, "permission_suggestions")
	var in struct {
		Suggestions []json.RawMessage `json:"permission_suggestions"`
	}
	json.Unmarshal(got[0], &in)
	want := `{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"touch:*"}],"behavior":"allow","destination":"localSettings"}`
	if len(in.Suggestions) != 1 || string(in.Suggestions[0]) != want {
		t.Errorf("permission_suggestions = %s, want %s", in.Suggestions, want)
	}
}

func TestStopFailureStdinIsClaudeCodes(t *testing.T) {
	r, log := goldenRun(t, "StopFailure", "Stop")
	r.srv.Push(llmtest.Turn{Faults: []llmtest.Fault{{Status: 400, Message: "Bad request on purpose"}}})
	if out := r.exec("-p", "Do the task."); out.code != 1 {
		t.Fatalf("exit %d: %s", out.code, out.stderr)
	}
	got := loggedStdin(t, log)
	if len(got) != 1 {
		t.Fatalf("%d inputs, want StopFailure's alone", len(got))
	}
	sameStdin(t, "StopFailure", got[0], recordedStdin(t, "effects/stop_failure/logged.json", 0), r.dir)
}

func TestPostCompactStdinIsClaudeCodes(t *testing.T) {
	r, log := goldenRun(t, "PostCompact")
	answer := "<analysis>\nThe session ran its steps.\n</analysis>\n\n<summary>\nSUMMARY: the hook session read, ran, wrote and edited files.\n</summary>"
	r.srv.Push(llmtest.Turn{Blocks: calls(bashUse("b1", "head -c 20000 /dev/zero | tr '\\0' y")).Blocks, Usage: llm.Usage{InputTokens: 6000, OutputTokens: 30}},
		text(answer), text("Done."))
	if out := r.exec("-p", "Do the task.", "--dangerously-skip-permissions", "--compact-threshold", "9000"); out.code != 0 {
		t.Fatalf("exit %d: %s", out.code, out.stderr)
	}
	got := loggedStdin(t, log)
	if len(got) != 1 {
		t.Fatalf("%d PostCompact inputs, want one", len(got))
	}
	sameStdin(t, "PostCompact", got[0], recordedStdin(t, "effects/post_compact_auto/logged.json", 3), r.dir)
}

func TestInstructionsLoadedStdinIsClaudeCodes(t *testing.T) {
	r, log := goldenRun(t, "InstructionsLoaded")
	os.WriteFile(filepath.Join(r.dir, "CLAUDE.md"), []byte("# Notes\n\nKeep answers short.\n"), 0o644)
	r.trust(false)
	r.srv.Push(text("Done."))
	if out := r.exec("-p", "Run the hook session."); out.code != 0 {
		t.Fatalf("exit %d: %s", out.code, out.stderr)
	}
	got := loggedStdin(t, log)
	if len(got) != 1 {
		t.Fatalf("%d InstructionsLoaded inputs, want one for CLAUDE.md", len(got))
	}
	sameStdin(t, "InstructionsLoaded", got[0], recordedStdin(t, "events/InstructionsLoaded.json", 0), r.dir)
}

package e2e

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
	"github.com/mini-claude/mini-claude/internal/resultstore"
	"github.com/mini-claude/mini-claude/internal/session"
)

// transcriptPath returns where the binary keeps the transcript of session id of the run's directory.
func (r *run) transcriptPath(id string) string {
	var home string
	for _, kv := range r.env {
		if v, ok := strings.CutPrefix(kv, "MINI_CLAUDE_HOME="); ok {
			home = v
		}
	}
	return filepath.Join(home, "projects", resultstore.ProjectSlug(r.dir), id+".jsonl")
}

// result returns the result event of json or stream-json output.
func resultOf(t *testing.T, out outcome) map[string]any {
	t.Helper()
	events := lines(t, out.stdout)
	last := events[len(events)-1]
	if last["type"] != "result" {
		t.Fatalf("the last line is not the result: %v", last)
	}
	return last
}

func TestSessionIDResumeAndContinue(t *testing.T) {
	r := newRun(t)
	const id = "5f0c6b1e-8d2a-4c3b-9e7f-0a1b2c3d4e5f"
	r.srv.Push(text("first answer"), text("second answer"), text("third answer"))
	out := r.exec("-p", "first", "--session-id", id, "--output-format", "stream-json", "--verbose")
	events := lines(t, out.stdout)
	if out.code != 0 || events[0]["session_id"] != id || resultOf(t, out)["session_id"] != id {
		t.Fatalf("exit %d, init %v, stderr %s", out.code, events[0], out.stderr)
	}
	if _, err := os.Stat(r.transcriptPath(id)); err != nil {
		t.Fatalf("no transcript: %v", err)
	}

	out = r.exec("-p", "second", "-r", id, "--output-format", "json")
	if out.code != 0 || resultOf(t, out)["session_id"] != id {
		t.Fatalf("resume: exit %d, %s %s", out.code, out.stdout, out.stderr)
	}
	out = r.exec("-c", "-p", "third")
	if out.code != 0 || out.stdout != "third answer\n" {
		t.Fatalf("continue: exit %d, %q %s", out.code, out.stdout, out.stderr)
	}
	msgs := r.srv.Requests()[2].Messages
	var texts []string
	for _, m := range msgs {
		texts = append(texts, string(m.Role)+":"+m.Text())
	}
	want := "user:first assistant:first answer user:second assistant:second answer user:third"
	if strings.Join(texts, " ") != want {
		t.Errorf("the continued conversation is %q, want %q", strings.Join(texts, " "), want)
	}
	loaded, err := session.Load(r.transcriptPath(id))
	if err != nil || len(loaded.Lines) != 6 || len(loaded.Warnings) != 0 {
		t.Fatalf("transcript: %v, %d lines, warnings %q", err, len(loaded.Lines), loaded.Warnings)
	}
}

func TestForkSessionLeavesTheOriginal(t *testing.T) {
	r := newRun(t)
	const id = "5f0c6b1e-8d2a-4c3b-9e7f-0a1b2c3d4e5f"
	const forked = "6a1d7c2f-9e3b-4d4c-8f80-1b2c3d4e5f60"
	r.srv.Push(text("one"), text("two"))
	r.exec("-p", "first", "--session-id", id)
	before, _ := os.ReadFile(r.transcriptPath(id))
	out := r.exec("-p", "second", "-r", id, "--fork-session", "--session-id", forked, "--output-format", "json")
	if out.code != 0 || resultOf(t, out)["session_id"] != forked {
		t.Fatalf("fork: exit %d, %s %s", out.code, out.stdout, out.stderr)
	}
	after, _ := os.ReadFile(r.transcriptPath(id))
	if string(before) != string(after) {
		t.Error("forking changed the original transcript")
	}
	loaded, err := session.Load(r.transcriptPath(forked))
	if err != nil || len(loaded.Messages) != 4 || loaded.Messages[2].Text() != "second" {
		t.Fatalf("forked transcript: %v, %+v", err, loaded)
	}
}

func TestSessionFlagErrors(t *testing.T) {
	r := newRun(t)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"-p", "x", "--session-id", "nope"}, "not a session id"},
		{[]string{"-p", "x", "-c", "-r", "5f0c6b1e-8d2a-4c3b-9e7f-0a1b2c3d4e5f"}, "use one of them"},
		{[]string{"-p", "x", "--fork-session"}, "use it with --continue or --resume"},
		{[]string{"-p", "x", "-r"}, "needs the interactive picker"},
		{[]string{"-p", "x", "-c"}, "has no sessions to continue"},
		{[]string{"-p", "x", "-r", "5f0c6b1e-8d2a-4c3b-9e7f-0a1b2c3d4e5f"}, "no session 5f0c6b1e-8d2a-4c3b-9e7f-0a1b2c3d4e5f"},
	} {
		out := r.exec(tt.args...)
		if out.code != 2 || !strings.Contains(out.stderr, tt.want) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", tt.args, out.code, out.stderr, tt.want)
		}
	}
	if n := len(r.srv.Requests()); n != 0 {
		t.Errorf("%d requests reached the model", n)
	}
}

// TestResumedFileState shows that what the session read survives a restart:
// a Write after resuming needs no new Read of a file the session read, unless
// the file changed in between.
func TestResumedFileState(t *testing.T) {
	r := newRun(t)
	path := filepath.Join(r.dir, "notes.txt")
	os.WriteFile(path, []byte("original\n"), 0o644)
	write := func(content string) llm.ContentBlock {
		input, _ := json.Marshal(map[string]string{"file_path": path, "content": content})
		return llmtest.ToolUse("", "Write", string(input))
	}
	r.srv.Push(
		calls(llmtest.ToolUse("", "Read", `{"file_path":"`+path+`"}`)), text("read it"),
		calls(write("second run\n")), text("wrote it"),
		calls(write("third run\n")), text("refused"),
	)
	flags := []string{"--tools", "Read,Write", "--dangerously-skip-permissions"}
	if out := r.exec(append([]string{"-p", "read notes.txt"}, flags...)...); out.code != 0 {
		t.Fatalf("exit %d: %s", out.code, out.stderr)
	}
	if out := r.exec(append([]string{"-c", "-p", "now overwrite it"}, flags...)...); out.code != 0 {
		t.Fatalf("exit %d: %s", out.code, out.stderr)
	}
	if res := lastResults(t, r.srv, 3)[0]; res.IsError {
		t.Fatalf("the Write after resuming failed: %s", contentText(res))
	}
	os.WriteFile(path, []byte("edited by the user meanwhile, a longer line\n"), 0o644)
	if out := r.exec(append([]string{"-c", "-p", "overwrite it again"}, flags...)...); out.code != 0 {
		t.Fatalf("exit %d: %s", out.code, out.stderr)
	}
	res := lastResults(t, r.srv, 5)[0]
	if !res.IsError || !strings.Contains(contentText(res), "changed on disk since it was read") {
		t.Errorf("a Write over a file changed before the resume: %s", contentText(res))
	}
	if data, _ := os.ReadFile(path); string(data) != "edited by the user meanwhile, a longer line\n" {
		t.Errorf("the user's edit was overwritten: %q", data)
	}
}

func TestCostPerModel(t *testing.T) {
	r := newRun(t)
	const id = "5f0c6b1e-8d2a-4c3b-9e7f-0a1b2c3d4e5f"
	r.srv.Push(
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("", "Sleep", `{"label":"a","ms":1}`)},
			Usage: llm.Usage{InputTokens: 1000, OutputTokens: 200, CacheReadInputTokens: 5000}},
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("done")}, Usage: llm.Usage{InputTokens: 1500, OutputTokens: 100}},
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("haiku here")}, Usage: llm.Usage{InputTokens: 400, OutputTokens: 40}},
	)
	out := r.exec("-p", "go", "--session-id", id, "--tools", "Sleep", "--model", "claude-sonnet-4-5", "--output-format", "json")
	res := resultOf(t, out)
	sonnet := llm.Usage{InputTokens: 2500, OutputTokens: 300, CacheReadInputTokens: 5000}
	wantCost := llm.Cost("claude-sonnet-4-5", sonnet)
	usage := res["modelUsage"].(map[string]any)["claude-sonnet-4-5"].(map[string]any)
	if !near(res["total_cost_usd"], wantCost) || !near(usage["costUSD"], wantCost) || usage["inputTokens"] != 2500.0 || usage["cacheReadInputTokens"] != 5000.0 {
		t.Errorf("result: total %v, modelUsage %v; want cost %v", res["total_cost_usd"], res["modelUsage"], wantCost)
	}
	r.exec("-r", id, "-p", "more", "--model", "haiku")

	out = r.exec("cost")
	haiku := llm.Cost("claude-haiku-4-5", llm.Usage{InputTokens: 400, OutputTokens: 40})
	for _, want := range []string{
		"Session:      " + id,
		"Requests:     3",
		"claude-sonnet-4-5:  2,500 input, 300 output, 5,000 cache read, 0 cache write",
		"claude-haiku-4-5:   400 input, 40 output, 0 cache read, 0 cache write",
	} {
		if !strings.Contains(out.stdout, want) {
			t.Errorf("cost output lacks %q:\n%s", want, out.stdout)
		}
	}
	if total := fmt.Sprintf("Total cost:   $%.4f", wantCost+haiku); !strings.Contains(out.stdout, total) {
		t.Errorf("cost output lacks %q:\n%s", total, out.stdout)
	}
	if again := r.exec("cost", id); again.stdout != out.stdout || again.code != 0 {
		t.Errorf("cost with the id: exit %d\n%s", again.code, again.stdout)
	}
}

func near(got any, want float64) bool {
	f, ok := got.(float64)
	return ok && math.Abs(f-want) < 1e-12
}

func TestTornLastLineIsSkippedWithAWarning(t *testing.T) {
	r := newRun(t)
	const id = "5f0c6b1e-8d2a-4c3b-9e7f-0a1b2c3d4e5f"
	r.srv.Push(text("one"), text("two"))
	r.exec("-p", "first", "--session-id", id)
	f, err := os.OpenFile(r.transcriptPath(id), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"parentUuid":"x","type":"assistant","message":{"role":"assis`)
	f.Close()
	out := r.exec("-r", id, "-p", "second")
	if out.code != 0 || out.stdout != "two\n" || !strings.Contains(out.stderr, "Warning: the last line of") || !strings.Contains(out.stderr, "cut off mid-write") {
		t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	loaded, err := session.Load(r.transcriptPath(id))
	if err != nil || len(loaded.Warnings) != 0 || len(loaded.Messages) != 4 {
		t.Fatalf("after resume: %v, warnings %q, %d messages", err, loaded.Warnings, len(loaded.Messages))
	}
}

func TestUnwritableTranscriptIsAWarning(t *testing.T) {
	r := newRun(t)
	blocked := filepath.Join(t.TempDir(), "file")
	os.WriteFile(blocked, nil, 0o644)
	r.setenv("MINI_CLAUDE_HOME=" + blocked)
	r.srv.Push(text("still answered"))
	out := r.exec("-p", "hello")
	if out.code != 0 || out.stdout != "still answered\n" || !strings.Contains(out.stderr, "this session will not be saved") {
		t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
}

func TestSubAgentTranscriptAndCost(t *testing.T) {
	r := newRun(t)
	const id = "5f0c6b1e-8d2a-4c3b-9e7f-0a1b2c3d4e5f"
	r.srv.Route(llmtest.FirstUserText("delegate"),
		llmtest.Turn{Blocks: []llm.ContentBlock{agentCall("a1", "Look around", "sub task", `,"model":"haiku"`)}, Usage: llm.Usage{InputTokens: 1000, OutputTokens: 100}},
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("delegated")}, Usage: llm.Usage{InputTokens: 1200, OutputTokens: 50}})
	r.srv.Route(llmtest.FirstUserText("sub task"),
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("sub done")}, Usage: llm.Usage{InputTokens: 700, OutputTokens: 70}})
	out := r.exec("-p", "delegate", "--session-id", id, "--model", "claude-sonnet-4-5", "--output-format", "json", "--dangerously-skip-permissions")
	if out.code != 0 {
		t.Fatalf("exit %d: %s", out.code, out.stderr)
	}
	subs, _ := filepath.Glob(filepath.Join(strings.TrimSuffix(r.transcriptPath(id), ".jsonl"), "subagents", "agent-*.jsonl"))
	if len(subs) != 1 {
		t.Fatalf("sub-agent transcripts: %q", subs)
	}
	loaded, err := session.Load(subs[0])
	if err != nil || len(loaded.Messages) != 2 || loaded.Messages[0].Text() != "sub task" || !loaded.Lines[0].IsSidechain || loaded.Lines[0].ParentToolUseID != "a1" {
		t.Fatalf("sub-agent transcript: %v %s", err, jsonOf(loaded.Lines))
	}
	modelUsage := resultOf(t, out)["modelUsage"].(map[string]any)
	cost := r.exec("cost", id)
	for _, want := range []string{
		"claude-sonnet-4-5:  2,200 input, 150 output",
		"claude-haiku-4-5:   700 input, 70 output",
		"Requests:     3",
	} {
		if !strings.Contains(cost.stdout, want) {
			t.Errorf("cost lacks %q:\n%s", want, cost.stdout)
		}
	}
	if len(modelUsage) != 2 {
		t.Errorf("the result's modelUsage has %d models: %v", len(modelUsage), modelUsage)
	}
}

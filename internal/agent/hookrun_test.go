package agent_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/hooks"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
	"github.com/mini-claude/mini-claude/internal/permission"
	"github.com/mini-claude/mini-claude/internal/tool"
)

// withHooks configures an agent with one hook per (event, matcher, command).
func withHooks(dir string, specs ...[3]string) func(*agent.Options) {
	var hs []hooks.Hook
	for _, s := range specs {
		hs = append(hs, hooks.Hook{Event: s[0], Matcher: s[1], Command: s[2], Timeout: 10 * time.Second})
	}
	return func(o *agent.Options) {
		o.Hooks = hooks.New(hs, hooks.Options{ProjectDir: dir, Env: os.Environ()})
		o.Env.SessionID = "s1"
		o.TranscriptPath = "/t/s1.jsonl"
	}
}

func touchTurn(id, path string) llmtest.Turn {
	return llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse(id, "Touch", `{"path":"`+path+`"}`)}}
}

func lastResultText(t *testing.T, h *harness, request int) (string, bool) {
	t.Helper()
	reqs := h.srv.Requests()
	msgs := reqs[request].Messages
	res := msgs[len(msgs)-1].Content[0]
	var b strings.Builder
	for _, c := range res.Content {
		b.WriteString(c.Text)
	}
	return b.String(), res.IsError
}

func TestPreToolUseHooksAsClaudeCodeReportsThem(t *testing.T) {
	tests := []struct {
		name, command string
		want          string
		ran           bool
	}{
		{"exit 2 refuses with the command and stderr", `echo "no touching" >&2; exit 2`,
			"PreToolUse:Touch hook error: [echo \"no touching\" >&2; exit 2]: no touching\n", false},
		{"deny refuses with the reason", `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"Denied by hook policy"}}'`,
			"PreToolUse:Touch hook error: Denied by hook policy", false},
		{"ask is refused headless with the reason alone", `echo '{"hookSpecificOutput":{"permissionDecision":"ask","permissionDecisionReason":"Hook wants a human to confirm"}}'`,
			"Hook wants a human to confirm", false},
		{"allow answers the permission question", `echo '{"hookSpecificOutput":{"permissionDecision":"allow"}}'`, "Created ", true},
		{"updatedInput is validated again", `echo '{"hookSpecificOutput":{"updatedInput":{"path":42}}}'`,
			"PreToolUse hook for Touch returned updatedInput that failed schema validation: ", false},
		{"exit 1 does not block, and asks as before", `exit 1`, "Permission to use Touch has not been granted", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			h.srv.Push(touchTurn("t1", "made"), llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("done")}})
			a := h.agent(t, withHooks(h.cwd, [3]string{hooks.PreToolUse, "Touch", tt.command}))
			a.Run(context.Background(), "touch it")
			got, isErr := lastResultText(t, h, 1)
			if !strings.Contains(got, tt.want) || isErr == tt.ran {
				t.Errorf("tool_result %q (is_error %v), want it to hold %q", got, isErr, tt.want)
			}
			if _, err := os.Stat(filepath.Join(h.cwd, "made")); (err == nil) != tt.ran {
				t.Errorf("the call ran: %v, want %v", err == nil, tt.ran)
			}
		})
	}
}

func TestAHookAllowNeverBeatsADenyRule(t *testing.T) {
	h := newHarness(t)
	h.srv.Push(touchTurn("t1", "made"), llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("done")}})
	a := h.agent(t, func(o *agent.Options) {
		withHooks(h.cwd, [3]string{hooks.PreToolUse, "", `echo '{"hookSpecificOutput":{"permissionDecision":"allow"}}'`})(o)
		o.Permissions.Deny = []permission.Rule{{Tool: "Touch"}}
	})
	a.Run(context.Background(), "touch it")
	if got, _ := lastResultText(t, h, 1); !strings.Contains(got, "denied") {
		t.Errorf("tool_result %q, want the deny rule's refusal", got)
	}
}

func TestPostToolUseHooksAppendTheirReminder(t *testing.T) {
	h := newHarness(t)
	h.srv.Push(touchTurn("t1", "made"), llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("done")}})
	cmd := `echo '{"decision":"block","reason":"Formatting failed"}'`
	a := h.agent(t, func(o *agent.Options) {
		withHooks(h.cwd, [3]string{hooks.PostToolUse, "Touch", cmd}, [3]string{hooks.PostToolUse, "*", `echo '{"hookSpecificOutput":{"additionalContext":"lint ok"}}'`})(o)
		o.Permissions.Allow = []permission.Rule{{Tool: "Touch"}}
	})
	a.Run(context.Background(), "touch it")
	got, isErr := lastResultText(t, h, 1)
	want := "\n\n<system-reminder>\nPostToolUse:Touch hook blocking error from command: \"" + cmd +
		"\": Formatting failed\nPostToolUse:Touch hook additional context: lint ok\n</system-reminder>"
	if isErr || !strings.HasPrefix(got, "Created ") || !strings.HasSuffix(got, want) {
		t.Errorf("tool_result %q (is_error %v), want the result then %q", got, isErr, want)
	}
}

func TestUserPromptSubmitHooksAddContextOrBlock(t *testing.T) {
	h := newHarness(t)
	h.srv.Push(llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("ok")}})
	a := h.agent(t, withHooks(h.cwd, [3]string{hooks.UserPromptSubmit, "", `echo "Ticket ABC-123"`}))
	a.Run(context.Background(), "Do the task.")
	first := h.srv.Requests()[0].Messages[0].Content
	if len(first) != 2 || first[0].Text != "<system-reminder>\nUserPromptSubmit hook success: Ticket ABC-123\n</system-reminder>" || first[1].Text != "Do the task." {
		t.Errorf("first message = %+v", first)
	}
	blocker := newHarness(t)
	b := blocker.agent(t, withHooks(blocker.cwd, [3]string{hooks.UserPromptSubmit, "", `echo 'Prompt refused by hook' >&2; exit 2`}))
	res := b.Run(context.Background(), "Do the task.")
	want := "UserPromptSubmit operation blocked by hook:\n[echo 'Prompt refused by hook' >&2; exit 2]: Prompt refused by hook\n\n\nOriginal prompt: Do the task."
	if len(blocker.srv.Requests()) != 0 || res.Text != want || len(b.Messages()) != 0 {
		t.Errorf("a blocked prompt: %d requests, text %q, %d messages kept", len(blocker.srv.Requests()), res.Text, len(b.Messages()))
	}
}

func TestAStopHookKeepsTheTurnGoingOnceThenSeesItsOwnBlock(t *testing.T) {
	h := newHarness(t)
	h.srv.Push(llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("first")}}, llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("second")}})
	log := filepath.Join(h.cwd, "stop.log")
	cmd := `cat >> ` + log + `; echo >> ` + log + `; grep -q '"stop_hook_active":true' ` + log + ` || echo '{"decision":"block","reason":"Run the tests first"}'`
	a := h.agent(t, withHooks(h.cwd, [3]string{hooks.Stop, "", cmd}))
	res := a.Run(context.Background(), "Do the task.")
	if res.Text != "second" || len(h.srv.Requests()) != 2 {
		t.Fatalf("result %q after %d requests, want the second answer", res.Text, len(h.srv.Requests()))
	}
	more := h.srv.Requests()[1].Messages[2].Content
	if len(more) != 2 || !strings.Contains(more[0].Text, `Stop hook blocking error from command: "`) ||
		!strings.HasSuffix(more[1].Text, "Stop hook feedback:\nRun the tests first\n</system-reminder>") {
		t.Errorf("the blocking message = %+v", more)
	}
	data, _ := os.ReadFile(log)
	if lines := strings.Split(strings.TrimSpace(string(data)), "\n"); len(lines) != 2 || !strings.Contains(lines[0], `"stop_hook_active":false`) ||
		!strings.Contains(lines[0], `"last_assistant_message":"first"`) || !strings.Contains(lines[0], `"session_id":"s1"`) {
		t.Errorf("Stop inputs = %s", data)
	}
}

func TestHookContextBlocksNameTheEventAsClaudeCodeDoes(t *testing.T) {
	blocks := agent.HookContextBlocks("SessionStart:startup", []hooks.Context{
		{Text: "SessionStart context line"}, {Text: "Context from SessionStart", Additional: true}, {Text: "again"}})
	want := []string{
		"<system-reminder>\nSessionStart:startup hook success: SessionStart context line\n</system-reminder>",
		"<system-reminder>\nSessionStart hook additional context: Context from SessionStart\n</system-reminder>",
		"<system-reminder>\nSessionStart:startup hook success: again\n</system-reminder>",
	}
	for i, b := range blocks {
		if b.Text != want[i] {
			t.Errorf("block %d = %q, want %q", i, b.Text, want[i])
		}
	}
}

// readHookLog reads the inputs a `cat >> log; echo >> log` hook wrote.
func readHookLog(t *testing.T, log string) []map[string]any {
	t.Helper()
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	var inputs []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var in map[string]any
		if err := json.Unmarshal([]byte(line), &in); err != nil {
			t.Fatalf("hook input %q: %v", line, err)
		}
		inputs = append(inputs, in)
	}
	return inputs
}

func TestASubAgentsHooksGetTheSessionsTranscriptAndThePromptThatStartedIt(t *testing.T) {
	h := newHarness(t)
	log := filepath.Join(t.TempDir(), "hooks.jsonl")
	logCmd := "cat >> " + log + "; echo >> " + log
	h.srv.Route(llmtest.FirstUserText("parent task"), turn(agentCall("a1", "Read", "sub task", "")), turn(llmtest.Text("done")))
	h.srv.Route(llmtest.FirstUserText("sub task"), turn(llmtest.ToolUse("r1", "Read", `{"file_path":"`+filepath.Join(h.cwd, "a.txt")+`"}`)),
		turn(llmtest.Text("It says hi.")))
	os.WriteFile(filepath.Join(h.cwd, "a.txt"), []byte("hi\n"), 0o644)
	a := h.agent(t, func(o *agent.Options) {
		withSubAgents(o)
		withHooks(h.cwd, [3]string{hooks.UserPromptSubmit, "", logCmd}, [3]string{hooks.PreToolUse, "Read", logCmd},
			[3]string{hooks.SubagentStop, "", logCmd})(o)
	})
	if res := a.Run(context.Background(), "parent task"); res.Text != "done" {
		t.Fatalf("result %+v", res)
	}
	inputs := readHookLog(t, log)
	if len(inputs) != 3 {
		t.Fatalf("%d hook inputs, want UserPromptSubmit, the sub-agent's PreToolUse and SubagentStop: %v", len(inputs), inputs)
	}
	prompt, pre, stop := inputs[0], inputs[1], inputs[2]
	id, _ := pre["agent_id"].(string)
	for _, in := range []map[string]any{pre, stop} {
		if in["transcript_path"] != "/t/s1.jsonl" || in["prompt_id"] != prompt["prompt_id"] || in["agent_id"] != id || in["agent_type"] != "general-purpose" {
			t.Errorf("%s input = %v, want the session's transcript and prompt id (%v), and the sub-agent", in["hook_event_name"], in, prompt["prompt_id"])
		}
	}
	if want := "/t/s1/subagents/agent-" + id + ".jsonl"; id == "" || stop["agent_transcript_path"] != want {
		t.Errorf("agent_transcript_path = %v, want %s", stop["agent_transcript_path"], want)
	}
}

func TestSessionStartHooksFireAfterACompactionAndTheNextRequestCarriesTheirContext(t *testing.T) {
	h := newHarness(t)
	log := filepath.Join(t.TempDir(), "hooks.jsonl")
	logCmd := "cat >> " + log + "; echo >> " + log
	h.srv.Push(
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("p1", "Print", `{"chars":10}`)}, Usage: llm.Usage{InputTokens: 5000}},
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("<summary>printed</summary>")}},
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("done")}},
	)
	a := h.agent(t, func(o *agent.Options) {
		withHooks(h.cwd, [3]string{hooks.UserPromptSubmit, "", logCmd}, [3]string{hooks.PreCompact, "", logCmd},
			[3]string{hooks.SessionStart, "compact", logCmd + "; echo 'Compacted context'"})(o)
		o.Tools = []tool.Tool{printer(100)}
		o.CompactThreshold = 1000
	})
	if res := a.Run(context.Background(), "go"); res.Text != "done" {
		t.Fatalf("result %+v", res)
	}
	after := h.srv.Requests()[2].Messages[0].Content
	if after[0].Text != "<system-reminder>\nSessionStart:compact hook success: Compacted context\n</system-reminder>" {
		t.Errorf("the first message after the compaction starts %+v, want the SessionStart hook's context", after[0])
	}
	inputs := readHookLog(t, log)
	if len(inputs) != 3 {
		t.Fatalf("%d hook inputs, want UserPromptSubmit, PreCompact and SessionStart: %v", len(inputs), inputs)
	}
	data, _ := os.ReadFile(log)
	want := `"prompt_id":"` + inputs[0]["prompt_id"].(string) + `","hook_event_name":"SessionStart","source":"compact","model":"claude-opus-5-5"}`
	if inputs[1]["trigger"] != "auto" || !strings.Contains(string(data), want) {
		t.Errorf("hook inputs = %s, want PreCompact auto, then SessionStart ending %s", data, want)
	}
}

func TestACompactionTheUserAsksForIsAPromptOfItsOwnToHooks(t *testing.T) {
	h := newHarness(t)
	log := filepath.Join(t.TempDir(), "hooks.jsonl")
	logCmd := "cat >> " + log + "; echo >> " + log
	h.srv.Push(llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("planned")}}, llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("<summary>plan</summary>")}})
	a := h.agent(t, withHooks(h.cwd, [3]string{hooks.UserPromptSubmit, "", logCmd}, [3]string{hooks.PreCompact, "", logCmd},
		[3]string{hooks.SessionStart, "", logCmd}))
	a.Run(context.Background(), "plan")
	if err := a.Compact(context.Background(), ""); err != nil {
		t.Fatal(err)
	}
	inputs := readHookLog(t, log)
	if len(inputs) != 3 {
		t.Fatalf("%d hook inputs, want UserPromptSubmit, PreCompact and SessionStart: %v", len(inputs), inputs)
	}
	prompt, pre, start := inputs[0]["prompt_id"], inputs[1]["prompt_id"], inputs[2]["prompt_id"]
	if pre == nil || pre == prompt || start != pre || a.PromptID() != pre || inputs[1]["trigger"] != "manual" || inputs[2]["source"] != "compact" {
		t.Errorf("inputs %v; want /compact's own prompt id on PreCompact and SessionStart", inputs)
	}
}

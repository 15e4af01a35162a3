package agent_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/hooks"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
	"github.com/mini-claude/mini-claude/internal/permission"
)

// loggedInputs reads the hook inputs a `cat >> log; echo >> log` command wrote.
func loggedInputs(t *testing.T, log string) []map[string]any {
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

// logThen is a hook command that logs its input to log, then runs then.
func logThen(log, then string) string {
	return "cat >> " + log + "; echo >> " + log + "; " + then
}

func TestPostToolBatchSeesTheWholeBatchAndItsContextEndsTheLastResult(t *testing.T) {
	h := newHarness(t)
	log := filepath.Join(t.TempDir(), "hooks.jsonl")
	h.srv.Push(llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("t1", "Touch", `{"path":"a"}`), llmtest.ToolUse("t2", "Touch", `{"path":"b"}`)}},
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("done")}})
	a := h.agent(t, func(o *agent.Options) {
		withHooks(h.cwd, [3]string{hooks.PostToolBatch, "", logThen(log,
			`echo '{"hookSpecificOutput":{"hookEventName":"PostToolBatch","additionalContext":"Context from PostToolBatch"}}'`)})(o)
		o.Permissions.Allow = []permission.Rule{{Tool: "Touch"}}
	})
	if res := a.Run(context.Background(), "touch both"); res.Text != "done" {
		t.Fatalf("result %+v", res)
	}
	inputs := loggedInputs(t, log)
	if len(inputs) != 1 || inputs[0]["hook_event_name"] != "PostToolBatch" || inputs[0]["permission_mode"] != "default" {
		t.Fatalf("inputs = %v, want one PostToolBatch", inputs)
	}
	calls, _ := inputs[0]["tool_calls"].([]any)
	for i, id := range []string{"t1", "t2"} {
		c, _ := calls[i].(map[string]any)
		response, _ := c["tool_response"].(string)
		if c["tool_name"] != "Touch" || c["tool_use_id"] != id || !strings.HasPrefix(response, "Created ") {
			t.Errorf("tool_calls[%d] = %v, want the call %s and the text the model got", i, c, id)
		}
	}
	results := h.srv.Requests()[1].Messages[2].Content
	first, last := contentOf(results[0]), contentOf(results[1])
	if strings.Contains(first, "additional context") ||
		!strings.HasSuffix(last, "\n\n<system-reminder>\nPostToolBatch hook additional context: Context from PostToolBatch\n</system-reminder>") {
		t.Errorf("results %q and %q, want the context at the end of the last one only", first, last)
	}
}

func contentOf(b llm.ContentBlock) string {
	var s strings.Builder
	for _, c := range b.Content {
		s.WriteString(c.Text)
	}
	return s.String()
}

func TestAPostToolBatchBlockEndsTheSessionAfterTheBatch(t *testing.T) {
	for _, command := range []string{`echo 'Batch check failed' >&2; exit 2`, `echo '{"decision":"block","reason":"Batch blocked by hook"}'`} {
		h := newHarness(t)
		h.srv.Push(touchTurn("t1", "made"), llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("done")}})
		a := h.agent(t, func(o *agent.Options) {
			withHooks(h.cwd, [3]string{hooks.PostToolBatch, "", command})(o)
			o.Permissions.Allow = []permission.Rule{{Tool: "Touch"}}
		})
		res := a.Run(context.Background(), "touch it")
		if res.Outcome != agent.Completed || res.Text != "" || len(h.srv.Requests()) != 1 {
			t.Errorf("%s: result %+v after %d requests, want the session ended after the batch", command, res, len(h.srv.Requests()))
		}
		if _, err := os.Stat(filepath.Join(h.cwd, "made")); err != nil {
			t.Errorf("%s: the call did not run", command)
		}
	}
}

func TestSubagentStartContextOpensTheSubAgentsFirstMessage(t *testing.T) {
	h := newHarness(t)
	log := filepath.Join(t.TempDir(), "hooks.jsonl")
	h.srv.Route(llmtest.FirstUserText("parent"), turn(agentCall("a1", "Say hi", "task hi", "")), turn(llmtest.Text("ok")))
	h.srv.Route(llmtest.FirstUserText("task hi"), turn(llmtest.Text("hi")))
	a := h.agent(t, func(o *agent.Options) {
		withSubAgents(o)
		withHooks(h.cwd, [3]string{hooks.SubagentStart, "general-purpose", logThen(log,
			`echo '{"hookSpecificOutput":{"hookEventName":"SubagentStart","additionalContext":"Context from SubagentStart"}}'`)},
			[3]string{hooks.SubagentStart, "reader", "touch wrong-type"})(o)
	})
	if res := a.Run(context.Background(), "parent"); res.Text != "ok" {
		t.Fatalf("result %+v", res)
	}
	first := conversation(t, h.srv, "task hi", 0).Messages[0].Content
	if len(first) != 2 || first[0].Text != "<system-reminder>\nSubagentStart hook additional context: Context from SubagentStart\n</system-reminder>" || first[1].Text != "task hi" {
		t.Errorf("the sub-agent's first message = %+v", first)
	}
	for _, r := range h.srv.Requests() {
		if !llmtest.FirstUserText("task hi")(r) && strings.Contains(r.Messages[0].Text(), "SubagentStart") {
			t.Error("the parent got the SubagentStart context")
		}
	}
	inputs := loggedInputs(t, log)
	id, _ := inputs[0]["agent_id"].(string)
	if len(inputs) != 1 || id == "" || inputs[0]["agent_type"] != "general-purpose" || inputs[0]["transcript_path"] != "/t/s1.jsonl" {
		t.Errorf("inputs = %v, want one naming the sub-agent, with the session's transcript", inputs)
	}
	if _, ok := inputs[0]["permission_mode"]; ok {
		t.Error("SubagentStart got a permission_mode, which Claude Code's lacks")
	}
	if _, err := os.Stat(filepath.Join(h.cwd, "wrong-type")); err == nil {
		t.Error("a hook of another agent type ran")
	}
}

func TestPostCompactGetsTheTriggerAndTheModelsWholeAnswer(t *testing.T) {
	h := newHarness(t)
	log := filepath.Join(t.TempDir(), "hooks.jsonl")
	answer := "<analysis>\nThe session ran.\n</analysis>\n\n<summary>\nWe planned the API.\n</summary>"
	h.srv.Push(llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("Here is the plan.")}},
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text(answer)}})
	a := h.agent(t, func(o *agent.Options) {
		o.CompactThreshold = -1
		withHooks(h.cwd, [3]string{hooks.PostCompact, "manual", logThen(log, "true")}, [3]string{hooks.PostCompact, "auto", "touch auto"})(o)
	})
	a.Run(context.Background(), "plan the API")
	if err := a.Compact(context.Background(), ""); err != nil {
		t.Fatal(err)
	}
	inputs := loggedInputs(t, log)
	if len(inputs) != 1 || inputs[0]["hook_event_name"] != "PostCompact" || inputs[0]["trigger"] != "manual" || inputs[0]["compact_summary"] != answer {
		t.Errorf("inputs = %v, want one manual PostCompact with the whole answer", inputs)
	}
	if msgs := a.Messages(); len(msgs) != 1 || strings.Contains(msgs[0].Text(), "<analysis>") {
		t.Errorf("the history after compaction holds the analysis: %q", msgs[0].Text())
	}
	if _, err := os.Stat(filepath.Join(h.cwd, "auto")); err == nil {
		t.Error("the auto PostCompact hook ran on a manual compaction")
	}
}

func TestStopFailureRunsInPlaceOfStopWhenTheTurnEndsOnAnAPIError(t *testing.T) {
	h := newHarness(t)
	log := filepath.Join(t.TempDir(), "hooks.jsonl")
	h.srv.Push(llmtest.Turn{Faults: []llmtest.Fault{{Status: 400, Message: "Bad request on purpose"}}})
	a := h.agent(t, withHooks(h.cwd, [3]string{hooks.StopFailure, "", logThen(log, "exit 2")}, [3]string{hooks.Stop, "", logThen(log, "true")},
		[3]string{hooks.StopFailure, "server_error", "touch server-error"}))
	if res := a.Run(context.Background(), "Do the task."); res.Outcome != agent.Failed {
		t.Fatalf("result %+v, want the API error", res)
	}
	inputs := loggedInputs(t, log)
	if len(inputs) != 1 || inputs[0]["hook_event_name"] != "StopFailure" || inputs[0]["error"] != "unknown" ||
		inputs[0]["last_assistant_message"] != "API Error: 400 Bad request on purpose" {
		t.Errorf("inputs = %v, want StopFailure alone, with Claude Code's error kind and text", inputs)
	}
	if _, ok := inputs[0]["permission_mode"]; ok {
		t.Error("StopFailure got a permission_mode, which Claude Code's lacks")
	}
	if _, err := os.Stat(filepath.Join(h.cwd, "server-error")); err == nil {
		t.Error("the hook matching server_error ran for a 400")
	}
}

func TestPostCompactHooksHaveRunWhenTheCompactionShows(t *testing.T) {
	h := newHarness(t)
	h.srv.Push(llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("Here is the plan.")}},
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("<summary>\nWe planned the API.\n</summary>")}})
	ran := false
	a := h.agent(t, func(o *agent.Options) {
		o.CompactThreshold = -1
		withHooks(h.cwd, [3]string{hooks.PostCompact, "", "touch post-compact"})(o)
		inner := o.OnEvent
		o.OnEvent = func(e agent.Event) {
			if _, ok := e.(agent.Compacted); ok {
				_, err := os.Stat(filepath.Join(h.cwd, "post-compact"))
				ran = err == nil
			}
			if inner != nil {
				inner(e)
			}
		}
	})
	a.Run(context.Background(), "plan the API")
	if err := a.Compact(context.Background(), ""); err != nil {
		t.Fatal(err)
	}
	if !ran {
		t.Error("the PostCompact hook had not run when Compacted was emitted; Claude Code awaits it before showing the compaction")
	}
}

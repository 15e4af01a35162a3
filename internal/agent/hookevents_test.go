package agent_test

import (
	"context"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/hooks"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

func (h *harness) taken() []agent.Event {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]agent.Event(nil), h.events...)
}

func TestHookRunsAreEventsWithClaudeCodesNames(t *testing.T) {
	h := newHarness(t)
	h.srv.Push(touchTurn("t1", "made"), llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("done")}})
	a := h.agent(t, withHooks(h.cwd, [3]string{hooks.PreToolUse, "Touch", `echo "no touching" >&2; exit 2`}))
	a.Run(context.Background(), "touch it")
	var started *agent.HookStarted
	var finished *agent.HookFinished
	var denied *agent.PermissionDenied
	for _, e := range h.taken() {
		switch e := e.(type) {
		case agent.HookStarted:
			started = &e
		case agent.HookFinished:
			if started == nil {
				t.Fatal("HookFinished before HookStarted")
			}
			finished = &e
		case agent.PermissionDenied:
			denied = &e
		}
	}
	if started == nil || finished == nil || started.ID != finished.ID || started.Name != "PreToolUse:Touch" || started.Event != hooks.PreToolUse {
		t.Fatalf("started %+v, finished %+v", started, finished)
	}
	if finished.ExitCode != 2 || finished.Outcome != "error" || finished.Stderr != "no touching\n" || finished.Stdout != "" {
		t.Errorf("finished = %+v", finished)
	}
	if denied == nil || !denied.ByHook || denied.Asked {
		t.Errorf("denial = %+v, want one by the hook, not asked", denied)
	}
}

func TestAHookAskRefusedHeadlessIsAnAskedDenialByTheHook(t *testing.T) {
	h := newHarness(t)
	h.srv.Push(touchTurn("t1", "made"), llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("done")}})
	a := h.agent(t, withHooks(h.cwd, [3]string{hooks.PreToolUse, "", `echo '{"hookSpecificOutput":{"permissionDecision":"ask","permissionDecisionReason":"confirm"}}'`}))
	a.Run(context.Background(), "touch it")
	for _, e := range h.taken() {
		if d, ok := e.(agent.PermissionDenied); ok {
			if !d.ByHook || !d.Asked || d.Message != "confirm" {
				t.Errorf("denial = %+v", d)
			}
			return
		}
	}
	t.Fatal("no PermissionDenied")
}

func TestAPlainAskRefusedHeadlessIsAskedNotByAHook(t *testing.T) {
	h := newHarness(t)
	h.srv.Push(touchTurn("t1", "made"), llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("done")}})
	a := h.agent(t, nil)
	a.Run(context.Background(), "touch it")
	for _, e := range h.taken() {
		if d, ok := e.(agent.PermissionDenied); ok {
			if d.ByHook || !d.Asked {
				t.Errorf("denial = %+v", d)
			}
			return
		}
	}
	t.Fatal("no PermissionDenied")
}

func TestABlockedPromptAndAPreToolUseTimeoutAreTaggedNotices(t *testing.T) {
	h := newHarness(t)
	a := h.agent(t, withHooks(h.cwd, [3]string{hooks.UserPromptSubmit, "", `echo "Prompt refused by hook" >&2; exit 2`}))
	res := a.Run(context.Background(), "Do the task.")
	want := "UserPromptSubmit operation blocked by hook:\n[echo \"Prompt refused by hook\" >&2; exit 2]: Prompt refused by hook\n\n\nOriginal prompt: Do the task."
	if res.Text != want {
		t.Errorf("result text %q, want %q", res.Text, want)
	}
	var notice *agent.HookNotice
	for _, e := range h.taken() {
		if n, ok := e.(agent.HookNotice); ok {
			notice = &n
		}
	}
	if notice == nil || notice.Kind != agent.NoticePromptBlocked || notice.Reason != "Prompt refused by hook" || notice.Text != want || notice.Level != "warning" {
		t.Errorf("notice = %+v", notice)
	}

	h = newHarness(t)
	h.srv.Push(touchTurn("t1", "made"), llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("done")}})
	a = h.agent(t, func(o *agent.Options) {
		withHooks(h.cwd)(o)
		o.Hooks = hooks.New([]hooks.Hook{{Event: hooks.PreToolUse, Command: "sleep 5", Timeout: 100 * time.Millisecond}}, hooks.Options{ProjectDir: h.cwd})
	})
	a.Run(context.Background(), "touch it")
	notice = nil
	for _, e := range h.taken() {
		if n, ok := e.(agent.HookNotice); ok {
			notice = &n
		}
	}
	if notice == nil || notice.Kind != agent.NoticeNoVerdict || notice.ToolUseID != "t1" || notice.Event != hooks.PreToolUse {
		t.Errorf("notice = %+v", notice)
	}
}

func TestAStopHookBlockIsFeedbackForTheUser(t *testing.T) {
	h := newHarness(t)
	h.srv.Push(llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("first")}}, llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("second")}})
	a := h.agent(t, withHooks(h.cwd, [3]string{hooks.Stop, "", `cat | grep -q '"stop_hook_active":true' || echo '{"decision":"block","reason":"Run the tests first"}'`}))
	a.Run(context.Background(), "go")
	var feedback []agent.StopHookFeedback
	for _, e := range h.taken() {
		if f, ok := e.(agent.StopHookFeedback); ok {
			feedback = append(feedback, f)
		}
	}
	if len(feedback) != 1 || feedback[0].Text != "Stop hook feedback:\nRun the tests first" || feedback[0].Event != hooks.Stop {
		t.Errorf("feedback = %+v", feedback)
	}
}

package tui

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/hooks"
	"github.com/mini-claude/mini-claude/internal/permission"
)

// messagesOf runs cmd and the commands it batches, and returns the messages they produce.
func messagesOf(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	if batch, ok := msg.(tea.BatchMsg); ok {
		var out []tea.Msg
		for _, c := range batch {
			out = append(out, messagesOf(c)...)
		}
		return out
	}
	return []tea.Msg{msg}
}

// notifications runs cmd and returns the notifications it arms.
func notifications(cmd tea.Cmd) []notifyMsg {
	var out []notifyMsg
	for _, msg := range messagesOf(cmd) {
		if n, ok := msg.(notifyMsg); ok {
			out = append(out, n)
		}
	}
	return out
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func TestACallAHookRefusedShowsTheHooksReason(t *testing.T) {
	m := testModel(t, Options{})
	m.Update(eventMsg{agent.ToolQueued{ID: "b1", Name: "Bash", Input: json.RawMessage(`{"command":"rm -rf build"}`)}})
	m.Update(eventMsg{agent.PermissionDenied{Denial: agent.Denial{ToolName: "Bash", ToolUseID: "b1"}, ByHook: true,
		Message: "PreToolUse:Bash hook error: [./guard.sh]: rm -rf is not allowed here; delete the files one by one, by name, after checking each of them\n"}})
	shot := oneLine(screenOf(m))
	for _, want := range []string{"Bash(rm -rf build)", "Blocked by the PreToolUse:Bash hook",
		"rm -rf is not allowed here; delete the files one by one, by name, after checking each of them", "hook: ./guard.sh"} {
		if !strings.Contains(shot, want) {
			t.Errorf("the screen lacks %q:\n%s", want, screenOf(m))
		}
	}
	if strings.Contains(shot, "Rejected by the user") {
		t.Errorf("a hook's refusal is shown as the user's:\n%s", screenOf(m))
	}
}

func TestHookNoticesAreStyledByTheirLevel(t *testing.T) {
	m := testModel(t, Options{})
	m.Update(eventMsg{agent.HookNotice{Level: "notice", Text: "PreToolUse:Bash says: Note from hook"}})
	m.Update(eventMsg{agent.HookNotice{Level: "warning", Text: "A hook didn't answer in time, so it didn't check this action.", Kind: agent.NoticeNoVerdict}})
	m.Update(eventMsg{agent.HookNotice{Level: "error", Text: `PostToolUse hook "lint" failed with status 1: boom`}})
	m.Update(eventMsg{agent.SubAgentEvent{AgentID: "a", Event: agent.HookNotice{Level: "notice", Text: "from the sub-agent's hook"}}})
	m.Update(eventMsg{agent.StopHookFeedback{Event: hooks.Stop, Text: "Stop hook feedback:\nRun the tests first"}})
	var kinds []blockKind
	for _, b := range m.conv.blocks {
		kinds = append(kinds, b.kind)
	}
	want := []blockKind{blockNotice, blockWarning, blockError, blockNotice, blockWarning}
	if len(kinds) != len(want) {
		t.Fatalf("blocks %v, want %v", kinds, want)
	}
	for i := range want {
		if kinds[i] != want[i] {
			t.Errorf("blocks %v, want %v", kinds, want)
			break
		}
	}
	shot := oneLine(screenOf(m))
	for _, s := range []string{"Note from hook", "didn't check this action", "failed with status 1: boom", "from the sub-agent's hook", "Run the tests first"} {
		if !strings.Contains(shot, s) {
			t.Errorf("the screen lacks %q", s)
		}
	}
}

func TestABlockedPromptShowsWhyAndGoesBackToTheInput(t *testing.T) {
	m := testModel(t, Options{})
	typeText(m, "deploy to prod")
	press(m, "enter")
	if m.turn == nil || m.input.Value() != "" {
		t.Fatal("the prompt did not start a turn")
	}
	text := "UserPromptSubmit operation blocked by hook:\n[./policy.sh]: No deploys on Friday\n\n\nOriginal prompt: deploy to prod"
	m.Update(eventMsg{agent.HookNotice{Level: "warning", Text: text, Kind: agent.NoticePromptBlocked, Reason: "No deploys on Friday"}})
	m.Update(turnDoneMsg{result: agent.Result{Outcome: agent.Completed, Text: text}})
	if got := m.input.Value(); got != "deploy to prod" {
		t.Errorf("input = %q, want the blocked prompt", got)
	}
	shot := oneLine(screenOf(m))
	if !strings.Contains(shot, "UserPromptSubmit operation blocked by hook: No deploys on Friday") ||
		!strings.Contains(shot, "Your prompt is back in the input") {
		t.Errorf("the block is not shown:\n%s", screenOf(m))
	}
	for _, b := range m.conv.blocks {
		if b.kind == blockUser {
			t.Errorf("the blocked prompt is still shown as sent")
		}
	}
}

func TestHooksCommandListsTheConfiguredHooks(t *testing.T) {
	m := testModel(t, Options{Cwd: "/p", Hooks: []hooks.Hook{
		{Event: hooks.PostToolUse, Matcher: "Edit|Write", Command: "gofmt -w .", Timeout: 5 * time.Second, Source: "/p/.claude/settings.json"},
		{Event: hooks.PreToolUse, Matcher: "Bash", Command: "./guard.sh", Timeout: hooks.DefaultTimeout, Source: "/home/u/.mini-claude/settings.json"},
		{Event: hooks.Stop, Command: "make test", Timeout: hooks.DefaultTimeout, Source: "/p/.claude/settings.json"},
	}})
	typeText(m, "/hooks")
	press(m, "enter")
	shot := screenOf(m)
	for _, want := range []string{"Hooks (3):", "PreToolUse", "Bash", "./guard.sh", "/home/u/.mini-claude/settings.json",
		"PostToolUse", "Edit|Write", "gofmt -w .", ".claude/settings.json · timeout 5s", "Stop", "make test"} {
		if !strings.Contains(shot, want) {
			t.Errorf("/hooks lacks %q:\n%s", want, shot)
		}
	}
	if strings.Index(shot, "PreToolUse") > strings.Index(shot, "PostToolUse") {
		t.Errorf("/hooks does not list the events in Claude Code's order:\n%s", shot)
	}

	m = testModel(t, Options{})
	typeText(m, "/hooks")
	press(m, "enter")
	if !strings.Contains(screenOf(m), "No hooks are configured") {
		t.Errorf("/hooks without hooks:\n%s", screenOf(m))
	}
	typeText(m, "/help")
	press(m, "enter")
	if !strings.Contains(screenOf(m), "/hooks") {
		t.Errorf("/help does not list /hooks:\n%s", screenOf(m))
	}
}

func TestTabCompletesSlashCommands(t *testing.T) {
	m := testModel(t, Options{})
	typeText(m, "/ho")
	m.Update(tea.KeyPressMsg{Code: tea.KeyTab})
	if got := m.input.Value(); got != "/hooks " {
		t.Errorf("/ho completed to %q, want /hooks", got)
	}
	m.setInput("/c")
	m.Update(tea.KeyPressMsg{Code: tea.KeyTab})
	if got := m.input.Value(); got != "/c" || !strings.Contains(m.hint, "/clear") || !strings.Contains(m.hint, "/compact") || !strings.Contains(m.hint, "/cost") {
		t.Errorf("/c: input %q, hint %q", got, m.hint)
	}
}

func TestTheSpinnerNamesTheRunningHook(t *testing.T) {
	m := testModel(t, Options{})
	typeText(m, "go")
	press(m, "enter")
	m.Update(eventMsg{agent.HookStarted{ID: "h1", Name: "PreToolUse:Bash", Event: hooks.PreToolUse}})
	if !strings.Contains(screenOf(m), "Running PreToolUse:Bash hook…") {
		t.Errorf("the spinner does not name the hook:\n%s", screenOf(m))
	}
	m.Update(eventMsg{agent.HookFinished{ID: "h1", Name: "PreToolUse:Bash", Event: hooks.PreToolUse, Outcome: "success"}})
	if strings.Contains(screenOf(m), "Running PreToolUse:Bash hook") {
		t.Errorf("the spinner still names a finished hook:\n%s", screenOf(m))
	}
}

// notifier records the notifications the UI sends.
type notifier struct {
	mu   sync.Mutex
	sent []string
}

func (n *notifier) notify(message, kind string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.sent = append(n.sent, kind+": "+message)
}

func TestAPermissionDialogLeftOpenNotifies(t *testing.T) {
	n := &notifier{}
	m := testModel(t, Options{Notify: n.notify, PermissionNotifyDelay: time.Millisecond, IdleNotifyDelay: time.Hour})
	reply := make(chan permission.Answer, 1)
	_, cmd := m.Update(askMsg{prompt: permission.Prompt{Tool: "Bash", Input: json.RawMessage(`{"command":"touch x"}`)}, reply: reply})
	due := notifications(cmd)
	if len(due) != 1 {
		t.Fatalf("%d notifications armed, want 1", len(due))
	}
	m.Update(due[0])
	if len(n.sent) != 1 || n.sent[0] != "permission_prompt: Claude needs your permission" {
		t.Errorf("sent %v", n.sent)
	}

	// Answered before the delay: nothing is sent.
	n.sent = nil
	_, cmd = m.Update(askMsg{prompt: permission.Prompt{Tool: "Bash", Input: json.RawMessage(`{"command":"touch y"}`)}, reply: reply})
	due = notifications(cmd)
	press(m, "1")
	m.Update(due[0])
	if len(n.sent) != 0 {
		t.Errorf("an answered dialog notified: %v", n.sent)
	}
}

func TestWaitingForAPromptNotifiesOnce(t *testing.T) {
	n := &notifier{}
	m := testModel(t, Options{Notify: n.notify, IdleNotifyDelay: time.Millisecond})
	typeText(m, "go")
	press(m, "enter")
	_, cmd := m.Update(turnDoneMsg{result: agent.Result{Outcome: agent.Completed}})
	due := notifications(cmd)
	if len(due) != 1 {
		t.Fatalf("%d notifications armed after the turn, want 1", len(due))
	}
	m.Update(due[0])
	if len(n.sent) != 1 || n.sent[0] != "idle_prompt: Claude is waiting for your input" {
		t.Errorf("sent %v", n.sent)
	}

	// A key pressed in between re-arms the wait: the first timer is void.
	n.sent = nil
	typeText(m, "go")
	press(m, "enter")
	_, cmd = m.Update(turnDoneMsg{result: agent.Result{Outcome: agent.Completed}})
	first := notifications(cmd)
	_, cmd = m.Update(tea.KeyPressMsg{Code: 'x', Text: "x"})
	second := notifications(cmd)
	m.Update(first[0])
	if len(n.sent) != 0 {
		t.Errorf("a wait a key interrupted notified: %v", n.sent)
	}
	m.Update(second[0])
	if len(n.sent) != 1 {
		t.Errorf("sent %v after the wait from the last key", n.sent)
	}
}

func TestAHooksQuestionOffersNoAnswerForGood(t *testing.T) {
	prompt := permission.Prompt{Tool: "Bash", Input: json.RawMessage(`{"command":"echo hi"}`),
		Reason: "Hook wants a human to confirm", Hook: "PreToolUse:Bash"}
	cases := []struct {
		key   string
		allow bool
	}{{"1", true}, {"2", false}, {"a", false}}
	for _, c := range cases {
		t.Run(c.key, func(t *testing.T) {
			m := testModel(t, Options{Permissions: &permission.Context{Mode: permission.ModeDefault}, Cwd: t.TempDir(),
				AddAllowRule: func(rule string) (string, error) { t.Errorf("the rule %s was saved", rule); return "", nil }})
			m.turn = &turnState{cancel: func() {}, started: time.Now()}
			reply := make(chan permission.Answer, 1)
			m.Update(askMsg{prompt: prompt, reply: reply})
			shot := oneLine(screenOf(m))
			for _, want := range []string{"Hook PreToolUse:Bash requires confirmation for this command:", "Hook wants a human to confirm",
				"1. Yes", "2. No", "3. No, and tell the model what to do instead"} {
				if !strings.Contains(shot, want) {
					t.Fatalf("the dialog lacks %q:\n%s", want, screenOf(m))
				}
			}
			if strings.Contains(shot, "don't ask again") {
				t.Fatalf("the dialog offers an answer for good to a hook's question:\n%s", screenOf(m))
			}
			press(m, c.key)
			if c.key == "a" {
				if m.dialog == nil {
					t.Fatal("a key for an answer not offered closed the dialog")
				}
				return
			}
			if a := <-reply; a.Allow != c.allow {
				t.Errorf("answer %+v, want allow %v", a, c.allow)
			}
		})
	}
}

package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/hooks"
	"github.com/mini-claude/mini-claude/internal/permission"
)

func TestWhatAHookSaysIsShownInTheConversation(t *testing.T) {
	m := testModel(t, Options{})
	m.Update(eventMsg{agent.HookNotice{Level: "notice", Text: "PreToolUse:Bash says: Note from hook"}})
	m.Update(eventMsg{agent.HookNotice{Level: "error", Text: `Stop hook "make test" failed with status 1: boom`}})
	screen := screenOf(m)
	for _, want := range []string{"PreToolUse:Bash says: Note from hook", `Stop hook "make test" failed with status 1: boom`} {
		if !strings.Contains(screen, want) {
			t.Errorf("screen lacks %q:\n%s", want, screen)
		}
	}
}

func TestSlashHooksListsTheHooks(t *testing.T) {
	m := testModel(t, Options{Hooks: []hooks.Hook{{Event: hooks.PreToolUse, Matcher: "Bash", Command: "./guard.sh",
		Timeout: hooks.DefaultTimeout, Source: "/p/.claude/settings.json"}}})
	typeText(m, "/hooks")
	press(m, "enter")
	if screen := screenOf(m); !strings.Contains(screen, "PreToolUse") || !strings.Contains(screen, "Bash           ./guard.sh") {
		t.Errorf("screen lacks the hook:\n%s", screen)
	}
	none := testModel(t, Options{})
	typeText(none, "/hooks")
	press(none, "enter")
	if screen := screenOf(none); !strings.Contains(screen, "No hooks are configured") {
		t.Errorf("screen without hooks:\n%s", screen)
	}
}

func TestAWaitingDialogAndAnIdlePromptRaiseNotifications(t *testing.T) {
	got := make(chan string, 4)
	m := testModel(t, Options{Notify: func(message, kind string) { got <- kind + ": " + message },
		PermissionNotifyDelay: time.Millisecond, IdleNotifyDelay: time.Millisecond})
	var run func(tea.Cmd)
	run = func(cmd tea.Cmd) {
		for cmd != nil {
			msg := cmd()
			if batch, ok := msg.(tea.BatchMsg); ok {
				for _, c := range batch {
					run(c)
				}
				return
			}
			_, cmd = m.Update(msg)
		}
	}
	_, cmd := m.Update(askMsg{prompt: permission.Prompt{Tool: "Bash"}, reply: make(chan permission.Answer, 1)})
	run(cmd)
	if k := <-got; k != "permission_prompt: Claude needs your permission" {
		t.Errorf("notification = %q", k)
	}
	m.dialog = nil
	_, cmd = m.Update(turnDoneMsg{})
	run(cmd)
	if k := <-got; k != "idle_prompt: Claude is waiting for your input" {
		t.Errorf("notification = %q", k)
	}
	_, cmd = m.Update(askMsg{prompt: permission.Prompt{Tool: "Bash"}, reply: make(chan permission.Answer, 1)})
	m.dialog = nil
	run(cmd)
	select {
	case k := <-got:
		t.Errorf("a dialog answered before its delay still notified: %q", k)
	default:
	}
}

package tui

import (
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/agent"
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
	m := testModel(t, Options{Hooks: func() []string { return []string{"PreToolUse Bash: ./guard.sh (1m0s, from /p/.claude/settings.json)"} }})
	typeText(m, "/hooks")
	press(m, "enter")
	if screen := screenOf(m); !strings.Contains(screen, "PreToolUse Bash: ./guard.sh") {
		t.Errorf("screen lacks the hook:\n%s", screen)
	}
	none := testModel(t, Options{})
	typeText(none, "/hooks")
	press(none, "enter")
	if screen := screenOf(none); !strings.Contains(screen, "No hooks are configured") {
		t.Errorf("screen without hooks:\n%s", screen)
	}
}

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

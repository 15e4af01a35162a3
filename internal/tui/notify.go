package tui

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// The notifications the UI raises, with Claude Code's messages and types,
// and how long their condition must last first unless Options say otherwise.
const (
	permissionPrompt = "permission_prompt"
	idlePrompt       = "idle_prompt"

	defaultPermissionNotifyDelay = 6 * time.Second
	defaultIdleNotifyDelay       = 60 * time.Second
)

var notificationTexts = map[string]string{
	permissionPrompt: "Claude needs your permission",
	idlePrompt:       "Claude is waiting for your input",
}

// notifyMsg fires when a notification's delay has passed; seq tells whether
// anything has happened since it was set.
type notifyMsg struct {
	kind string
	seq  int
}

// waitToNotify arms the notification kind; anything that arms another one
// first disarms it.
func (m *model) waitToNotify(kind string) tea.Cmd {
	if m.opts.Notify == nil {
		return nil
	}
	delay := m.opts.IdleNotifyDelay
	if delay == 0 {
		delay = defaultIdleNotifyDelay
	}
	if kind == permissionPrompt {
		delay = m.opts.PermissionNotifyDelay
		if delay == 0 {
			delay = defaultPermissionNotifyDelay
		}
	}
	m.notifySeq++
	seq := m.notifySeq
	return tea.Tick(delay, func(time.Time) tea.Msg { return notifyMsg{kind: kind, seq: seq} })
}

// notified raises the notification when nothing has happened since it was
// armed and its condition still holds: a dialog open, or no turn running.
// The Notify callback runs off the UI's goroutine.
func (m *model) notified(msg notifyMsg) tea.Cmd {
	if msg.seq != m.notifySeq {
		return nil
	}
	switch msg.kind {
	case permissionPrompt:
		if m.dialog == nil {
			return nil
		}
	case idlePrompt:
		if m.turn != nil || m.dialog != nil {
			return nil
		}
	}
	notify, text := m.opts.Notify, notificationTexts[msg.kind]
	return func() tea.Msg {
		notify(text, msg.kind)
		return nil
	}
}

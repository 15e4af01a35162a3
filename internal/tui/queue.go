package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// Type-ahead, as in Claude Code: what the user enters while a turn runs (a
// prompt, a custom command, a built-in that changes the session) waits in a
// queue shown under the input, and each entry is sent in order, as a turn of
// its own, once the turn before it ended. Up pulls the queue back into the
// input for editing; so does Esc, which interrupts the turn: after an
// interruption nothing the user typed earlier goes out on its own.

// inputPlaceholder is what the empty input says; queuePlaceholder replaces
// it while entries wait.
const (
	inputPlaceholder = "Ask anything · / for commands · ! for shell"
	queuePlaceholder = "Press up to edit queued messages"
)

// enqueue keeps an entry the user entered while a turn runs.
func (m *model) enqueue(text string) {
	m.queue = append(m.queue, text)
	m.input.Placeholder = queuePlaceholder
}

// editQueued moves the queued entries into the input, oldest first, a line
// each, before what the input held; it reports whether there were any.
func (m *model) editQueued() bool {
	if len(m.queue) == 0 {
		return false
	}
	parts := m.queue
	if current := m.input.Value(); strings.TrimSpace(current) != "" {
		parts = append(parts, current)
	}
	m.queue = nil
	m.input.Placeholder = inputPlaceholder
	m.setInput(strings.Join(parts, "\n"))
	return true
}

// sendQueued sends the queued entries, oldest first, as long as no turn
// runs and no dialog, picker or rewind list waits: each one that starts a
// turn (a prompt, a custom command, /compact) or opens one holds the rest
// back until it is done.
func (m *model) sendQueued() tea.Cmd {
	var cmds []tea.Cmd
	for len(m.queue) > 0 && m.turn == nil && m.dialog == nil && m.picker == nil && m.rewind == nil && !m.quitting {
		text := m.queue[0]
		m.queue = m.queue[1:]
		cmds = append(cmds, m.send(text))
	}
	if len(m.queue) == 0 {
		m.input.Placeholder = inputPlaceholder
	}
	return tea.Batch(cmds...)
}

// queueRows are the queued entries as drawn under the input: dim, their
// first line each, cut to the width.
func (m *model) queueRows() []string {
	rows := make([]string, 0, len(m.queue))
	for _, text := range m.queue {
		first, _, more := strings.Cut(text, "\n")
		if more {
			first += " …"
		}
		rows = append(rows, dimStyle.Render(ansi.Truncate("  ⧗ queued: "+first, m.width, "…")))
	}
	return rows
}

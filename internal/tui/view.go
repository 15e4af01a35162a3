package tui

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mini-claude/mini-claude/internal/permission"
)

var spinnerFrames = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// View draws the screen: the visible part of the conversation, then the
// dialog or the input, then the status line.
func (m *model) View() tea.View {
	if m.quitting {
		return tea.NewView("")
	}
	var bottom []string
	if m.turn != nil {
		bottom = append(bottom, m.spinnerLine())
	}
	switch {
	case m.dialog != nil:
		bottom = append(bottom, m.dialog.view(m.render, m.width))
	case m.picker != nil:
		bottom = append(bottom, m.picker.view(m.width, m.height/2))
	case m.rewind != nil:
		bottom = append(bottom, m.rewind.view(m, m.width, m.height*2/3))
	default:
		bottom = append(bottom, inputBorder.Width(m.width).Render(m.input.View()))
		for line := range strings.SplitSeq(m.hint, "\n") {
			if line != "" {
				bottom = append(bottom, dimStyle.Render(ansi.Truncate("  "+line, m.width, "…")))
			}
		}
	}
	bottom = append(bottom, m.statusLine())
	foot := strings.Join(bottom, "\n")
	height := max(1, m.height-strings.Count(foot, "\n")-1)
	rows := m.conv.window(m.render, m.width, height)
	for len(rows) < height {
		rows = append([]string{""}, rows...)
	}
	v := tea.NewView(strings.Join(rows, "\n") + "\n" + foot)
	v.AltScreen = true
	// Cell-motion reporting is the least that brings the wheel: terminals
	// then select text with Shift held (Option on macOS terminals).
	v.MouseMode = tea.MouseModeCellMotion
	return v
}

// conversationHeight is the number of rows the conversation gets, roughly:
// the screen less the input and the status line.
func (m *model) conversationHeight() int {
	return max(1, m.height-m.input.Height()-4)
}

// spinnerLine says the model is working: for how long, and how many tokens
// it has written (estimated while a response streams).
func (m *model) spinnerLine() string {
	t := m.turn
	tokens := t.outputTokens + t.streamedChars/4
	elapsed := time.Since(t.started).Round(time.Second)
	frame := spinnerFrames[m.frame%len(spinnerFrames)]
	doing := "Working…"
	if t.thinking {
		doing = "Thinking…"
	}
	if hook := m.hookActivity(); hook != "" {
		doing = hook
	}
	line := fmt.Sprintf("%s %s (%s · ↓ %d tokens · esc to interrupt)", frame, doing, elapsed, tokens)
	return accentStyle.Render(ansi.Truncate(line, m.width, "…"))
}

// statusLine shows the model, the directory, the permission mode, how much
// of the context is used and what the session cost.
func (m *model) statusLine() string {
	parts := []string{m.model, shortPath(m.opts.Cwd)}
	mode := string(m.mode)
	if m.mode == permission.ModeDefault {
		mode = "default mode"
	}
	if m.turn != nil && m.turn.mode != "" && m.turn.mode != m.mode {
		mode += " (next turn)"
	}
	parts = append(parts, mode+" (shift+tab)")
	if m.opts.ContextWindow != nil {
		if window := m.opts.ContextWindow(m.model); window > 0 {
			parts = append(parts, fmt.Sprintf("context %d%%", m.ctxUsed*100/window))
		}
	}
	parts = append(parts, fmt.Sprintf("$%.4f", m.costUSD))
	if !m.ctrlCAt.IsZero() && time.Since(m.ctrlCAt) < 2*time.Second {
		parts = []string{"Press Ctrl-C again to exit"}
	}
	return dimStyle.Render(ansi.Truncate(strings.Join(parts, " · "), m.width, "…"))
}

func shortPath(p string) string {
	if p == "" {
		return ""
	}
	return filepath.Base(p)
}

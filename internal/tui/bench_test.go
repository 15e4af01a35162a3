package tui

import (
	"encoding/json"
	"fmt"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/tools/bash"
)

// sessionOf returns a model after turns scripted turns, each a prompt, a
// markdown answer and a Bash call with its output, drawn once as they came.
func sessionOf(b *testing.B, turns int) *model {
	m := testModel(&testing.T{}, Options{})
	for i := 0; i < turns; i++ {
		m.conv.add(&block{kind: blockUser, text: fmt.Sprintf("turn %d: look at the tests", i)})
		m.Update(eventMsg{agent.TextDelta{Text: fmt.Sprintf("Turn %d. Running **the tests** now:\n\n- first\n- second `code`", i)}})
		id := fmt.Sprintf("t%d", i)
		m.Update(eventMsg{agent.AssistantMessage{Message: llm.Message{Role: llm.RoleAssistant}}})
		m.Update(eventMsg{agent.ToolQueued{ID: id, Name: "Bash", Input: json.RawMessage(`{"command":"go test ./..."}`)}})
		m.Update(eventMsg{agent.ToolStarted{ID: id, Name: "Bash"}})
		out := bash.Output{Text: "ok  \tpkg/a\t0.1s\nok  \tpkg/b\t0.2s\nok  \tpkg/c\t0.3s\nok  \tpkg/d\t0.4s"}
		m.Update(eventMsg{agent.ToolFinished{ID: id, Name: "Bash", Result: llm.ToolResultBlock(id, []llm.ContentBlock{llm.TextBlock(out.Text)}, false), Output: out}})
		m.View()
	}
	return m
}

// BenchmarkKeystroke is the cost of one key typed into the input and the
// frame drawn after it, at turn 10 and at turn 500 of a session.
func BenchmarkKeystroke(b *testing.B) {
	for _, turns := range []int{10, 500} {
		b.Run(fmt.Sprintf("turn-%d", turns), func(b *testing.B) {
			m := sessionOf(b, turns)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				m.Update(tea.KeyPressMsg{Code: 'x', Text: "x"})
				m.View()
				m.Update(tea.KeyPressMsg{Code: tea.KeyBackspace})
				m.View()
			}
		})
	}
}

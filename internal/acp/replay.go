package acp

import (
	"strings"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/mini-claude/mini-claude/internal/llm"
)

// replay sends a loaded conversation to the editor as the updates it would
// have seen live: the user's prompts, the model's text and thinking, and
// each tool call with how it ended.
func (s *session) replay(history []llm.Message) {
	for _, m := range history {
		for _, b := range m.Content {
			s.replayBlock(m.Role, b)
		}
	}
}

func (s *session) replayBlock(role llm.Role, b llm.ContentBlock) {
	switch b.Type {
	case llm.BlockText:
		switch {
		case role == llm.RoleAssistant:
			s.srv.update(s.id, sdk.UpdateAgentMessageText(b.Text))
		case !strings.HasPrefix(strings.TrimSpace(b.Text), "<system-reminder>"):
			s.srv.update(s.id, sdk.UpdateUserMessageText(b.Text))
		}
	case llm.BlockThinking:
		s.srv.update(s.id, sdk.UpdateAgentThoughtText(b.Thinking))
	case llm.BlockToolUse:
		s.mu.Lock()
		s.calls[b.ID] = call{name: b.Name, input: b.Input}
		s.mu.Unlock()
		s.srv.update(s.id, startToolCall(b.ID, b.Name, b.Input, sdk.ToolCallStatusPending))
		if entries, ok := planEntries(b.Name, b.Input); ok {
			s.srv.update(s.id, sdk.UpdatePlan(entries...))
		}
	case llm.BlockToolResult:
		s.mu.Lock()
		c, ok := s.calls[b.ToolUseID]
		s.mu.Unlock()
		if ok {
			s.srv.update(s.id, finishToolCall(b.ToolUseID, c, b, nil))
		}
	}
}

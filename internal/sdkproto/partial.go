package sdkproto

import (
	"github.com/google/uuid"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/llm"
)

// Partial writes the stream_event lines of --include-partial-messages: the
// Messages API's streaming events of each response, rebuilt from the
// agent's deltas. Before takes an event before the assistant lines are
// written, After after them, as Claude Code writes a message's closing
// events after its assistant line. The message's id is not known when it
// starts, so message_start carries none.
type Partial struct {
	Send      func(v any)
	SessionID string
	Model     string

	open  bool   // a message has started
	block string // the open block's type; "" when none
	tool  string // the open tool_use block's id
	index int    // the open block's index, or the next one's
}

// streamEvent is one line.
type streamEvent struct {
	Type            string  `json:"type"`
	Event           any     `json:"event"`
	SessionID       string  `json:"session_id"`
	ParentToolUseID *string `json:"parent_tool_use_id"`
	UUID            string  `json:"uuid"`
}

// Before writes the events a delta implies: the message's start, the end of
// the block before and the start of a new one, the delta itself.
func (p *Partial) Before(e agent.Event) {
	switch e := e.(type) {
	case agent.TextDelta:
		p.blockOf("text", "", map[string]any{"type": "text", "text": ""})
		p.emit(map[string]any{"type": "content_block_delta", "index": p.index, "delta": map[string]any{"type": "text_delta", "text": e.Text}})
	case agent.ThinkingDelta:
		p.blockOf("thinking", "", map[string]any{"type": "thinking", "thinking": "", "signature": ""})
		p.emit(map[string]any{"type": "content_block_delta", "index": p.index, "delta": map[string]any{"type": "thinking_delta", "thinking": e.Text}})
	case agent.ToolInputDelta:
		p.blockOf("tool_use", e.ID, map[string]any{"type": "tool_use", "id": e.ID, "name": e.Name, "input": map[string]any{}})
		if e.PartialJSON != "" {
			p.emit(map[string]any{"type": "content_block_delta", "index": p.index, "delta": map[string]any{"type": "input_json_delta", "partial_json": e.PartialJSON}})
		}
	case agent.StreamRetry:
		p.open, p.block, p.tool, p.index = false, "", "", 0
	}
}

// After closes the message an AssistantMessage completes.
func (p *Partial) After(e agent.Event) {
	m, ok := e.(agent.AssistantMessage)
	if !ok || !p.open {
		return
	}
	if p.block != "" {
		p.emit(map[string]any{"type": "content_block_stop", "index": p.index})
	}
	p.emit(map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": m.StopReason, "stop_sequence": nil}, "usage": m.Usage})
	p.emit(map[string]any{"type": "message_stop"})
	p.open, p.block, p.tool, p.index = false, "", "", 0
}

// blockOf makes sure a block of kind (for a tool_use, of that id) is open,
// starting the message and ending the block before as needed.
func (p *Partial) blockOf(kind, id string, start map[string]any) {
	if !p.open {
		p.open = true
		p.emit(map[string]any{"type": "message_start", "message": map[string]any{"id": "", "type": "message", "role": llm.RoleAssistant,
			"model": p.Model, "content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": llm.Usage{}}})
	}
	if p.block == kind && p.tool == id {
		return
	}
	if p.block != "" {
		p.emit(map[string]any{"type": "content_block_stop", "index": p.index})
		p.index++
	}
	p.block, p.tool = kind, id
	p.emit(map[string]any{"type": "content_block_start", "index": p.index, "content_block": start})
}

func (p *Partial) emit(event any) {
	p.Send(streamEvent{Type: "stream_event", Event: event, SessionID: p.SessionID, UUID: uuid.NewString()})
}

package anthropic

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/retry"
)

// errIncomplete is a stream that ended before message_stop.
var errIncomplete = errors.New("stream ended before message_stop")

// attempt sends one request and yields its events as they arrive, ending with
// MessageEnd. It returns nil on a complete message, retry.ErrStopped when the
// consumer stopped, or the error that cut the attempt short.
func (c *Client) attempt(ctx context.Context, params sdk.MessageNewParams, n int, yield func(llm.Event, error) bool) error {
	var resp *http.Response
	stream := c.sdk.Messages.NewStreaming(ctx, params,
		option.WithResponseInto(&resp),
		option.WithHeader("x-stainless-retry-count", strconv.Itoa(n)))
	defer stream.Close()
	a := assembler{yield: yield}
	for stream.Next() {
		if err := a.handle(stream.Current()); err != nil {
			return err
		}
		if a.stopped {
			return retry.ErrStopped
		}
		if a.done {
			if !yield(a.end(resp), nil) {
				return retry.ErrStopped
			}
			return nil
		}
	}
	if err := stream.Err(); err != nil {
		var aerr *sdk.Error
		var syntax *json.SyntaxError
		switch {
		case errors.As(err, &syntax):
			return fmt.Errorf("malformed stream event: %w", err)
		case resp != nil && !errors.As(err, &aerr):
			return fmt.Errorf("stream broken: %w", err)
		}
		return err
	}
	return errIncomplete
}

// block is a content block being assembled.
type block struct {
	typ       string
	text      strings.Builder // text, thinking, or tool_use input JSON
	signature string
	data      string
	id, name  string
	input     json.RawMessage // the input of a tool_use start event, used when no delta came
	// search is a web_search_tool_result block, whole from its start event.
	search *llm.ContentBlock
}

// assembler turns the SDK's stream events into llm events and the final message.
type assembler struct {
	yield   func(llm.Event, error) bool
	stopped bool
	done    bool
	msgID   string
	blocks  []*block
	stop    llm.StopReason
	usage   llm.Usage
}

// emit yields e unless the consumer has stopped.
func (a *assembler) emit(e llm.Event) {
	if !a.stopped && !a.yield(e, nil) {
		a.stopped = true
	}
}

// handle processes one stream event.
func (a *assembler) handle(ev sdk.MessageStreamEventUnion) error {
	switch ev.Type {
	case "message_start":
		a.msgID = ev.Message.ID
		u := ev.Message.Usage
		a.usage = llm.Usage{
			InputTokens: int(u.InputTokens), OutputTokens: int(u.OutputTokens),
			CacheCreationInputTokens: int(u.CacheCreationInputTokens), CacheReadInputTokens: int(u.CacheReadInputTokens),
		}
	case "content_block_start":
		return a.start(ev)
	case "content_block_delta":
		return a.delta(ev)
	case "content_block_stop":
		b, err := a.block(ev.Index)
		if err != nil {
			return err
		}
		if b.typ == string(llm.BlockToolUse) {
			a.emit(llm.ToolUseEnd{ID: b.id, Input: b.toolInput()})
		}
	case "message_delta":
		a.stop = llm.StopReason(ev.Delta.StopReason)
		a.mergeUsage(ev.Usage)
	case "message_stop":
		a.done = true
	}
	return nil
}

// start opens the block of a content_block_start event.
func (a *assembler) start(ev sdk.MessageStreamEventUnion) error {
	if ev.Index != int64(len(a.blocks)) {
		return fmt.Errorf("malformed stream: content_block_start with index %d after %d blocks", ev.Index, len(a.blocks))
	}
	cb := ev.ContentBlock
	b := &block{typ: cb.Type, signature: cb.Signature, data: cb.Data, id: cb.ID, name: cb.Name}
	a.blocks = append(a.blocks, b)
	switch llm.BlockType(cb.Type) {
	case llm.BlockText:
		b.text.WriteString(cb.Text)
		if cb.Text != "" {
			a.emit(llm.TextDelta{Text: cb.Text})
		}
	case llm.BlockThinking:
		b.text.WriteString(cb.Thinking)
		if cb.Thinking != "" {
			a.emit(llm.ThinkingDelta{Thinking: cb.Thinking})
		}
	case llm.BlockToolUse, llm.BlockServerToolUse:
		if raw := cb.JSON.Input.Raw(); raw != "" && raw != "{}" && raw != "null" {
			b.input = json.RawMessage(raw)
		}
		if b.typ == string(llm.BlockToolUse) {
			a.emit(llm.ToolUseStart{ID: cb.ID, Name: cb.Name})
		}
	case llm.BlockWebSearchResult:
		var whole llm.ContentBlock
		if err := json.Unmarshal([]byte(cb.RawJSON()), &whole); err != nil {
			return fmt.Errorf("malformed stream: web_search_tool_result: %w", err)
		}
		b.search = &whole
	}
	return nil
}

// delta applies a content_block_delta event.
func (a *assembler) delta(ev sdk.MessageStreamEventUnion) error {
	b, err := a.block(ev.Index)
	if err != nil {
		return err
	}
	d := ev.Delta
	switch d.Type {
	case "text_delta":
		b.text.WriteString(d.Text)
		a.emit(llm.TextDelta{Text: d.Text})
	case "thinking_delta":
		b.text.WriteString(d.Thinking)
		a.emit(llm.ThinkingDelta{Thinking: d.Thinking})
	case "signature_delta":
		b.signature += d.Signature
	case "input_json_delta":
		if d.PartialJSON != "" {
			b.text.WriteString(d.PartialJSON)
			if b.typ == string(llm.BlockToolUse) {
				a.emit(llm.ToolUseDelta{ID: b.id, PartialJSON: d.PartialJSON})
			}
		}
	}
	return nil
}

// block returns the open block at index.
func (a *assembler) block(index int64) (*block, error) {
	if index < 0 || index >= int64(len(a.blocks)) {
		return nil, fmt.Errorf("malformed stream: event for unknown content block %d", index)
	}
	return a.blocks[index], nil
}

// mergeUsage takes the counts a message_delta event reports; they are cumulative.
func (a *assembler) mergeUsage(u sdk.MessageDeltaUsage) {
	a.usage.OutputTokens = int(u.OutputTokens)
	if u.JSON.InputTokens.Valid() {
		a.usage.InputTokens = int(u.InputTokens)
	}
	if u.JSON.CacheCreationInputTokens.Valid() {
		a.usage.CacheCreationInputTokens = int(u.CacheCreationInputTokens)
	}
	if u.JSON.CacheReadInputTokens.Valid() {
		a.usage.CacheReadInputTokens = int(u.CacheReadInputTokens)
	}
}

// toolInput returns the whole JSON input of a tool_use block, "{}" when empty.
func (b *block) toolInput() json.RawMessage {
	if b.text.Len() > 0 {
		return json.RawMessage(b.text.String())
	}
	if b.input != nil {
		return b.input
	}
	return json.RawMessage("{}")
}

// end returns the MessageEnd of a complete stream; blocks of kinds the agent
// does not know are left out of the message.
func (a *assembler) end(resp *http.Response) llm.MessageEnd {
	msg := llm.Message{Role: llm.RoleAssistant, Content: make([]llm.ContentBlock, 0, len(a.blocks))}
	for _, b := range a.blocks {
		switch llm.BlockType(b.typ) {
		case llm.BlockText:
			msg.Content = append(msg.Content, llm.TextBlock(b.text.String()))
		case llm.BlockThinking:
			msg.Content = append(msg.Content, llm.ContentBlock{Type: llm.BlockThinking, Thinking: b.text.String(), Signature: b.signature})
		case llm.BlockRedactedThinking:
			msg.Content = append(msg.Content, llm.ContentBlock{Type: llm.BlockRedactedThinking, Data: b.data})
		case llm.BlockToolUse, llm.BlockServerToolUse:
			msg.Content = append(msg.Content, llm.ContentBlock{Type: llm.BlockType(b.typ), ID: b.id, Name: b.name, Input: b.toolInput()})
		case llm.BlockWebSearchResult:
			msg.Content = append(msg.Content, *b.search)
		}
	}
	end := llm.MessageEnd{Message: msg, StopReason: a.stop, Usage: a.usage, MessageID: a.msgID}
	if resp != nil {
		end.RequestID = resp.Header.Get("request-id")
	}
	return end
}

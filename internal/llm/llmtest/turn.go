package llmtest

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/mini-claude/mini-claude/internal/llm"
)

// Turn is one scripted model response, served to one request after its Faults.
type Turn struct {
	// Blocks is the content of the response, streamed in order.
	Blocks []llm.ContentBlock
	// StopReason defaults to "tool_use" when Blocks hold a tool_use, else "end_turn".
	StopReason llm.StopReason
	// Usage defaults to DefaultUsage when zero.
	Usage llm.Usage
	// Model is the model reported; empty means the model the request named.
	Model string
	// Faults are served first, one per request, before the turn itself.
	Faults []Fault
	// ChunkDelay is slept between SSE events of this turn.
	ChunkDelay time.Duration
	// Gate, when set, holds the answer until it is closed, so a test can
	// order it after another conversation's request.
	Gate <-chan struct{}
}

// DefaultUsage is the usage reported for a turn that sets none.
var DefaultUsage = llm.Usage{InputTokens: 100, OutputTokens: 50}

// Fault is one failed answer. Exactly one kind is set: Status, DropAfterEvents,
// Malformed, StreamError or Hang.
type Fault struct {
	// Status answers with this HTTP status and an API error body.
	Status int `json:"status,omitempty"`
	// Type is the error type of the body; it defaults from Status and the API
	// (429 is rate_limit_error for Messages, requests for chat completions…).
	Type string `json:"type,omitempty"`
	// Message is the error message of the body; it defaults to a description of the fault.
	Message string `json:"message,omitempty"`
	// RetryAfterMs sets the retry-after-ms header of a Status fault when > 0.
	RetryAfterMs int `json:"retry_after_ms,omitempty"`
	// RetryAfter sets the retry-after header (seconds) of a Status fault when > 0.
	RetryAfter int `json:"retry_after,omitempty"`
	// ShouldRetry sets the x-should-retry header of a Status fault when not empty ("true"/"false").
	ShouldRetry string `json:"should_retry,omitempty"`

	// DropAfterEvents serves that many SSE events of the turn, then resets the TCP connection.
	DropAfterEvents int `json:"drop_after_events,omitempty"`
	// Malformed serves half of the turn's events, then one whose data is not JSON, then ends.
	Malformed bool `json:"malformed,omitempty"`
	// StreamError serves half of the turn's events, then an SSE error event of this
	// type (such as "overloaded_error"; for chat completions a data line with an
	// error object of this type, for the Responses API a response.failed event
	// with this code), then ends, as the API does when it fails mid-stream.
	StreamError string `json:"stream_error,omitempty"`
	// Hang serves the first event (message_start, or the first chunk), then
	// blocks until the client goes away.
	Hang bool `json:"hang,omitempty"`
}

// Text returns a text block.
func Text(s string) llm.ContentBlock { return llm.TextBlock(s) }

// ToolUse returns a tool_use block; an empty id is replaced by a generated one
// when served, and inputJSON is streamed verbatim ("" streams as no input).
func ToolUse(id, name, inputJSON string) llm.ContentBlock {
	return llm.ContentBlock{Type: llm.BlockToolUse, ID: id, Name: name, Input: json.RawMessage(inputJSON)}
}

// Thinking returns an extended-thinking block with its signature.
func Thinking(text, signature string) llm.ContentBlock {
	return llm.ContentBlock{Type: llm.BlockThinking, Thinking: text, Signature: signature}
}

// ServerToolUse returns a server_tool_use block: the model calling a tool the
// provider runs, such as "web_search"; an empty id is generated when served,
// and inputJSON is streamed verbatim.
func ServerToolUse(id, name, inputJSON string) llm.ContentBlock {
	return llm.ContentBlock{Type: llm.BlockServerToolUse, ID: id, Name: name, Input: json.RawMessage(inputJSON)}
}

// WebSearchResult returns the web_search_tool_result answering the
// server_tool_use toolUseID ("" answers the one just before it) with hits.
func WebSearchResult(toolUseID string, hits ...llm.SearchResult) llm.ContentBlock {
	if hits == nil {
		hits = []llm.SearchResult{}
	}
	return llm.ContentBlock{Type: llm.BlockWebSearchResult, ToolUseID: toolUseID, SearchResults: hits}
}

// WebSearchError returns a web_search_tool_result reporting a failed search
// with the API's error code, such as "max_uses_exceeded".
func WebSearchError(toolUseID, code string) llm.ContentBlock {
	return llm.ContentBlock{Type: llm.BlockWebSearchResult, ToolUseID: toolUseID, SearchError: code}
}

// RedactedThinking returns a redacted_thinking block with its opaque data.
func RedactedThinking(data string) llm.ContentBlock {
	return llm.ContentBlock{Type: llm.BlockRedactedThinking, Data: data}
}

// resolved returns the turn as served at position index of its script: defaults
// filled in, tool_use ids generated with idPrefix (server_tool_use ids with
// "srv" before it), and a web_search_tool_result without an id answering the
// server_tool_use before it.
func (t Turn) resolved(index int, requestModel, idPrefix string) Turn {
	out := t
	out.Blocks = make([]llm.ContentBlock, len(t.Blocks))
	hasToolUse := false
	lastServerUse := ""
	for i, b := range t.Blocks {
		switch {
		case b.Type == llm.BlockToolUse:
			hasToolUse = true
			if b.ID == "" {
				b.ID = fmt.Sprintf("%s_llmtest_%d_%d", idPrefix, index, i)
			}
		case b.Type == llm.BlockServerToolUse:
			if b.ID == "" {
				b.ID = fmt.Sprintf("srv%s_llmtest_%d_%d", idPrefix, index, i)
			}
			lastServerUse = b.ID
		case b.Type == llm.BlockWebSearchResult && b.ToolUseID == "":
			b.ToolUseID = lastServerUse
		}
		out.Blocks[i] = b
	}
	if out.StopReason == "" {
		out.StopReason = llm.StopEndTurn
		if hasToolUse {
			out.StopReason = llm.StopToolUse
		}
	}
	if out.Usage == (llm.Usage{}) {
		out.Usage = DefaultUsage
	}
	if out.Model == "" {
		out.Model = requestModel
	}
	return out
}

// errorType is the API's error type for an HTTP status.
func errorType(status int) string {
	switch status {
	case 400:
		return "invalid_request_error"
	case 401:
		return "authentication_error"
	case 403:
		return "permission_error"
	case 404:
		return "not_found_error"
	case 413:
		return "request_too_large"
	case 429:
		return "rate_limit_error"
	case 529:
		return "overloaded_error"
	case 504:
		return "timeout_error"
	}
	return "api_error"
}

// describe names the fault for messages and test logs.
func (f Fault) describe() string {
	switch {
	case f.Status != 0:
		return fmt.Sprintf("status %d", f.Status)
	case f.DropAfterEvents > 0:
		return fmt.Sprintf("drop after %d events", f.DropAfterEvents)
	case f.Malformed:
		return "malformed event"
	case f.StreamError != "":
		return "stream error " + f.StreamError
	case f.Hang:
		return "hang"
	}
	return "empty fault"
}

// validate reports a fault that sets no kind or several.
func (f Fault) validate() error {
	kinds := 0
	for _, set := range []bool{f.Status != 0, f.DropAfterEvents > 0, f.Malformed, f.StreamError != "", f.Hang} {
		if set {
			kinds++
		}
	}
	if kinds != 1 {
		return fmt.Errorf("a fault sets exactly one of Status, DropAfterEvents, Malformed, StreamError, Hang (got %d)", kinds)
	}
	return nil
}

// validate reports a block the server cannot stream or an invalid fault.
func (t Turn) validate() error {
	for i, b := range t.Blocks {
		switch b.Type {
		case llm.BlockText, llm.BlockThinking, llm.BlockRedactedThinking, llm.BlockToolUse,
			llm.BlockServerToolUse, llm.BlockWebSearchResult:
		default:
			return fmt.Errorf("block %d: a turn cannot hold a %q block", i, b.Type)
		}
	}
	for i, f := range t.Faults {
		if err := f.validate(); err != nil {
			return fmt.Errorf("fault %d: %w", i, err)
		}
	}
	return nil
}

package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"time"
)

// DefaultModel is the model used when neither --model nor ANTHROPIC_MODEL names one.
const DefaultModel = "claude-opus-5-5"

// ToolSpec is a tool as the model sees it: name, description and JSON schema.
type ToolSpec struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
}

// Request is one call to the model.
type Request struct {
	Model     string
	System    string
	Messages  []Message
	Tools     []ToolSpec
	MaxTokens int
	// ThinkingBudget enables extended thinking with that many tokens when > 0.
	ThinkingBudget int
	// WebSearch, when set, offers the provider's own web search tool, which
	// its servers run; only the Anthropic API has one.
	WebSearch *WebSearch
	// ToolChoice, when set, makes the model call the tool of that name.
	ToolChoice string
	// NoCache leaves out the prompt-cache breakpoints, for a one-shot
	// request whose prefix is never sent again (writing a cache costs more).
	NoCache bool
}

// WebSearch is the provider's server-side web search tool, named
// "web_search": where it may search and how often in one answer.
type WebSearch struct {
	// AllowedDomains keeps only results from these domains; BlockedDomains
	// leaves out results from those. The API takes one or the other.
	AllowedDomains []string
	BlockedDomains []string
	// MaxUses is the most searches the model may run in one answer; 0 leaves it to the API.
	MaxUses int
}

// Usage counts the tokens of one response.
type Usage struct {
	InputTokens              int `json:"input_tokens"`
	OutputTokens             int `json:"output_tokens"`
	CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int `json:"cache_read_input_tokens"`
}

// Add returns the sum of two usages.
func (u Usage) Add(o Usage) Usage {
	return Usage{
		InputTokens:              u.InputTokens + o.InputTokens,
		OutputTokens:             u.OutputTokens + o.OutputTokens,
		CacheCreationInputTokens: u.CacheCreationInputTokens + o.CacheCreationInputTokens,
		CacheReadInputTokens:     u.CacheReadInputTokens + o.CacheReadInputTokens,
	}
}

// StopReason says why the model stopped, as spelled in the Anthropic API.
type StopReason string

// The stop reasons the loop acts on.
const (
	StopEndTurn   StopReason = "end_turn"
	StopToolUse   StopReason = "tool_use"
	StopMaxTokens StopReason = "max_tokens"
	StopSequence  StopReason = "stop_sequence"
	StopPauseTurn StopReason = "pause_turn"
	StopRefusal   StopReason = "refusal"
)

// Client streams one model response. Implementations retry transient failures
// themselves and report each retry as a Retry event before the new attempt's events.
type Client interface {
	Stream(ctx context.Context, req Request) iter.Seq2[Event, error]
}

// Complete streams req through client and returns its end: the whole answer
// and its usage, for a one-shot request that shows nothing as it streams.
// Retries are the client's; their deltas are not kept, only the answer that ended.
func Complete(ctx context.Context, client Client, req Request) (MessageEnd, error) {
	for ev, err := range client.Stream(ctx, req) {
		if err != nil {
			return MessageEnd{}, err
		}
		if end, ok := ev.(MessageEnd); ok {
			return end, nil
		}
	}
	return MessageEnd{}, errors.New("the model's answer ended before it was complete")
}

// Event is one step of a streamed response.
type Event interface{ isEvent() }

// TextDelta is a piece of assistant text.
type TextDelta struct{ Text string }

// ThinkingDelta is a piece of extended-thinking text.
type ThinkingDelta struct{ Thinking string }

// ToolUseStart opens a tool_use block.
type ToolUseStart struct{ ID, Name string }

// ToolUseDelta carries a fragment of a tool_use block's JSON input.
type ToolUseDelta struct {
	ID          string
	PartialJSON string
}

// ToolUseEnd closes a tool_use block with its whole input.
type ToolUseEnd struct {
	ID    string
	Input json.RawMessage
}

// MessageEnd ends the response with the assembled message.
type MessageEnd struct {
	Message    Message
	StopReason StopReason
	Usage      Usage
	// MessageID is the provider's id of the message ("msg_…").
	MessageID string
	// RequestID is the provider's id of the request, when it sent one.
	RequestID string
}

// Retry says the previous attempt failed and another starts after Wait; any
// deltas received so far belong to the abandoned attempt and must be discarded.
type Retry struct {
	Attempt int
	Wait    time.Duration
	Err     error
}

func (TextDelta) isEvent()     {}
func (ThinkingDelta) isEvent() {}
func (ToolUseStart) isEvent()  {}
func (ToolUseDelta) isEvent()  {}
func (ToolUseEnd) isEvent()    {}
func (MessageEnd) isEvent()    {}
func (Retry) isEvent()         {}

// APIError is a failure reported by the model provider that retrying did not cure.
type APIError struct {
	// Status is the HTTP status, 0 when the connection itself failed.
	Status int
	// Type is the provider's error type, such as "rate_limit_error".
	Type    string
	Message string
	// Retryable says whether the failure was of a transient kind.
	Retryable bool
}

func (e *APIError) Error() string {
	if e.Status == 0 {
		return "API error: " + e.Message
	}
	if e.Type != "" {
		return fmt.Sprintf("API error %d %s: %s", e.Status, e.Type, e.Message)
	}
	return fmt.Sprintf("API error %d: %s", e.Status, e.Message)
}

package agent

import (
	"encoding/json"
	"time"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/tool"
)

// Event is one step of a run, for the terminal UI and the headless printer.
// Events are delivered one at a time, never concurrently.
type Event interface{ isEvent() }

// TextDelta is a piece of assistant text as it streams.
type TextDelta struct{ Text string }

// ThinkingDelta is a piece of extended thinking as it streams.
type ThinkingDelta struct{ Text string }

// ToolInputDelta is a fragment of a tool call's input as it streams.
type ToolInputDelta struct {
	ID, Name    string
	PartialJSON string
}

// StreamRetry says the model request failed and is retried after Wait; the
// deltas received since the last AssistantMessage are void.
type StreamRetry struct {
	Attempt int
	Wait    time.Duration
	Err     error
}

// UserMessage is a user message added to the conversation: the prompt, or the
// results of a batch of tool calls.
type UserMessage struct {
	UUID    string
	Message llm.Message
}

// AssistantMessage is a complete assistant message added to the conversation.
type AssistantMessage struct {
	UUID string
	// ID is the provider's id of the message.
	ID      string
	Message llm.Message
	// Model is the model that answered, for usage and cost per model.
	Model      string
	StopReason llm.StopReason
	Usage      llm.Usage
	RequestID  string
}

// ToolQueued announces a call that will run once the calls before it allow.
type ToolQueued struct {
	ID, Name string
	Input    json.RawMessage
}

// ToolStarted says a call passed validation and permission and is running.
type ToolStarted struct{ ID, Name string }

// ToolProgress is an update from a running call.
type ToolProgress struct {
	ID, Name string
	Progress tool.ProgressEvent
}

// ToolFinished carries the tool_result block of a finished call, error or not,
// and the tool's typed output when it succeeded.
type ToolFinished struct {
	ID, Name string
	Result   llm.ContentBlock
	Output   any
	Duration time.Duration
}

// PermissionDenied says a call was refused by a rule, the mode or the user;
// Message is what the model was told.
type PermissionDenied struct {
	Denial  Denial
	Message string
}

func (TextDelta) isEvent()        {}
func (ThinkingDelta) isEvent()    {}
func (ToolInputDelta) isEvent()   {}
func (StreamRetry) isEvent()      {}
func (UserMessage) isEvent()      {}
func (AssistantMessage) isEvent() {}
func (ToolQueued) isEvent()       {}
func (ToolStarted) isEvent()      {}
func (ToolProgress) isEvent()     {}
func (ToolFinished) isEvent()     {}
func (PermissionDenied) isEvent() {}

// Denial records a refused call, as reported in a run's permission denials.
type Denial struct {
	ToolName  string          `json:"tool_name"`
	ToolUseID string          `json:"tool_use_id"`
	ToolInput json.RawMessage `json:"tool_input"`
}

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
	// PromptID is set on the messages of a prompt the user sent, to the
	// prompt's id: what /rewind goes back before.
	PromptID string
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

// MentionAttached says the prompt's @path mention of a file or directory
// attached it to the prompt (see Mentions).
type MentionAttached struct {
	Path      string
	Directory bool
}

func (MentionAttached) isEvent() {}

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

// PermissionDenied says a call was refused by a rule, the mode, the user or
// a PreToolUse hook; Message is what the model was told.
type PermissionDenied struct {
	Denial  Denial
	Message string
	// ByHook says a PreToolUse hook refused the call (exit 2, "deny", an
	// updatedInput that is not valid) or raised the question refused ("ask").
	ByHook bool
	// Asked says the call needed asking and the refusal is the answer: the
	// user's, or in -p, where no one can be asked, the question itself.
	Asked bool
}

// CompactionStarted says the history is being summarised to free context;
// Compacted or CompactionFailed follows.
type CompactionStarted struct {
	Trigger CompactTrigger
	// PreTokens is the estimated input size of the next request before compaction.
	PreTokens int
}

// ResultsCleared says the content of old tool results was replaced by short
// placeholders to free context, before any summarising; the tool_use and
// tool_result blocks stay, with the same ids.
type ResultsCleared struct {
	ToolUseIDs []string
	// Chars is the size of the content cleared.
	Chars                 int
	PreTokens, PostTokens int
}

// Compacted says the history was replaced by Message: the model's Summary and
// the State carried over verbatim. For an automatic compaction, Usage is also
// counted in the run's Result; for a manual one (Agent.Compact) only here.
type Compacted struct {
	UUID    string
	Trigger CompactTrigger
	// PreTokens and PostTokens estimate the input size of the next request
	// before and after.
	PreTokens, PostTokens int
	Summary               string
	// Message is the user message the history now consists of.
	Message llm.Message
	State   CarriedState
	// MessagesSummarized is how many messages the history held.
	MessagesSummarized int
	// Usage is the summarising request's.
	Usage    llm.Usage
	Duration time.Duration
}

// CompactionFailed says a compaction did not happen: the history is unchanged.
type CompactionFailed struct {
	Trigger CompactTrigger
	Err     error
	// Usage is whatever the failed summarising request consumed.
	Usage llm.Usage
}

func (TextDelta) isEvent()         {}
func (ThinkingDelta) isEvent()     {}
func (ToolInputDelta) isEvent()    {}
func (StreamRetry) isEvent()       {}
func (UserMessage) isEvent()       {}
func (AssistantMessage) isEvent()  {}
func (ToolQueued) isEvent()        {}
func (ToolStarted) isEvent()       {}
func (ToolProgress) isEvent()      {}
func (ToolFinished) isEvent()      {}
func (PermissionDenied) isEvent()  {}
func (CompactionStarted) isEvent() {}
func (ResultsCleared) isEvent()    {}
func (Compacted) isEvent()         {}
func (CompactionFailed) isEvent()  {}
func (HookNotice) isEvent()        {}

// Denial records a refused call, as reported in a run's permission denials.
type Denial struct {
	ToolName  string          `json:"tool_name"`
	ToolUseID string          `json:"tool_use_id"`
	ToolInput json.RawMessage `json:"tool_input"`
}

// SubAgentStarted says the Agent tool started a sub-agent. AgentID names it
// in the events that follow; ParentToolUseID is the Agent call that started it.
type SubAgentStarted struct {
	AgentID, ParentToolUseID string
	Type, Description        string
	Prompt, Model            string
	Background               bool
}

// SubAgentEvent is an event of a running sub-agent, forwarded to the parent's
// consumer; a sub-agent's own sub-agents arrive nested. A transcript writer
// keeps one side transcript per AgentID, linked to ParentToolUseID.
type SubAgentEvent struct {
	AgentID, ParentToolUseID string
	Event                    Event
}

// SubAgentFinished says a sub-agent ended; Result is its own run, usage and
// cost included (they are charged to the parent too).
type SubAgentFinished struct {
	AgentID, ParentToolUseID string
	Background               bool
	Result                   Result
	// ContextTokens counts the tokens of its last exchange; ToolUses the calls it ran.
	ContextTokens, ToolUses int
}

func (SubAgentStarted) isEvent()  {}
func (SubAgentEvent) isEvent()    {}
func (SubAgentFinished) isEvent() {}

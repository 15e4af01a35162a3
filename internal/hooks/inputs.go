package hooks

// Common are the fields every event's input starts with, in Claude Code's
// order; the event's own fields follow.
type Common struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	Cwd            string `json:"cwd"`
	// PromptID identifies the prompt being handled, when there is one.
	PromptID string `json:"prompt_id,omitempty"`
	// PermissionMode is set on the tool, prompt and stop events.
	PermissionMode string `json:"permission_mode,omitempty"`
	// AgentID and AgentType are set inside a sub-agent and on its events.
	AgentID       string `json:"agent_id,omitempty"`
	AgentType     string `json:"agent_type,omitempty"`
	HookEventName string `json:"hook_event_name"`
}

// PreToolUseInput is what a PreToolUse hook reads.
type PreToolUseInput struct {
	Common
	ToolName  string `json:"tool_name"`
	ToolInput any    `json:"tool_input"`
	ToolUseID string `json:"tool_use_id"`
}

// PostToolUseInput is what a PostToolUse hook reads: the tool's structured
// result, not the text the model gets.
type PostToolUseInput struct {
	Common
	ToolName     string `json:"tool_name"`
	ToolInput    any    `json:"tool_input"`
	ToolResponse any    `json:"tool_response"`
	ToolUseID    string `json:"tool_use_id"`
	DurationMS   int64  `json:"duration_ms"`
}

// PostToolUseFailureInput is what a PostToolUseFailure hook reads, in place
// of PostToolUse, when the call failed.
type PostToolUseFailureInput struct {
	Common
	ToolName    string `json:"tool_name"`
	ToolInput   any    `json:"tool_input"`
	ToolUseID   string `json:"tool_use_id"`
	Error       string `json:"error"`
	IsInterrupt bool   `json:"is_interrupt"`
	DurationMS  int64  `json:"duration_ms"`
}

// UserPromptSubmitInput is what a UserPromptSubmit hook reads.
type UserPromptSubmitInput struct {
	Common
	Prompt string `json:"prompt"`
}

// UserPromptExpansionInput is what a UserPromptExpansion hook reads when a
// prompt runs a custom command: ExpansionType "slash_command", the command's
// name and arguments, CommandSource "projectSettings" or "userSettings",
// and the prompt as typed.
type UserPromptExpansionInput struct {
	Common
	ExpansionType string `json:"expansion_type"`
	CommandName   string `json:"command_name"`
	CommandArgs   string `json:"command_args"`
	CommandSource string `json:"command_source"`
	Prompt        string `json:"prompt"`
}

// StopInput is what a Stop hook reads; StopHookActive says the turn goes on
// because a Stop hook blocked its end before.
type StopInput struct {
	Common
	StopHookActive       bool   `json:"stop_hook_active"`
	LastAssistantMessage string `json:"last_assistant_message"`
	BackgroundTasks      []any  `json:"background_tasks"`
	SessionCrons         []any  `json:"session_crons"`
}

// SubagentStopInput is what a SubagentStop hook reads when a sub-agent ends.
type SubagentStopInput struct {
	Common
	StopHookActive       bool   `json:"stop_hook_active"`
	AgentTranscriptPath  string `json:"agent_transcript_path"`
	LastAssistantMessage string `json:"last_assistant_message"`
	BackgroundTasks      []any  `json:"background_tasks"`
	SessionCrons         []any  `json:"session_crons"`
}

// SessionStartInput is what a SessionStart hook reads; Source is startup,
// resume, clear or compact. Model is set in the UI at startup and after a
// compaction, Resumed on resume when the conversation has a last response.
type SessionStartInput struct {
	Common
	Source string `json:"source"`
	Model  string `json:"model,omitempty"`
	*Resumed
}

// Resumed describes a resumed conversation's last response to SessionStart
// hooks, as Claude Code does: how long ago it came, the context it took,
// whether the prompt cache has likely dropped that context since, and what
// writing it to the cache again costs at the model's list price.
type Resumed struct {
	SecondsSinceLastResponse int64   `json:"seconds_since_last_response"`
	ContextTokens            int     `json:"context_tokens"`
	PromptCacheLikelyExpired bool    `json:"prompt_cache_likely_expired"`
	EstimatedCacheWriteUSD   float64 `json:"estimated_cache_write_usd"`
}

// SessionEndInput is what a SessionEnd hook reads; Reason is other (the end
// of a -p run), clear or prompt_input_exit.
type SessionEndInput struct {
	Common
	Reason string `json:"reason"`
}

// PreCompactInput is what a PreCompact hook reads; Trigger is manual or auto.
type PreCompactInput struct {
	Common
	Trigger            string  `json:"trigger"`
	CustomInstructions *string `json:"custom_instructions"`
}

// NotificationInput is what a Notification hook reads: permission_prompt
// when a call has waited for an answer, idle_prompt when the UI waits for a prompt.
type NotificationInput struct {
	Common
	Message          string `json:"message"`
	NotificationType string `json:"notification_type"`
}

// PostToolBatchInput is what a PostToolBatch hook reads once every call of
// an assistant message has its result, before the next request.
type PostToolBatchInput struct {
	Common
	ToolCalls []BatchCall `json:"tool_calls"`
}

// BatchCall is one call of a PostToolBatch, in call order. ToolResponse is
// the result as the model gets it: a string for a lone text, else its blocks.
type BatchCall struct {
	ToolName     string `json:"tool_name"`
	ToolInput    any    `json:"tool_input"`
	ToolUseID    string `json:"tool_use_id"`
	ToolResponse any    `json:"tool_response"`
}

// StopFailureInput is what a StopFailure hook reads when the turn ends on an
// API error instead of Stop: Error is Claude Code's kind of it
// (server_error, rate_limit, unknown…), LastAssistantMessage the error as
// the user sees it ("API Error: 400 …").
type StopFailureInput struct {
	Common
	Error                string `json:"error"`
	LastAssistantMessage string `json:"last_assistant_message"`
}

// SubagentStartInput is what a SubagentStart hook reads as a sub-agent
// starts: the common fields alone, naming the sub-agent (AgentID, AgentType).
type SubagentStartInput struct {
	Common
}

// PostCompactInput is what a PostCompact hook reads after a compaction:
// Trigger is manual or auto, CompactSummary the model's whole answer.
type PostCompactInput struct {
	Common
	Trigger        string `json:"trigger"`
	CompactSummary string `json:"compact_summary"`
}

// PermissionRequestInput is what a PermissionRequest hook reads when a call
// would ask the user; its suggestions are the permission updates that would
// stop the question from being asked again.
type PermissionRequestInput struct {
	Common
	ToolName              string             `json:"tool_name"`
	ToolInput             any                `json:"tool_input"`
	PermissionSuggestions []PermissionUpdate `json:"permission_suggestions"`
}

// PermissionUpdate is a suggested change of the permission rules, in Claude
// Code's shape: {"type": "addRules", "rules": [...], "behavior": "allow",
// "destination": "localSettings"}.
type PermissionUpdate struct {
	Type        string      `json:"type"`
	Rules       []RuleValue `json:"rules"`
	Behavior    string      `json:"behavior"`
	Destination string      `json:"destination"`
}

// RuleValue is one rule of a PermissionUpdate: Bash(npm test:*) is
// {"toolName": "Bash", "ruleContent": "npm test:*"}; a whole tool has no content.
type RuleValue struct {
	ToolName    string `json:"toolName"`
	RuleContent string `json:"ruleContent,omitempty"`
}

// InstructionsLoadedInput is what an InstructionsLoaded hook reads for each
// memory file (CLAUDE.md…) the session loaded: MemoryType is User, Project
// or Local, LoadReason session_start.
type InstructionsLoadedInput struct {
	Common
	FilePath   string `json:"file_path"`
	MemoryType string `json:"memory_type"`
	LoadReason string `json:"load_reason"`
}

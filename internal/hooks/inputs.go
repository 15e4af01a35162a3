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
// resume, clear or compact.
type SessionStartInput struct {
	Common
	Source string `json:"source"`
	Model  string `json:"model,omitempty"`
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

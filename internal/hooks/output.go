package hooks

import (
	"encoding/json"
	"strings"
)

// Output is a hook's JSON answer on stdout, in Claude Code's format.
type Output struct {
	// Continue false stops the session after the hook; StopReason says why, to the user.
	Continue   *bool  `json:"continue"`
	StopReason string `json:"stopReason"`
	// SuppressOutput keeps the hook's stdout out of the transcript.
	SuppressOutput bool `json:"suppressOutput"`
	// SystemMessage is shown to the user.
	SystemMessage string `json:"systemMessage"`
	// Decision "block" blocks what the event is about (a prompt, a stop, a
	// finished call); Reason says why, to the model.
	Decision string `json:"decision"`
	Reason   string `json:"reason"`
	// Specific holds the event's own answer.
	Specific *SpecificOutput `json:"hookSpecificOutput"`
}

// SpecificOutput is the hookSpecificOutput object of an answer.
type SpecificOutput struct {
	HookEventName string `json:"hookEventName"`
	// PermissionDecision is "allow", "deny" or "ask" (PreToolUse).
	PermissionDecision       string `json:"permissionDecision"`
	PermissionDecisionReason string `json:"permissionDecisionReason"`
	// UpdatedInput replaces the tool's input (PreToolUse).
	UpdatedInput json.RawMessage `json:"updatedInput"`
	// AdditionalContext is added to what the model reads.
	AdditionalContext string `json:"additionalContext"`
	// Decision answers a PermissionRequest.
	Decision *RequestDecision `json:"decision"`
}

// RequestDecision is a PermissionRequest hook's answer to the question a
// call would ask.
type RequestDecision struct {
	// Behavior is "allow" or "deny"; anything else decides nothing.
	Behavior string `json:"behavior"`
	// UpdatedInput replaces the call's input when it allows.
	UpdatedInput json.RawMessage `json:"updatedInput"`
	// Message tells the model why it denies; Interrupt also ends the turn.
	Message   string `json:"message"`
	Interrupt bool   `json:"interrupt"`
}

// parseOutput reads stdout as an answer when it is a JSON object; plain text is not one.
func parseOutput(stdout string) *Output {
	trimmed := strings.TrimSpace(stdout)
	if !strings.HasPrefix(trimmed, "{") {
		return nil
	}
	var out Output
	if err := json.Unmarshal([]byte(trimmed), &out); err != nil {
		return nil
	}
	return &out
}

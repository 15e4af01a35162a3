package session

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/tools/fileaccess"
)

// The kinds of line a transcript holds.
const (
	TypeUser      = "user"
	TypeAssistant = "assistant"
	TypeSystem    = "system"
)

// SubtypeCompactBoundary marks a system line after which the conversation
// starts again: Load drops the messages before it, and the lines after it
// (the summary and what compaction keeps) are the new history.
const SubtypeCompactBoundary = "compact_boundary"

// Line is one line of a transcript, with Claude Code's field names: a user or
// assistant message in the API's shape, or a system event.
type Line struct {
	// ParentUUID is the line before this one; null for the first line and
	// after a compact boundary, where LogicalParentUUID keeps the link.
	ParentUUID        *string `json:"parentUuid"`
	LogicalParentUUID string  `json:"logicalParentUuid,omitempty"`
	// IsSidechain is true in a sub-agent's transcript, whose lines carry its AgentID.
	IsSidechain bool   `json:"isSidechain"`
	AgentID     string `json:"agentId,omitempty"`
	// ParentToolUseID is the parent's Agent call that started the sub-agent.
	ParentToolUseID string `json:"parentToolUseId,omitempty"`
	Type            string `json:"type"`
	// Subtype and Content describe a system line.
	Subtype string `json:"subtype,omitempty"`
	Content string `json:"content,omitempty"`
	// Metadata is the data of a system line, as its writer gave it.
	Metadata  json.RawMessage `json:"metadata,omitempty"`
	Message   *Message        `json:"message,omitempty"`
	UUID      string          `json:"uuid"`
	Timestamp string          `json:"timestamp"`
	RequestID string          `json:"requestId,omitempty"`
	// PromptID is set on the lines of a prompt the user sent, as Claude
	// Code writes it: the prompt's id, which /rewind goes back before.
	PromptID string `json:"promptId,omitempty"`
	// FileState holds the records of files that the tool calls answered on
	// this line read or wrote (what the session knew of them then), by path.
	FileState map[string]FileRecord `json:"fileState,omitempty"`
	// ToolUseResult is, on the line of a tool result, the tool's typed output
	// as JSON: what a resumed call is drawn with.
	ToolUseResult json.RawMessage `json:"toolUseResult,omitempty"`
	// PermissionDecision is set on the line of a refused call's result.
	PermissionDecision *PermissionDecision `json:"permissionDecision,omitempty"`
	Cwd                string              `json:"cwd"`
	SessionID          string              `json:"sessionId"`
	Version            string              `json:"version"`
}

// PermissionDecision is what the permission step decided on a call, as
// Claude Code records it on the line of the call's result.
type PermissionDecision struct {
	Decision string `json:"decision"`
}

// DecisionReject is the Decision of a call refused by a rule, the mode or the user.
const DecisionReject = "reject"

// ToolResult is what a transcript keeps of a call besides the tool_result
// the model read.
type ToolResult struct {
	// Output is the tool's typed output as JSON (the line's toolUseResult);
	// nil for a failed call, a refused one, or a transcript that has none.
	Output json.RawMessage
	// Rejected says the call was refused permission.
	Rejected bool
}

// Message is a message of a transcript line in the API's shape: role and
// content, and for an assistant message its id, model, stop reason and usage.
type Message struct {
	ID         string             `json:"id,omitempty"`
	Type       string             `json:"type,omitempty"`
	Role       llm.Role           `json:"role"`
	Model      string             `json:"model,omitempty"`
	Content    []llm.ContentBlock `json:"content"`
	StopReason *string            `json:"stop_reason,omitempty"`
	Usage      *llm.Usage         `json:"usage,omitempty"`
}

// UnmarshalJSON reads a message whose content is a list of blocks or, as
// Claude Code writes a typed prompt, a plain string.
func (m *Message) UnmarshalJSON(data []byte) error {
	type plain Message
	var raw struct {
		plain
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	*m = Message(raw.plain)
	var text string
	if json.Unmarshal(raw.Content, &text) == nil {
		m.Content = []llm.ContentBlock{llm.TextBlock(text)}
		return nil
	}
	m.Content = nil
	if len(raw.Content) == 0 || string(raw.Content) == "null" {
		return nil
	}
	return json.Unmarshal(raw.Content, &m.Content)
}

// llmMessage returns the conversation message of the line.
func (m *Message) llmMessage() llm.Message {
	return llm.Message{Role: m.Role, Content: m.Content}
}

// FileRecord is what the session knew of a file: its mtime when it was last
// read or written and, when it was seen whole, the SHA-256 of its content.
type FileRecord struct {
	ModTime time.Time `json:"mtime"`
	SHA256  string    `json:"sha256,omitempty"`
	Full    bool      `json:"full,omitempty"`
}

func fileRecord(r fileaccess.Record) FileRecord {
	out := FileRecord{ModTime: r.ModTime, Full: r.Full}
	if r.Full {
		out.SHA256 = hex.EncodeToString(r.Hash[:])
	}
	return out
}

func (r FileRecord) record() (fileaccess.Record, error) {
	out := fileaccess.Record{ModTime: r.ModTime, Full: r.Full}
	if !r.Full {
		return out, nil
	}
	sum, err := hex.DecodeString(r.SHA256)
	if err != nil || len(sum) != sha256.Size {
		return fileaccess.Record{}, fmt.Errorf("sha256 %q is not a SHA-256 in hex", r.SHA256)
	}
	copy(out.Hash[:], sum)
	return out, nil
}

// timestamp formats t as Claude Code does, in UTC to the millisecond.
func timestamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

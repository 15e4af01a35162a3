package sdkproto

import (
	"encoding/json"
	"strings"

	"github.com/mini-claude/mini-claude/internal/llm"
)

// UserMessage is a user line of the program's input.
type UserMessage struct {
	Type            string  `json:"type"`
	Message         message `json:"message"`
	ParentToolUseID *string `json:"parent_tool_use_id"`
	SessionID       string  `json:"session_id"`
}

type message struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

// Text is the message's prompt: its content when that is a string, else
// its text blocks joined by blank lines.
func (m UserMessage) Text() string {
	var s string
	if json.Unmarshal(m.Message.Content, &s) == nil {
		return s
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	_ = json.Unmarshal(m.Message.Content, &blocks)
	var parts []string
	for _, b := range blocks {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n\n")
}

// Images are the message's image blocks, in order, for the model beside
// its text, as Claude Code passes them on.
func (m UserMessage) Images() []llm.ContentBlock {
	var blocks []struct {
		Type   string           `json:"type"`
		Source *llm.ImageSource `json:"source"`
	}
	_ = json.Unmarshal(m.Message.Content, &blocks)
	var out []llm.ContentBlock
	for _, b := range blocks {
		if b.Type == string(llm.BlockImage) && b.Source != nil {
			out = append(out, llm.ContentBlock{Type: llm.BlockImage, Source: b.Source})
		}
	}
	return out
}

// Initialize is the program's first control request: what it configures
// for the session beyond the command line.
type Initialize struct {
	// SystemPrompt, when present, replaces the system prompt: the SDK sends
	// its systemPrompt option as a list of parts (a string option as one
	// part, no option as one empty part). Absent with the claude_code
	// preset, whose append text is AppendSystemPrompt.
	SystemPrompt       *Parts `json:"systemPrompt"`
	AppendSystemPrompt string `json:"appendSystemPrompt"`
	// Hooks are the program's hook callbacks by event.
	Hooks map[string][]HookMatcher `json:"hooks"`
	// SDKMCPServers name the program's in-process MCP servers; their
	// manifests, when sent, answer initialize and tools/list without a round trip.
	SDKMCPServers []string            `json:"sdkMcpServers"`
	Manifests     map[string]Manifest `json:"sdkMcpServerManifests"`
	// Agents are sub-agent types the program defines.
	Agents map[string]AgentDefinition `json:"agents"`
}

// Parts is a system prompt sent as a string or a list of strings.
type Parts []string

// UnmarshalJSON reads a string or a list of strings.
func (p *Parts) UnmarshalJSON(data []byte) error {
	var s string
	if json.Unmarshal(data, &s) == nil {
		*p = Parts{s}
		return nil
	}
	var list []string
	if err := json.Unmarshal(data, &list); err != nil {
		return err
	}
	*p = list
	return nil
}

// Text joins the parts by blank lines, leaving out empty ones.
func (p Parts) Text() string {
	var parts []string
	for _, s := range p {
		if s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, "\n\n")
}

// HookMatcher is one matcher of an event and the callbacks it runs.
type HookMatcher struct {
	Matcher         string   `json:"matcher"`
	HookCallbackIDs []string `json:"hookCallbackIds"`
	// Timeout is in seconds; 0 is the default.
	Timeout float64 `json:"timeout"`
}

// Manifest is what the program says of one of its MCP servers up front.
type Manifest struct {
	InitializeResult json.RawMessage `json:"initializeResult"`
	ToolsListResult  json.RawMessage `json:"toolsListResult"`
}

// AgentDefinition is a sub-agent type the program defines.
type AgentDefinition struct {
	Description string   `json:"description"`
	Prompt      string   `json:"prompt"`
	Tools       []string `json:"tools"`
	Model       string   `json:"model"`
}

// controlRequest is a control request of ours.
type controlRequest struct {
	Type      string `json:"type"`
	RequestID string `json:"request_id"`
	Request   any    `json:"request"`
}

// cancelRequest withdraws a control request of ours nobody waits for any more.
type cancelRequest struct {
	Type      string `json:"type"`
	RequestID string `json:"request_id"`
}

// controlResponse answers one of the program's control requests.
type controlResponse struct {
	Type     string       `json:"type"`
	Response responseBody `json:"response"`
}

type responseBody struct {
	Subtype   string `json:"subtype"`
	RequestID string `json:"request_id"`
	Response  any    `json:"response,omitempty"`
	Error     string `json:"error,omitempty"`
}

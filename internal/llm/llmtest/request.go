package llmtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/mini-claude/mini-claude/internal/llm"
)

// Request is one request the server received, with its body parsed.
type Request struct {
	// ID is the request-id the server answered with ("req_llmtest_001"…).
	ID string
	// Time is when the request arrived.
	Time time.Time
	// Path is the URL path, such as "/v1/messages" or "/v1/chat/completions".
	Path   string
	Header http.Header
	// Body is the raw request body.
	Body []byte

	Model string
	// System is the system prompt; when it was sent as blocks, their texts concatenated.
	System string
	// RawSystem is the system field as sent (a string or a list of blocks).
	RawSystem json.RawMessage
	Messages  []llm.Message
	// Tools are the client tools; ServerTools the tools the provider runs
	// (those with a "type", such as web_search_20250305), as sent.
	Tools       []llm.ToolSpec
	ServerTools []json.RawMessage
	// ToolChoice is the tool_choice field as sent, nil when absent.
	ToolChoice json.RawMessage
	// MaxTokens is max_tokens, or for chat completions max_completion_tokens
	// (max_tokens when that is absent).
	MaxTokens int
	Stream    bool
	// IncludeUsage is stream_options.include_usage of a chat completions request.
	IncludeUsage bool

	// Violations lists the protocol rules this request broke; the server
	// answered it with a 400 invalid_request_error.
	Violations []string
}

// AssistantTurns counts the assistant messages of the request's history.
func (r Request) AssistantTurns() int {
	n := 0
	for _, m := range r.Messages {
		if m.Role == llm.RoleAssistant {
			n++
		}
	}
	return n
}

type requestJSON struct {
	Model      string            `json:"model"`
	System     json.RawMessage   `json:"system"`
	Messages   []wireMessageJSON `json:"messages"`
	Tools      []json.RawMessage `json:"tools"`
	ToolChoice json.RawMessage   `json:"tool_choice"`
	MaxTokens  int               `json:"max_tokens"`
	Stream     bool              `json:"stream"`
}

// toolJSON is what tells a server tool from a client tool.
type toolJSON struct {
	Type string `json:"type"`
	Name string `json:"name"`
}

// toolChoiceJSON is the part of tool_choice the checks read.
type toolChoiceJSON struct {
	Type string `json:"type"`
	Name string `json:"name"`
}

type wireMessageJSON struct {
	Role    llm.Role        `json:"role"`
	Content json.RawMessage `json:"content"`
}

// parseBody fills the parsed fields of r from r.Body.
func (r *Request) parseBody() error {
	var body requestJSON
	if err := json.Unmarshal(r.Body, &body); err != nil {
		return fmt.Errorf("parse request body: %w", err)
	}
	r.Model, r.RawSystem, r.ToolChoice, r.MaxTokens, r.Stream =
		body.Model, body.System, body.ToolChoice, body.MaxTokens, body.Stream
	for i, raw := range body.Tools {
		var kind toolJSON
		if err := json.Unmarshal(raw, &kind); err != nil {
			return fmt.Errorf("parse tools[%d]: %w", i, err)
		}
		if kind.Type != "" && kind.Type != "custom" {
			r.ServerTools = append(r.ServerTools, raw)
			continue
		}
		var spec llm.ToolSpec
		if err := json.Unmarshal(raw, &spec); err != nil {
			return fmt.Errorf("parse tools[%d]: %w", i, err)
		}
		r.Tools = append(r.Tools, spec)
	}
	system, err := systemText(body.System)
	if err != nil {
		return err
	}
	r.System = system
	for i, m := range body.Messages {
		content, err := contentBlocks(m.Content)
		if err != nil {
			return fmt.Errorf("parse messages[%d]: %w", i, err)
		}
		r.Messages = append(r.Messages, llm.Message{Role: m.Role, Content: content})
	}
	return nil
}

// systemText reads a system field sent as a string or as text blocks.
func systemText(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, nil
	}
	var blocks []llm.ContentBlock
	if err := json.Unmarshal(raw, &blocks); err != nil {
		return "", fmt.Errorf("parse system: %w", err)
	}
	for _, b := range blocks {
		s += b.Text
	}
	return s, nil
}

// contentBlocks reads message content sent as a string or as blocks.
func contentBlocks(raw json.RawMessage) ([]llm.ContentBlock, error) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []llm.ContentBlock{llm.TextBlock(s)}, nil
	}
	var blocks []llm.ContentBlock
	if err := json.Unmarshal(raw, &blocks); err != nil {
		return nil, err
	}
	return blocks, nil
}

// checkRequest returns the rules of the Messages API that a streaming request breaks.
func checkRequest(r Request) []string {
	var v []string
	if r.Model == "" {
		v = append(v, "model: field required")
	}
	if r.MaxTokens <= 0 {
		v = append(v, fmt.Sprintf("max_tokens: must be positive, got %d", r.MaxTokens))
	}
	if len(r.Messages) == 0 {
		v = append(v, "messages: at least one message is required")
	}
	if !r.Stream {
		v = append(v, "stream: llmtest serves only streaming requests (stream: true)")
	}
	v = append(v, checkToolChoice(r)...)
	return append(v, checkToolPairs(r.Messages)...)
}

// checkToolChoice checks that a tool_choice naming a tool names one the
// request offers, client or server tool.
func checkToolChoice(r Request) []string {
	if len(r.ToolChoice) == 0 || string(r.ToolChoice) == "null" {
		return nil
	}
	var choice toolChoiceJSON
	if err := json.Unmarshal(r.ToolChoice, &choice); err != nil {
		return []string{fmt.Sprintf("tool_choice: %v", err)}
	}
	switch choice.Type {
	case "auto", "any", "none":
		return nil
	case "tool":
	default:
		return []string{fmt.Sprintf("tool_choice.type: %q is not auto, any, tool or none", choice.Type)}
	}
	names := map[string]bool{}
	for _, t := range r.Tools {
		names[t.Name] = true
	}
	for _, raw := range r.ServerTools {
		var t toolJSON
		if json.Unmarshal(raw, &t) == nil {
			names[t.Name] = true
		}
	}
	if !names[choice.Name] {
		return []string{fmt.Sprintf("tool_choice: tool %q is not among the request's tools", choice.Name)}
	}
	return nil
}

// checkToolPairs checks that every tool_use of an assistant message has exactly
// one tool_result in the immediately following user message, placed before any
// other block, and that no tool_result answers an id that message did not use.
func checkToolPairs(msgs []llm.Message) []string {
	var v []string
	var pending []string // tool_use ids of the previous message, if assistant
	for i, m := range msgs {
		if m.Role == llm.RoleUser {
			v = append(v, checkResults(i, m, pending)...)
		} else if len(pending) > 0 {
			v = append(v, fmt.Sprintf("messages[%d]: tool_use ids %q have no tool_result in the next message, which is not a user message", i-1, pending))
		}
		pending = nil
		if m.Role == llm.RoleAssistant {
			for _, b := range m.ToolUses() {
				pending = append(pending, b.ID)
			}
		}
	}
	if len(pending) > 0 {
		v = append(v, fmt.Sprintf("messages[%d]: tool_use ids %q have no tool_result: the conversation ends after them", len(msgs)-1, pending))
	}
	return v
}

// checkResults checks the tool_result blocks of user message i against the
// tool_use ids of the assistant message before it.
func checkResults(i int, m llm.Message, used []string) []string {
	var v []string
	count := map[string]int{}
	seenOther := false
	for j, b := range m.Content {
		if b.Type != llm.BlockToolResult {
			seenOther = true
			continue
		}
		count[b.ToolUseID]++
		if seenOther && len(used) > 0 {
			v = append(v, fmt.Sprintf("messages[%d].content[%d]: tool_result blocks must come before any other block", i, j))
		}
	}
	known := map[string]bool{}
	for _, id := range used {
		known[id] = true
		if n := count[id]; n != 1 {
			v = append(v, fmt.Sprintf("messages[%d]: tool_use id %q has %d tool_result blocks, want exactly 1", i, id, n))
		}
	}
	for j, b := range m.Content {
		if b.Type == llm.BlockToolResult && !known[b.ToolUseID] {
			v = append(v, fmt.Sprintf("messages[%d].content[%d]: tool_result for unknown tool_use id %q (not used by the previous assistant message)", i, j, b.ToolUseID))
		}
	}
	return v
}

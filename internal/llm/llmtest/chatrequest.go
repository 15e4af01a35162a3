package llmtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/mini-claude/mini-claude/internal/llm"
)

type chatRequestJSON struct {
	Model               string            `json:"model"`
	Messages            []chatMessageJSON `json:"messages"`
	Tools               []chatToolJSON    `json:"tools"`
	MaxTokens           int               `json:"max_tokens"`
	MaxCompletionTokens int               `json:"max_completion_tokens"`
	Stream              bool              `json:"stream"`
	StreamOptions       *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
}

type chatMessageJSON struct {
	Role       string             `json:"role"`
	Content    json.RawMessage    `json:"content"`
	ToolCalls  []chatToolCallJSON `json:"tool_calls"`
	ToolCallID string             `json:"tool_call_id"`
}

type chatToolCallJSON struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

type chatToolJSON struct {
	Type     string `json:"type"`
	Function struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
	} `json:"function"`
}

type chatPartJSON struct {
	Type     string `json:"type"`
	Text     string `json:"text"`
	ImageURL struct {
		URL string `json:"url"`
	} `json:"image_url"`
}

// parseChatBody fills the parsed fields of r from a chat completions body. The
// conversation is recorded in the provider-neutral shape: system and developer
// messages make up System, an assistant's tool_calls become tool_use blocks,
// and the tool messages after them (with a user message that directly follows
// them) become one user message whose tool_result blocks come first.
func (r *Request) parseChatBody() error {
	var body chatRequestJSON
	if err := json.Unmarshal(r.Body, &body); err != nil {
		return fmt.Errorf("parse request body: %w", err)
	}
	r.Model, r.Stream = body.Model, body.Stream
	r.MaxTokens = body.MaxCompletionTokens
	if r.MaxTokens == 0 {
		r.MaxTokens = body.MaxTokens
	}
	r.IncludeUsage = body.StreamOptions != nil && body.StreamOptions.IncludeUsage
	for _, t := range body.Tools {
		r.Tools = append(r.Tools, llm.ToolSpec{Name: t.Function.Name, Description: t.Function.Description, InputSchema: t.Function.Parameters})
	}
	var system []string
	afterTools := false // the last message holds tool results a user message may join
	for i, m := range body.Messages {
		switch m.Role {
		case "system", "developer":
			blocks, err := chatParts(m.Content)
			if err != nil {
				return fmt.Errorf("parse messages[%d]: %w", i, err)
			}
			system = append(system, llm.Message{Content: blocks}.Text())
		case "user":
			blocks, err := chatParts(m.Content)
			if err != nil {
				return fmt.Errorf("parse messages[%d]: %w", i, err)
			}
			if afterTools {
				last := &r.Messages[len(r.Messages)-1]
				last.Content = append(last.Content, blocks...)
			} else {
				r.Messages = append(r.Messages, llm.Message{Role: llm.RoleUser, Content: blocks})
			}
			afterTools = false
		case "assistant":
			msg, err := chatAssistant(m)
			if err != nil {
				return fmt.Errorf("parse messages[%d]: %w", i, err)
			}
			r.Messages = append(r.Messages, msg)
			afterTools = false
		case "tool":
			blocks, err := chatParts(m.Content)
			if err != nil {
				return fmt.Errorf("parse messages[%d]: %w", i, err)
			}
			result := llm.ToolResultBlock(m.ToolCallID, blocks, false)
			if afterTools {
				last := &r.Messages[len(r.Messages)-1]
				last.Content = append(last.Content, result)
			} else {
				r.Messages = append(r.Messages, llm.Message{Role: llm.RoleUser, Content: []llm.ContentBlock{result}})
			}
			afterTools = true
		default:
			return fmt.Errorf("parse messages[%d]: unknown role %q", i, m.Role)
		}
	}
	r.System = strings.Join(system, "\n\n")
	return nil
}

// chatAssistant reads an assistant message: its text, then its tool calls.
func chatAssistant(m chatMessageJSON) (llm.Message, error) {
	blocks, err := chatParts(m.Content)
	if err != nil {
		return llm.Message{}, err
	}
	msg := llm.Message{Role: llm.RoleAssistant}
	if text := (llm.Message{Content: blocks}).Text(); text != "" {
		msg.Content = append(msg.Content, llm.TextBlock(text))
	}
	for _, c := range m.ToolCalls {
		var input json.RawMessage
		if c.Function.Arguments != "" {
			input = json.RawMessage(c.Function.Arguments)
		}
		msg.Content = append(msg.Content, llm.ContentBlock{Type: llm.BlockToolUse, ID: c.ID, Name: c.Function.Name, Input: input})
	}
	return msg, nil
}

// chatParts reads message content sent as a string, as null, or as a list of
// text and image_url parts; data URLs become base64 image blocks.
func chatParts(raw json.RawMessage) ([]llm.ContentBlock, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if s == "" {
			return nil, nil
		}
		return []llm.ContentBlock{llm.TextBlock(s)}, nil
	}
	var parts []chatPartJSON
	if err := json.Unmarshal(raw, &parts); err != nil {
		return nil, fmt.Errorf("content is neither a string nor a list of parts: %w", err)
	}
	var blocks []llm.ContentBlock
	for j, p := range parts {
		switch p.Type {
		case "text":
			blocks = append(blocks, llm.TextBlock(p.Text))
		case "image_url":
			blocks = append(blocks, llm.ContentBlock{Type: llm.BlockImage, Source: imageSource(p.ImageURL.URL)})
		default:
			return nil, fmt.Errorf("content[%d]: unknown part type %q", j, p.Type)
		}
	}
	return blocks, nil
}

// imageSource reads a data URL ("data:image/png;base64,…") as a base64
// source; any other URL is kept whole as a source of type "url".
func imageSource(url string) *llm.ImageSource {
	rest, ok := strings.CutPrefix(url, "data:")
	if meta, data, found := strings.Cut(rest, ","); ok && found {
		if mediaType, isBase64 := strings.CutSuffix(meta, ";base64"); isBase64 {
			return &llm.ImageSource{Type: "base64", MediaType: mediaType, Data: data}
		}
	}
	return &llm.ImageSource{Type: "url", Data: url}
}

// checkChatRequest returns the rules of the chat completions API that a
// streaming request breaks, among them the pairing of tool calls and results.
func checkChatRequest(r Request) []string {
	var v []string
	if r.Model == "" {
		v = append(v, "model: field required")
	}
	if !r.Stream {
		v = append(v, "stream: llmtest serves only streaming requests (stream: true)")
	}
	var body chatRequestJSON
	if err := json.Unmarshal(r.Body, &body); err != nil {
		return append(v, err.Error())
	}
	if len(body.Messages) == 0 {
		v = append(v, "messages: at least one message is required")
	}
	for i, t := range body.Tools {
		if t.Type != "function" || t.Function.Name == "" {
			v = append(v, fmt.Sprintf("tools[%d]: want type \"function\" and a function name", i))
		}
		if len(t.Function.Parameters) > 0 && !isJSONObject(t.Function.Parameters) {
			v = append(v, fmt.Sprintf("tools[%d].function.parameters: not a JSON object", i))
		}
	}
	return append(v, checkChatToolPairs(body.Messages)...)
}

// checkChatToolPairs checks that the tool calls of every assistant message are
// well formed and answered by tool messages that directly follow it, one per
// tool_call_id, and that no tool message answers an id that was not called.
func checkChatToolPairs(msgs []chatMessageJSON) []string {
	var v []string
	pending := map[string]bool{} // ids of the last assistant message not yet answered
	var called map[string]bool   // ids of the last assistant message, nil when none
	for i, m := range msgs {
		if m.Role == "tool" {
			switch {
			case called == nil:
				v = append(v, fmt.Sprintf("messages[%d]: a tool message must follow an assistant message with tool_calls", i))
			case !called[m.ToolCallID]:
				v = append(v, fmt.Sprintf("messages[%d]: tool_call_id %q does not answer a tool call of the assistant message before it", i, m.ToolCallID))
			case !pending[m.ToolCallID]:
				v = append(v, fmt.Sprintf("messages[%d]: tool_call_id %q is answered twice", i, m.ToolCallID))
			}
			delete(pending, m.ToolCallID)
			continue
		}
		if len(pending) > 0 {
			v = append(v, fmt.Sprintf("messages[%d]: tool_call ids %q have no tool message before this %s message", i, sortedKeys(pending), m.Role))
		}
		pending, called = map[string]bool{}, nil
		if m.Role != "assistant" || len(m.ToolCalls) == 0 {
			continue
		}
		called = map[string]bool{}
		for j, c := range m.ToolCalls {
			switch {
			case c.ID == "" || c.Type != "function" || c.Function.Name == "":
				v = append(v, fmt.Sprintf("messages[%d].tool_calls[%d]: want an id, type \"function\" and a function name", i, j))
			case called[c.ID]:
				v = append(v, fmt.Sprintf("messages[%d].tool_calls[%d]: id %q is used twice", i, j, c.ID))
			}
			if !isJSONObject(json.RawMessage(c.Function.Arguments)) {
				v = append(v, fmt.Sprintf("messages[%d].tool_calls[%d].function.arguments: not a JSON object: %q", i, j, c.Function.Arguments))
			}
			called[c.ID], pending[c.ID] = true, true
		}
	}
	if len(pending) > 0 {
		v = append(v, fmt.Sprintf("messages[%d]: tool_call ids %q have no tool message: the conversation ends after them", len(msgs)-1, sortedKeys(pending)))
	}
	return v
}

// isJSONObject reports whether raw is one valid JSON object.
func isJSONObject(raw json.RawMessage) bool {
	trimmed := bytes.TrimSpace(raw)
	return json.Valid(trimmed) && len(trimmed) > 0 && trimmed[0] == '{'
}

func sortedKeys(m map[string]bool) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

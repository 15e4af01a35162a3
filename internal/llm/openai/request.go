package openai

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mini-claude/mini-claude/internal/llm"
)

type requestJSON struct {
	Model    string        `json:"model"`
	Messages []messageJSON `json:"messages"`
	Tools    []toolJSON    `json:"tools,omitempty"`
	// MaxCompletionTokens replaces max_tokens, which OpenAI's reasoning
	// models refuse; servers that do not know it ignore it.
	MaxCompletionTokens int               `json:"max_completion_tokens,omitempty"`
	Stream              bool              `json:"stream"`
	StreamOptions       streamOptionsJSON `json:"stream_options"`
}

type streamOptionsJSON struct {
	IncludeUsage bool `json:"include_usage"`
}

type messageJSON struct {
	Role string `json:"role"`
	// Content is a string, a list of parts, or null for an assistant message
	// that only calls tools.
	Content    any            `json:"content"`
	ToolCalls  []toolCallJSON `json:"tool_calls,omitempty"`
	ToolCallID string         `json:"tool_call_id,omitempty"`
}

type partJSON struct {
	Type     string        `json:"type"`
	Text     string        `json:"text,omitempty"`
	ImageURL *imageURLJSON `json:"image_url,omitempty"`
}

type imageURLJSON struct {
	URL string `json:"url"`
}

type toolCallJSON struct {
	ID       string           `json:"id"`
	Type     string           `json:"type"`
	Function functionCallJSON `json:"function"`
}

type functionCallJSON struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

type toolJSON struct {
	Type     string       `json:"type"`
	Function functionJSON `json:"function"`
}

type functionJSON struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
}

// buildBody translates a request into a streaming chat completions body that
// asks for usage. The system prompt is the first message; thinking blocks
// have no place in the API and are left out; ThinkingBudget is not sent;
// a request for the provider's web search or a forced tool is refused.
func buildBody(req llm.Request) ([]byte, error) {
	if req.Model == "" {
		return nil, fmt.Errorf("openai: no model: name one with --model")
	}
	if req.WebSearch != nil || req.ToolChoice != "" {
		return nil, fmt.Errorf("openai: chat completions have no server-side web search and no forced tool choice")
	}
	body := requestJSON{
		Model: req.Model, MaxCompletionTokens: max(0, req.MaxTokens),
		Stream: true, StreamOptions: streamOptionsJSON{IncludeUsage: true},
	}
	if req.System != "" {
		body.Messages = append(body.Messages, messageJSON{Role: "system", Content: req.System})
	}
	for _, s := range req.Tools {
		schema := s.InputSchema
		if len(schema) == 0 {
			schema = json.RawMessage(`{"type":"object","properties":{}}`)
		}
		if !json.Valid(schema) {
			return nil, fmt.Errorf("openai: tool %q: input schema is not valid JSON", s.Name)
		}
		body.Tools = append(body.Tools, toolJSON{Type: "function", Function: functionJSON{Name: s.Name, Description: s.Description, Parameters: schema}})
	}
	for i, m := range req.Messages {
		msgs, err := wireMessages(m)
		if err != nil {
			return nil, fmt.Errorf("openai: messages[%d]: %w", i, err)
		}
		body.Messages = append(body.Messages, msgs...)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(body); err != nil {
		return nil, fmt.Errorf("openai: encode request: %w", err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// wireMessages translates one message into the chat messages it becomes.
func wireMessages(m llm.Message) ([]messageJSON, error) {
	switch m.Role {
	case llm.RoleAssistant:
		msg, err := assistantMessage(m)
		if err != nil {
			return nil, err
		}
		return []messageJSON{msg}, nil
	case llm.RoleUser:
		return userMessages(m)
	}
	return nil, fmt.Errorf("unknown role %q", m.Role)
}

// assistantMessage joins the text blocks into the content and turns tool_use
// blocks into tool_calls whose arguments are the input JSON as a string.
func assistantMessage(m llm.Message) (messageJSON, error) {
	msg := messageJSON{Role: "assistant"}
	var text strings.Builder
	for _, b := range m.Content {
		switch b.Type {
		case llm.BlockText:
			text.WriteString(b.Text)
		case llm.BlockToolUse:
			input := b.Input
			if len(input) == 0 {
				input = json.RawMessage("{}")
			}
			if !json.Valid(input) {
				return msg, fmt.Errorf("tool_use %s: input is not valid JSON", b.ID)
			}
			msg.ToolCalls = append(msg.ToolCalls, toolCallJSON{ID: b.ID, Type: "function", Function: functionCallJSON{Name: b.Name, Arguments: string(input)}})
		}
	}
	if text.Len() > 0 || len(msg.ToolCalls) == 0 {
		msg.Content = text.String()
	}
	return msg, nil
}

// userMessages splits a user message: one tool message per tool_result, in
// order, then a user message with the remaining text and images, and the
// images tool results returned, which a tool message cannot carry.
func userMessages(m llm.Message) ([]messageJSON, error) {
	var out []messageJSON
	var parts []partJSON
	for j, b := range m.Content {
		switch b.Type {
		case llm.BlockToolResult:
			msg, images, err := toolMessage(b)
			if err != nil {
				return nil, fmt.Errorf("content[%d]: %w", j, err)
			}
			out = append(out, msg)
			if len(images) > 0 {
				parts = append(parts, partJSON{Type: "text", Text: fmt.Sprintf("The image returned by tool call %s:", b.ToolUseID)})
				parts = append(parts, images...)
			}
		case llm.BlockText:
			if b.Text != "" {
				parts = append(parts, partJSON{Type: "text", Text: b.Text})
			}
		case llm.BlockImage:
			img, err := imagePart(b)
			if err != nil {
				return nil, fmt.Errorf("content[%d]: %w", j, err)
			}
			parts = append(parts, img)
		default:
			return nil, fmt.Errorf("content[%d]: unsupported block type %q in a user message", j, b.Type)
		}
	}
	if len(parts) > 0 || len(out) == 0 {
		out = append(out, messageJSON{Role: "user", Content: userContent(parts)})
	}
	return out, nil
}

// userContent is a plain string when the parts are all text, the form every
// server accepts, else the list of parts.
func userContent(parts []partJSON) any {
	texts := make([]string, 0, len(parts))
	for _, p := range parts {
		if p.Type != "text" {
			return parts
		}
		texts = append(texts, p.Text)
	}
	return strings.Join(texts, "\n\n")
}

// toolMessage translates a tool_result into a tool message with its text, and
// returns its images as parts for the user message that follows.
func toolMessage(b llm.ContentBlock) (messageJSON, []partJSON, error) {
	var texts []string
	var images []partJSON
	for k, c := range b.Content {
		switch c.Type {
		case llm.BlockText:
			texts = append(texts, c.Text)
		case llm.BlockImage:
			img, err := imagePart(c)
			if err != nil {
				return messageJSON{}, nil, fmt.Errorf("tool_result %s: content[%d]: %w", b.ToolUseID, k, err)
			}
			images = append(images, img)
		default:
			return messageJSON{}, nil, fmt.Errorf("tool_result %s: content[%d]: unsupported block type %q", b.ToolUseID, k, c.Type)
		}
	}
	if len(texts) == 0 && len(images) > 0 {
		texts = append(texts, "The result is the image in the next message.")
	}
	return messageJSON{Role: "tool", ToolCallID: b.ToolUseID, Content: strings.Join(texts, "\n")}, images, nil
}

// imagePart is a base64 image as an image_url part holding a data URL.
func imagePart(b llm.ContentBlock) (partJSON, error) {
	if b.Source == nil || b.Source.Type != "base64" {
		return partJSON{}, fmt.Errorf("image: only base64 sources are supported")
	}
	url := "data:" + b.Source.MediaType + ";base64," + b.Source.Data
	return partJSON{Type: "image_url", ImageURL: &imageURLJSON{URL: url}}, nil
}

package llmtest

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mini-claude/mini-claude/internal/llm"
)

type responsesRequestJSON struct {
	Model           string              `json:"model"`
	Instructions    string              `json:"instructions"`
	Input           json.RawMessage     `json:"input"`
	Tools           []responsesToolJSON `json:"tools"`
	MaxOutputTokens int                 `json:"max_output_tokens"`
	Stream          bool                `json:"stream"`
}

type responsesToolJSON struct {
	Type        string          `json:"type"`
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// inputItemJSON is an item of a Responses API input, of any type.
type inputItemJSON struct {
	Type    string          `json:"type"`
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
	CallID  string          `json:"call_id"`
	Name    string          `json:"name"`
	// Arguments is a function_call's, Input a custom_tool_call's.
	Arguments string          `json:"arguments"`
	Input     string          `json:"input"`
	Action    json.RawMessage `json:"action"`
	Output    json.RawMessage `json:"output"`
	Summary   []struct {
		Text string `json:"text"`
	} `json:"summary"`
}

type inputPartJSON struct {
	Type     string `json:"type"`
	Text     string `json:"text"`
	ImageURL string `json:"image_url"`
}

// inputItems reads an input given as a string (one user message) or as items.
func inputItems(raw json.RawMessage) ([]inputItemJSON, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var text string
	if json.Unmarshal(raw, &text) == nil {
		content, _ := json.Marshal(text)
		return []inputItemJSON{{Type: "message", Role: "user", Content: content}}, nil
	}
	var items []inputItemJSON
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, fmt.Errorf("parse input: %w", err)
	}
	return items, nil
}

// parseResponsesBody fills the parsed fields of r from a Responses API body,
// in the provider-neutral shape: instructions and system or developer
// messages make up System; consecutive assistant items (messages, reasoning,
// function_call, custom_tool_call, local_shell_call) make one assistant message
// whose calls are tool_use blocks; consecutive outputs make one user message of
// tool_result blocks, which a user message directly after them joins.
func (r *Request) parseResponsesBody() error {
	var body responsesRequestJSON
	if err := json.Unmarshal(r.Body, &body); err != nil {
		return fmt.Errorf("parse request body: %w", err)
	}
	r.Model, r.Stream, r.MaxTokens = body.Model, body.Stream, body.MaxOutputTokens
	for _, t := range body.Tools {
		r.Tools = append(r.Tools, llm.ToolSpec{Name: t.Name, Description: t.Description, InputSchema: t.Parameters})
	}
	items, err := inputItems(body.Input)
	if err != nil {
		return err
	}
	system := []string{}
	if body.Instructions != "" {
		system = append(system, body.Instructions)
	}
	for i, item := range items {
		role, blocks, err := neutralItem(item)
		if err != nil {
			return fmt.Errorf("parse input[%d]: %w", i, err)
		}
		switch {
		case role == "system":
			system = append(system, llm.Message{Content: blocks}.Text())
		case role != "":
			r.appendItem(llm.Role(role), blocks)
		}
	}
	r.System = strings.Join(system, "\n\n")
	return nil
}

// appendItem adds the blocks of an input item to the last message when the
// item continues it, else as a new message.
func (r *Request) appendItem(role llm.Role, blocks []llm.ContentBlock) {
	if n := len(r.Messages); n > 0 {
		last := &r.Messages[n-1]
		joins := last.Role == role && (role == llm.RoleAssistant ||
			(len(last.Content) > 0 && last.Content[len(last.Content)-1].Type == llm.BlockToolResult))
		if joins {
			last.Content = append(last.Content, blocks...)
			return
		}
	}
	r.Messages = append(r.Messages, llm.Message{Role: role, Content: blocks})
}

// neutralItem returns the role ("system", "user", "assistant", or "" for an
// item left out) and the blocks of one input item.
func neutralItem(item inputItemJSON) (string, []llm.ContentBlock, error) {
	switch item.Type {
	case "message", "":
		blocks, err := inputParts(item.Content)
		role := item.Role
		if role == "developer" {
			role = "system"
		}
		return role, blocks, err
	case "reasoning":
		var text []string
		for _, s := range item.Summary {
			text = append(text, s.Text)
		}
		return "assistant", []llm.ContentBlock{{Type: llm.BlockThinking, Thinking: strings.Join(text, "\n")}}, nil
	case "function_call":
		return "assistant", []llm.ContentBlock{{Type: llm.BlockToolUse, ID: item.CallID, Name: item.Name, Input: json.RawMessage(item.Arguments)}}, nil
	case "custom_tool_call":
		input, _ := json.Marshal(map[string]string{"input": item.Input})
		return "assistant", []llm.ContentBlock{{Type: llm.BlockToolUse, ID: item.CallID, Name: item.Name, Input: input}}, nil
	case "local_shell_call":
		return "assistant", []llm.ContentBlock{{Type: llm.BlockToolUse, ID: item.CallID, Name: "local_shell", Input: item.Action}}, nil
	case "function_call_output", "custom_tool_call_output":
		content, err := outputContent(item.Output)
		return "user", []llm.ContentBlock{llm.ToolResultBlock(item.CallID, content, false)}, err
	}
	return "", nil, nil
}

// inputParts reads message content given as a string or as input_text,
// output_text and input_image parts.
func inputParts(raw json.RawMessage) ([]llm.ContentBlock, error) {
	var text string
	if json.Unmarshal(raw, &text) == nil {
		return []llm.ContentBlock{llm.TextBlock(text)}, nil
	}
	var parts []inputPartJSON
	if err := json.Unmarshal(raw, &parts); err != nil {
		return nil, fmt.Errorf("content is neither a string nor a list of parts: %w", err)
	}
	var blocks []llm.ContentBlock
	for _, p := range parts {
		switch p.Type {
		case "input_text", "output_text":
			blocks = append(blocks, llm.TextBlock(p.Text))
		case "input_image":
			blocks = append(blocks, llm.ContentBlock{Type: llm.BlockImage, Source: imageSource(p.ImageURL)})
		}
	}
	return blocks, nil
}

// outputContent reads a tool output given as a string or as parts.
func outputContent(raw json.RawMessage) ([]llm.ContentBlock, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	return inputParts(raw)
}

// checkResponsesRequest returns the rules a streaming Responses API request
// breaks, among them Codex's invariant: every function_call and
// custom_tool_call has an output with its call_id in the same input, and every
// output answers a call there (a function_call_output may answer a
// local_shell_call, which needs none).
func checkResponsesRequest(r Request) []string {
	var v []string
	if r.Model == "" {
		v = append(v, "model: field required")
	}
	if !r.Stream {
		v = append(v, "stream: llmtest serves only streaming requests (stream: true)")
	}
	var body responsesRequestJSON
	if err := json.Unmarshal(r.Body, &body); err != nil {
		return append(v, err.Error())
	}
	items, err := inputItems(body.Input)
	if err != nil {
		return append(v, err.Error())
	}
	if len(items) == 0 {
		v = append(v, "input: at least one item is required")
	}
	calls := map[string]string{}   // call_id -> the output type that answers it
	needed := map[string]bool{}    // call_ids that must have an output
	outputs := map[string]string{} // call_id -> output type
	for i, item := range items {
		switch item.Type {
		case "function_call", "local_shell_call", "custom_tool_call":
			if item.CallID == "" {
				v = append(v, fmt.Sprintf("input[%d]: %s without a call_id", i, item.Type))
			}
			want := "function_call_output"
			if item.Type == "custom_tool_call" {
				want = "custom_tool_call_output"
			}
			calls[item.CallID] = want
			needed[item.CallID] = item.Type != "local_shell_call"
			if item.Type == "function_call" && !isJSONObject(json.RawMessage(item.Arguments)) {
				v = append(v, fmt.Sprintf("input[%d]: function_call %s: arguments are not a JSON object: %q", i, item.CallID, item.Arguments))
			}
		case "function_call_output", "custom_tool_call_output":
			if item.CallID == "" {
				v = append(v, fmt.Sprintf("input[%d]: %s without a call_id", i, item.Type))
				continue
			}
			if calls[item.CallID] != item.Type {
				v = append(v, fmt.Sprintf("input[%d]: %s for call_id %q, which no earlier call in the input has", i, item.Type, item.CallID))
			}
			outputs[item.CallID] = item.Type
		}
	}
	for _, id := range sortedKeys(needed) {
		if needed[id] && id != "" && outputs[id] != calls[id] {
			v = append(v, fmt.Sprintf("input: call %q has no %s", id, calls[id]))
		}
	}
	return v
}

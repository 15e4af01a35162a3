package anthropic

import (
	"encoding/json"
	"fmt"
	"strings"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/param"

	"github.com/mini-claude/mini-claude/internal/llm"
)

// defaultMaxTokens is the max_tokens sent when a request sets none: the output
// limit of the claude-3 models that have a small one, else 32000, which every
// later model accepts.
func defaultMaxTokens(model string) int {
	switch {
	case strings.HasPrefix(model, "claude-3-5-"):
		return 8192
	case strings.HasPrefix(model, "claude-3-opus"), strings.HasPrefix(model, "claude-3-haiku"), strings.HasPrefix(model, "claude-3-sonnet"):
		return 4096
	}
	return 32000
}

// buildParams translates a request into the SDK's parameters. Cache breakpoints
// go on the system prompt, the last tool and the last block of the last message.
func buildParams(req llm.Request) (sdk.MessageNewParams, error) {
	model := req.Model
	if model == "" {
		model = llm.DefaultModel
	}
	maxTokens := req.MaxTokens
	if maxTokens <= 0 {
		maxTokens = defaultMaxTokens(model)
	}
	p := sdk.MessageNewParams{Model: sdk.Model(model), MaxTokens: int64(maxTokens)}
	if req.ThinkingBudget > 0 {
		if req.ThinkingBudget >= maxTokens {
			return p, fmt.Errorf("anthropic: thinking budget %d must be below max_tokens %d", req.ThinkingBudget, maxTokens)
		}
		// Sent as raw JSON: the SDK prints a deprecation warning on stderr for
		// typed "enabled" thinking on some models, which would garble the terminal UI.
		p.Thinking = param.Override[sdk.ThinkingConfigParamUnion](json.RawMessage(
			fmt.Sprintf(`{"type":"enabled","budget_tokens":%d}`, req.ThinkingBudget)))
	}
	if req.System != "" {
		p.System = []sdk.TextBlockParam{{Text: req.System}}
		if !req.NoCache {
			p.System[0].CacheControl = sdk.NewCacheControlEphemeralParam()
		}
	}
	tools, err := toolParams(req.Tools, !req.NoCache)
	if err != nil {
		return p, err
	}
	if ws := req.WebSearch; ws != nil {
		t := &sdk.WebSearchTool20250305Param{AllowedDomains: ws.AllowedDomains, BlockedDomains: ws.BlockedDomains}
		if ws.MaxUses > 0 {
			t.MaxUses = param.NewOpt(int64(ws.MaxUses))
		}
		tools = append(tools, sdk.ToolUnionParam{OfWebSearchTool20250305: t})
	}
	p.Tools = tools
	if req.ToolChoice != "" {
		p.ToolChoice = sdk.ToolChoiceParamOfTool(req.ToolChoice)
	}
	for i, m := range req.Messages {
		mp, err := messageParam(m)
		if err != nil {
			return p, fmt.Errorf("anthropic: messages[%d]: %w", i, err)
		}
		p.Messages = append(p.Messages, mp)
	}
	if n := len(p.Messages); n > 0 && !req.NoCache {
		markLastBlock(p.Messages[n-1])
	}
	return p, nil
}

// toolParams passes each tool's JSON schema through unchanged; cache puts a
// breakpoint on the last tool.
func toolParams(specs []llm.ToolSpec, cache bool) ([]sdk.ToolUnionParam, error) {
	tools := make([]sdk.ToolUnionParam, 0, len(specs))
	for i, s := range specs {
		schema := s.InputSchema
		if len(schema) == 0 {
			schema = json.RawMessage(`{"type":"object","properties":{}}`)
		}
		if !json.Valid(schema) {
			return nil, fmt.Errorf("anthropic: tool %q: input schema is not valid JSON", s.Name)
		}
		t := &sdk.ToolParam{
			Name:        s.Name,
			InputSchema: param.Override[sdk.ToolInputSchemaParam](schema),
		}
		if s.Description != "" {
			t.Description = param.NewOpt(s.Description)
		}
		if cache && i == len(specs)-1 {
			t.CacheControl = sdk.NewCacheControlEphemeralParam()
		}
		tools = append(tools, sdk.ToolUnionParam{OfTool: t})
	}
	return tools, nil
}

// messageParam translates one message; empty text blocks, which the API
// rejects, are left out.
func messageParam(m llm.Message) (sdk.MessageParam, error) {
	blocks := make([]sdk.ContentBlockParamUnion, 0, len(m.Content))
	for j, b := range m.Content {
		if b.Type == llm.BlockText && b.Text == "" {
			continue
		}
		bp, err := blockParam(b)
		if err != nil {
			return sdk.MessageParam{}, fmt.Errorf("content[%d]: %w", j, err)
		}
		blocks = append(blocks, bp)
	}
	switch m.Role {
	case llm.RoleUser:
		return sdk.NewUserMessage(blocks...), nil
	case llm.RoleAssistant:
		return sdk.NewAssistantMessage(blocks...), nil
	}
	return sdk.MessageParam{}, fmt.Errorf("unknown role %q", m.Role)
}

// blockParam translates one content block; thinking blocks keep their signatures.
func blockParam(b llm.ContentBlock) (sdk.ContentBlockParamUnion, error) {
	switch b.Type {
	case llm.BlockText:
		return sdk.ContentBlockParamUnion{OfText: &sdk.TextBlockParam{Text: b.Text}}, nil
	case llm.BlockThinking:
		return sdk.ContentBlockParamUnion{OfThinking: &sdk.ThinkingBlockParam{Thinking: b.Thinking, Signature: b.Signature}}, nil
	case llm.BlockRedactedThinking:
		return sdk.ContentBlockParamUnion{OfRedactedThinking: &sdk.RedactedThinkingBlockParam{Data: b.Data}}, nil
	case llm.BlockToolUse:
		input := b.Input
		if len(input) == 0 {
			input = json.RawMessage("{}")
		}
		if !json.Valid(input) {
			return sdk.ContentBlockParamUnion{}, fmt.Errorf("tool_use %s: input is not valid JSON", b.ID)
		}
		return sdk.ContentBlockParamUnion{OfToolUse: &sdk.ToolUseBlockParam{ID: b.ID, Name: b.Name, Input: input}}, nil
	case llm.BlockToolResult:
		return toolResultParam(b)
	case llm.BlockImage:
		img, err := imageParam(b)
		if err != nil {
			return sdk.ContentBlockParamUnion{}, err
		}
		return sdk.ContentBlockParamUnion{OfImage: img}, nil
	}
	return sdk.ContentBlockParamUnion{}, fmt.Errorf("unsupported block type %q", b.Type)
}

// toolResultParam translates a tool_result with its text and image content.
func toolResultParam(b llm.ContentBlock) (sdk.ContentBlockParamUnion, error) {
	r := &sdk.ToolResultBlockParam{ToolUseID: b.ToolUseID}
	if b.IsError {
		r.IsError = param.NewOpt(true)
	}
	for k, c := range b.Content {
		switch c.Type {
		case llm.BlockText:
			if c.Text != "" {
				r.Content = append(r.Content, sdk.ToolResultBlockParamContentUnion{OfText: &sdk.TextBlockParam{Text: c.Text}})
			}
		case llm.BlockImage:
			img, err := imageParam(c)
			if err != nil {
				return sdk.ContentBlockParamUnion{}, fmt.Errorf("tool_result %s: content[%d]: %w", b.ToolUseID, k, err)
			}
			r.Content = append(r.Content, sdk.ToolResultBlockParamContentUnion{OfImage: img})
		default:
			return sdk.ContentBlockParamUnion{}, fmt.Errorf("tool_result %s: content[%d]: unsupported block type %q", b.ToolUseID, k, c.Type)
		}
	}
	return sdk.ContentBlockParamUnion{OfToolResult: r}, nil
}

// imageParam translates a base64 image block.
func imageParam(b llm.ContentBlock) (*sdk.ImageBlockParam, error) {
	if b.Source == nil || b.Source.Type != "base64" {
		return nil, fmt.Errorf("image: only base64 sources are supported")
	}
	src := &sdk.Base64ImageSourceParam{Data: b.Source.Data, MediaType: sdk.Base64ImageSourceMediaType(b.Source.MediaType)}
	return &sdk.ImageBlockParam{Source: sdk.ImageBlockParamSourceUnion{OfBase64: src}}, nil
}

// markLastBlock puts a cache breakpoint on the last block of m that can take
// one (thinking blocks cannot).
func markLastBlock(m sdk.MessageParam) {
	var content []sdk.ContentBlockParamUnion
	switch {
	case m.OfUser != nil:
		content = m.OfUser.Content
	case m.OfAssistant != nil:
		content = m.OfAssistant.Content
	}
	for i := len(content) - 1; i >= 0; i-- {
		if cc := content[i].GetCacheControl(); cc != nil {
			*cc = sdk.NewCacheControlEphemeralParam()
			return
		}
	}
}

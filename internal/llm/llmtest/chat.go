package llmtest

import (
	"fmt"
	"net/http"

	"github.com/mini-claude/mini-claude/internal/llm"
)

// serveChat answers POST /v1/chat/completions with the next turn or fault, in
// OpenAI's chat completions streaming format.
func (s *Server) serveChat(w http.ResponseWriter, r *http.Request) {
	s.serve(w, r, chatAPI)
}

// chatAPI is OpenAI's chat completions API, POST /v1/chat/completions.
var chatAPI = &wireAPI{
	requestIDHeader: "x-request-id",
	toolIDPrefix:    "call",
	parse:           (*Request).parseChatBody,
	check:           checkChatRequest,
	events:          chatEvents,
	malformed:       event{"", []byte(`{"id":"chatcmpl-llmtest","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"unterminated`)},
	streamError: func(typ, message string) event {
		return event{"", chatErrorBody(typ, nil, message)}
	},
	errorBody: func(status int, typ, message, _ string) []byte {
		defaultType, code := chatErrorKind(status)
		if typ == "" {
			typ = defaultType
		}
		return chatErrorBody(typ, code, message)
	},
}

// The data shapes below follow OpenAI's field order.

type chatChunkJSON struct {
	ID                string           `json:"id"`
	Object            string           `json:"object"`
	Created           int64            `json:"created"`
	Model             string           `json:"model"`
	SystemFingerprint string           `json:"system_fingerprint"`
	Choices           []chatChoiceJSON `json:"choices"`
	// Usage is null on every chunk but the last when the request asked for
	// usage, and absent otherwise.
	Usage any `json:"usage,omitempty"`
}

type chatChoiceJSON struct {
	Index        int           `json:"index"`
	Delta        chatDeltaJSON `json:"delta"`
	Logprobs     *struct{}     `json:"logprobs"`
	FinishReason *string       `json:"finish_reason"`
}

type chatDeltaJSON struct {
	Role             string                  `json:"role,omitempty"`
	Content          *string                 `json:"content,omitempty"`
	ReasoningContent string                  `json:"reasoning_content,omitempty"`
	ToolCalls        []chatToolCallDeltaJSON `json:"tool_calls,omitempty"`
}

type chatToolCallDeltaJSON struct {
	Index    int    `json:"index"`
	ID       string `json:"id,omitempty"`
	Type     string `json:"type,omitempty"`
	Function struct {
		Name      string `json:"name,omitempty"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

type chatUsageJSON struct {
	PromptTokens        int `json:"prompt_tokens"`
	CompletionTokens    int `json:"completion_tokens"`
	TotalTokens         int `json:"total_tokens"`
	PromptTokensDetails struct {
		CachedTokens int `json:"cached_tokens"`
	} `json:"prompt_tokens_details"`
	CompletionTokensDetails struct {
		ReasoningTokens int `json:"reasoning_tokens"`
	} `json:"completion_tokens_details"`
}

type chatErrorJSON struct {
	Error struct {
		Message string  `json:"message"`
		Type    string  `json:"type"`
		Param   *string `json:"param"`
		Code    *string `json:"code"`
	} `json:"error"`
}

// chatErrorBody returns OpenAI's error body.
func chatErrorBody(typ string, code *string, message string) []byte {
	var body chatErrorJSON
	body.Error.Message, body.Error.Type, body.Error.Code = message, typ, code
	return mustJSON(body)
}

// chatErrorKind is the error type and code OpenAI answers a status with.
func chatErrorKind(status int) (string, *string) {
	code := func(s string) *string { return &s }
	switch {
	case status == http.StatusUnauthorized:
		return "invalid_request_error", code("invalid_api_key")
	case status == http.StatusNotFound:
		return "invalid_request_error", code("model_not_found")
	case status == http.StatusTooManyRequests:
		return "requests", code("rate_limit_exceeded")
	case status >= 500:
		return "server_error", nil
	}
	return "invalid_request_error", nil
}

// finishReason is the chat completions spelling of a stop reason.
func finishReason(stop llm.StopReason) string {
	switch stop {
	case llm.StopToolUse:
		return "tool_calls"
	case llm.StopMaxTokens:
		return "length"
	case llm.StopRefusal:
		return "content_filter"
	}
	return "stop"
}

// chatEvents returns the whole SSE sequence of a resolved turn: a role chunk,
// reasoning and content deltas, tool call deltas keyed by index with their
// arguments split over chunks, the finish_reason chunk, the usage chunk when
// the request asked for it, and [DONE]. Redacted thinking has no equivalent
// and is left out.
func chatEvents(t Turn, req Request, serial int) []event {
	base := chatChunkJSON{
		ID: fmt.Sprintf("chatcmpl-llmtest-%03d", serial), Object: "chat.completion.chunk",
		Created: req.Time.Unix(), Model: t.Model, SystemFingerprint: "fp_llmtest",
	}
	if req.IncludeUsage {
		base.Usage = (*chatUsageJSON)(nil)
	}
	chunk := func(delta chatDeltaJSON, finish *string) event {
		c := base
		c.Choices = []chatChoiceJSON{{Delta: delta, FinishReason: finish}}
		return event{"", mustJSON(c)}
	}
	empty := ""
	events := []event{chunk(chatDeltaJSON{Role: "assistant", Content: &empty}, nil)}
	calls := 0
	for _, b := range t.Blocks {
		switch b.Type {
		case llm.BlockThinking:
			for _, c := range chunks(b.Thinking, textChunk) {
				events = append(events, chunk(chatDeltaJSON{ReasoningContent: c}, nil))
			}
		case llm.BlockText:
			for _, c := range chunks(b.Text, textChunk) {
				events = append(events, chunk(chatDeltaJSON{Content: &c}, nil))
			}
		case llm.BlockToolUse:
			start := chatToolCallDeltaJSON{Index: calls, ID: b.ID, Type: "function"}
			start.Function.Name = b.Name
			events = append(events, chunk(chatDeltaJSON{ToolCalls: []chatToolCallDeltaJSON{start}}, nil))
			for _, c := range chunks(string(b.Input), jsonChunk) {
				part := chatToolCallDeltaJSON{Index: calls}
				part.Function.Arguments = c
				events = append(events, chunk(chatDeltaJSON{ToolCalls: []chatToolCallDeltaJSON{part}}, nil))
			}
			calls++
		}
	}
	finish := finishReason(t.StopReason)
	events = append(events, chunk(chatDeltaJSON{}, &finish))
	if req.IncludeUsage {
		u := &chatUsageJSON{
			PromptTokens:     t.Usage.InputTokens + t.Usage.CacheReadInputTokens + t.Usage.CacheCreationInputTokens,
			CompletionTokens: t.Usage.OutputTokens,
		}
		u.TotalTokens = u.PromptTokens + u.CompletionTokens
		u.PromptTokensDetails.CachedTokens = t.Usage.CacheReadInputTokens
		last := base
		last.Choices, last.Usage = []chatChoiceJSON{}, u
		events = append(events, event{"", mustJSON(last)})
	}
	return append(events, event{"", []byte("[DONE]")})
}

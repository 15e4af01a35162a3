package llmtest

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/mini-claude/mini-claude/internal/llm"
)

// Chunk sizes of the deltas, in bytes (cut on rune boundaries).
const (
	textChunk = 16
	jsonChunk = 10
)

// event is one SSE event: its name and its data line.
type event struct {
	name string
	data []byte
}

// The data shapes below follow the API's field order.

type usageJSON struct {
	InputTokens              int `json:"input_tokens"`
	CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int `json:"cache_read_input_tokens"`
	OutputTokens             int `json:"output_tokens"`
}

type messageJSON struct {
	ID           string     `json:"id"`
	Type         string     `json:"type"`
	Role         llm.Role   `json:"role"`
	Model        string     `json:"model"`
	Content      []struct{} `json:"content"`
	StopReason   *string    `json:"stop_reason"`
	StopSequence *string    `json:"stop_sequence"`
	Usage        usageJSON  `json:"usage"`
}

type messageStartJSON struct {
	Type    string      `json:"type"`
	Message messageJSON `json:"message"`
}

type blockStartJSON struct {
	Type         string `json:"type"`
	Index        int    `json:"index"`
	ContentBlock any    `json:"content_block"`
}

type textStartJSON struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type thinkingStartJSON struct {
	Type      string `json:"type"`
	Thinking  string `json:"thinking"`
	Signature string `json:"signature"`
}

type redactedStartJSON struct {
	Type string `json:"type"`
	Data string `json:"data"`
}

type toolUseStartJSON struct {
	Type  string   `json:"type"`
	ID    string   `json:"id"`
	Name  string   `json:"name"`
	Input struct{} `json:"input"`
}

type blockDeltaJSON struct {
	Type  string `json:"type"`
	Index int    `json:"index"`
	Delta any    `json:"delta"`
}

type textDeltaJSON struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type thinkingDeltaJSON struct {
	Type     string `json:"type"`
	Thinking string `json:"thinking"`
}

type signatureDeltaJSON struct {
	Type      string `json:"type"`
	Signature string `json:"signature"`
}

type inputJSONDeltaJSON struct {
	Type        string `json:"type"`
	PartialJSON string `json:"partial_json"`
}

type blockStopJSON struct {
	Type  string `json:"type"`
	Index int    `json:"index"`
}

type messageDeltaJSON struct {
	Type  string `json:"type"`
	Delta struct {
		StopReason   llm.StopReason `json:"stop_reason"`
		StopSequence *string        `json:"stop_sequence"`
	} `json:"delta"`
	Usage usageJSON `json:"usage"`
}

type typeOnlyJSON struct {
	Type string `json:"type"`
}

type errorBodyJSON struct {
	Type  string `json:"type"`
	Error struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"error"`
	RequestID string `json:"request_id,omitempty"`
}

// mustJSON marshals values built in this file, which cannot fail.
func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic("llmtest: marshal event: " + err.Error())
	}
	return b
}

// errorBody returns the API's error body for a type and message.
func errorBody(typ, message, requestID string) []byte {
	var body errorBodyJSON
	body.Type = "error"
	body.Error.Type = typ
	body.Error.Message = message
	body.RequestID = requestID
	return mustJSON(body)
}

// turnEvents returns the whole SSE sequence of a resolved turn.
func turnEvents(t Turn, messageID string) []event {
	start := messageStartJSON{Type: "message_start", Message: messageJSON{
		ID: messageID, Type: "message", Role: llm.RoleAssistant, Model: t.Model,
		Content: []struct{}{},
		Usage: usageJSON{
			InputTokens:              t.Usage.InputTokens,
			CacheCreationInputTokens: t.Usage.CacheCreationInputTokens,
			CacheReadInputTokens:     t.Usage.CacheReadInputTokens,
			OutputTokens:             1,
		},
	}}
	events := []event{{"message_start", mustJSON(start)}}
	ping := event{"ping", mustJSON(typeOnlyJSON{"ping"})}
	if len(t.Blocks) == 0 {
		events = append(events, ping)
	}
	for i, b := range t.Blocks {
		blockEvents := blockEvents(i, b)
		events = append(events, blockEvents[0])
		if i == 0 {
			events = append(events, ping)
		}
		events = append(events, blockEvents[1:]...)
	}
	var delta messageDeltaJSON
	delta.Type = "message_delta"
	delta.Delta.StopReason = t.StopReason
	delta.Usage = usageJSON{
		InputTokens:              t.Usage.InputTokens,
		CacheCreationInputTokens: t.Usage.CacheCreationInputTokens,
		CacheReadInputTokens:     t.Usage.CacheReadInputTokens,
		OutputTokens:             t.Usage.OutputTokens,
	}
	return append(events,
		event{"message_delta", mustJSON(delta)},
		event{"message_stop", mustJSON(typeOnlyJSON{"message_stop"})})
}

// blockEvents returns content_block_start, the deltas and content_block_stop of one block.
func blockEvents(index int, b llm.ContentBlock) []event {
	startEvent := func(block any) event {
		return event{"content_block_start", mustJSON(blockStartJSON{"content_block_start", index, block})}
	}
	deltaEvent := func(delta any) event {
		return event{"content_block_delta", mustJSON(blockDeltaJSON{"content_block_delta", index, delta})}
	}
	var events []event
	switch b.Type {
	case llm.BlockText:
		events = append(events, startEvent(textStartJSON{"text", ""}))
		for _, c := range chunks(b.Text, textChunk) {
			events = append(events, deltaEvent(textDeltaJSON{"text_delta", c}))
		}
	case llm.BlockThinking:
		events = append(events, startEvent(thinkingStartJSON{"thinking", "", ""}))
		for _, c := range chunks(b.Thinking, textChunk) {
			events = append(events, deltaEvent(thinkingDeltaJSON{"thinking_delta", c}))
		}
		events = append(events, deltaEvent(signatureDeltaJSON{"signature_delta", b.Signature}))
	case llm.BlockRedactedThinking:
		events = append(events, startEvent(redactedStartJSON{"redacted_thinking", b.Data}))
	case llm.BlockToolUse, llm.BlockServerToolUse:
		events = append(events, startEvent(toolUseStartJSON{Type: string(b.Type), ID: b.ID, Name: b.Name}))
		events = append(events, deltaEvent(inputJSONDeltaJSON{"input_json_delta", ""}))
		for _, c := range chunks(string(b.Input), jsonChunk) {
			events = append(events, deltaEvent(inputJSONDeltaJSON{"input_json_delta", c}))
		}
	case llm.BlockWebSearchResult:
		// The API sends the whole result in its start event, with no delta.
		events = append(events, startEvent(b))
	default:
		panic("llmtest: a turn cannot hold a " + string(b.Type) + " block")
	}
	return append(events, event{"content_block_stop", mustJSON(blockStopJSON{"content_block_stop", index})})
}

// chunks cuts s into pieces of about size bytes, never inside a rune.
func chunks(s string, size int) []string {
	var out []string
	for len(s) > 0 {
		n := min(size, len(s))
		for n < len(s) && !utf8.RuneStart(s[n]) {
			n++
		}
		out = append(out, s[:n])
		s = s[n:]
	}
	return out
}

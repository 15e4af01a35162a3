package llmtest

import (
	"fmt"
	"net/http"

	"github.com/mini-claude/mini-claude/internal/llm"
)

// serveResponses answers POST /v1/responses with the next turn or fault, in
// OpenAI's Responses API streaming format, as Codex CLI reads it.
func (s *Server) serveResponses(w http.ResponseWriter, r *http.Request) {
	s.serve(w, r, responsesAPI)
}

// responsesAPI is OpenAI's Responses API, POST /v1/responses.
var responsesAPI = &wireAPI{
	requestIDHeader: "x-request-id",
	toolIDPrefix:    "call",
	parse:           (*Request).parseResponsesBody,
	check:           checkResponsesRequest,
	events:          responsesEvents,
	malformed:       event{"response.output_text.delta", []byte(`{"type":"response.output_text.delta","delta":"unterminated`)},
	streamError: func(typ, message string) event {
		failed := map[string]any{"type": "response.failed", "response": map[string]any{
			"object": "response", "status": "failed", "error": map[string]string{"code": typ, "message": message},
		}}
		return event{"response.failed", mustJSON(failed)}
	},
	errorBody: chatAPI.errorBody,
}

// responseItem is an output item of a response, in the order of the API's fields.
type responseItem struct {
	ID        string             `json:"id"`
	Type      string             `json:"type"`
	Status    string             `json:"status,omitempty"`
	Role      string             `json:"role,omitempty"`
	Content   *[]responsePart    `json:"content,omitempty"`
	Summary   *[]responseSummary `json:"summary,omitempty"`
	Encrypted string             `json:"encrypted_content,omitempty"`
	Arguments *string            `json:"arguments,omitempty"`
	CallID    string             `json:"call_id,omitempty"`
	Name      string             `json:"name,omitempty"`
}

type responsePart struct {
	Type        string     `json:"type"`
	Text        string     `json:"text"`
	Annotations []struct{} `json:"annotations"`
}

type responseSummary struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type responseUsageJSON struct {
	InputTokens        int `json:"input_tokens"`
	InputTokensDetails struct {
		CachedTokens int `json:"cached_tokens"`
	} `json:"input_tokens_details"`
	OutputTokens        int `json:"output_tokens"`
	OutputTokensDetails struct {
		ReasoningTokens int `json:"reasoning_tokens"`
	} `json:"output_tokens_details"`
	TotalTokens int `json:"total_tokens"`
}

// responsesStream builds the events of one response, numbering them.
type responsesStream struct {
	events []event
	seq    int
}

// add appends an event of type typ whose data is fields plus type and
// sequence_number; the keys come in alphabetical order, which clients ignore.
func (rs *responsesStream) add(typ string, fields map[string]any) {
	data := map[string]any{"type": typ, "sequence_number": rs.seq}
	for k, v := range fields {
		data[k] = v
	}
	rs.seq++
	rs.events = append(rs.events, event{typ, mustJSON(data)})
}

// responsesEvents returns the whole SSE sequence of a resolved turn: created,
// in_progress, each block as an output item (thinking as a reasoning item with
// its summary, text as a message, tool_use as a function_call) with its added,
// delta and done events, then completed with the usage, or incomplete when the
// turn stopped at max_tokens. Redacted thinking has no equivalent and is left out.
func responsesEvents(t Turn, req Request, serial int) []event {
	id := fmt.Sprintf("resp_llmtest_%03d", serial)
	response := func(status string, output []responseItem) map[string]any {
		return map[string]any{"id": id, "object": "response", "created_at": req.Time.Unix(), "status": status, "model": t.Model, "output": output}
	}
	rs := &responsesStream{}
	rs.add("response.created", map[string]any{"response": response("in_progress", []responseItem{})})
	rs.add("response.in_progress", map[string]any{"response": response("in_progress", []responseItem{})})
	output := []responseItem{}
	for i, b := range t.Blocks {
		itemID := fmt.Sprintf("%s_item_%d", id, i)
		var item responseItem
		switch b.Type {
		case llm.BlockThinking:
			item = rs.reasoning(itemID, len(output), b)
		case llm.BlockText:
			item = rs.message(itemID, len(output), b.Text)
		case llm.BlockToolUse:
			item = rs.functionCall(itemID, len(output), b)
		default:
			continue
		}
		output = append(output, item)
	}
	final := response("completed", output)
	usage := responseUsageJSON{InputTokens: t.Usage.InputTokens + t.Usage.CacheReadInputTokens + t.Usage.CacheCreationInputTokens, OutputTokens: t.Usage.OutputTokens}
	usage.InputTokensDetails.CachedTokens = t.Usage.CacheReadInputTokens
	usage.TotalTokens = usage.InputTokens + usage.OutputTokens
	final["usage"] = usage
	if t.StopReason == llm.StopMaxTokens {
		final["status"] = "incomplete"
		final["incomplete_details"] = map[string]string{"reason": "max_output_tokens"}
		rs.add("response.incomplete", map[string]any{"response": final})
	} else {
		rs.add("response.completed", map[string]any{"response": final})
	}
	return rs.events
}

// reasoning streams a thinking block as a reasoning item with one summary part.
func (rs *responsesStream) reasoning(id string, index int, b llm.ContentBlock) responseItem {
	item := responseItem{ID: id, Type: "reasoning", Summary: &[]responseSummary{}}
	rs.add("response.output_item.added", map[string]any{"output_index": index, "item": item})
	where := map[string]any{"item_id": id, "output_index": index, "summary_index": 0}
	rs.add("response.reasoning_summary_part.added", with(where, "part", responseSummary{"summary_text", ""}))
	for _, c := range chunks(b.Thinking, textChunk) {
		rs.add("response.reasoning_summary_text.delta", with(where, "delta", c))
	}
	rs.add("response.reasoning_summary_text.done", with(where, "text", b.Thinking))
	rs.add("response.reasoning_summary_part.done", with(where, "part", responseSummary{"summary_text", b.Thinking}))
	item.Summary = &[]responseSummary{{"summary_text", b.Thinking}}
	item.Encrypted = b.Signature
	rs.add("response.output_item.done", map[string]any{"output_index": index, "item": item})
	return item
}

// message streams a text block as an assistant message with one output_text part.
func (rs *responsesStream) message(id string, index int, text string) responseItem {
	item := responseItem{ID: id, Type: "message", Status: "in_progress", Role: "assistant", Content: &[]responsePart{}}
	rs.add("response.output_item.added", map[string]any{"output_index": index, "item": item})
	where := map[string]any{"item_id": id, "output_index": index, "content_index": 0}
	rs.add("response.content_part.added", with(where, "part", responsePart{Type: "output_text", Annotations: []struct{}{}}))
	for _, c := range chunks(text, textChunk) {
		rs.add("response.output_text.delta", with(where, "delta", c))
	}
	rs.add("response.output_text.done", with(where, "text", text))
	part := responsePart{Type: "output_text", Text: text, Annotations: []struct{}{}}
	rs.add("response.content_part.done", with(where, "part", part))
	item.Status, item.Content = "completed", &[]responsePart{part}
	rs.add("response.output_item.done", map[string]any{"output_index": index, "item": item})
	return item
}

// functionCall streams a tool_use block as a function_call item whose
// arguments come in deltas.
func (rs *responsesStream) functionCall(id string, index int, b llm.ContentBlock) responseItem {
	empty := ""
	item := responseItem{ID: id, Type: "function_call", Status: "in_progress", Arguments: &empty, CallID: b.ID, Name: b.Name}
	rs.add("response.output_item.added", map[string]any{"output_index": index, "item": item})
	where := map[string]any{"item_id": id, "output_index": index}
	for _, c := range chunks(string(b.Input), jsonChunk) {
		rs.add("response.function_call_arguments.delta", with(where, "delta", c))
	}
	arguments := string(b.Input)
	rs.add("response.function_call_arguments.done", with(where, "arguments", arguments))
	item.Status, item.Arguments = "completed", &arguments
	rs.add("response.output_item.done", map[string]any{"output_index": index, "item": item})
	return item
}

// with returns a copy of fields with key set to value.
func with(fields map[string]any, key string, value any) map[string]any {
	out := make(map[string]any, len(fields)+1)
	for k, v := range fields {
		out[k] = v
	}
	out[key] = value
	return out
}

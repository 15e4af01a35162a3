package llmtest

import (
	"context"
	"encoding/json"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/llm"
)

// responsesBody returns a streaming Responses API body with the given input items (JSON objects).
func responsesBody(items ...string) []byte {
	return []byte(`{"model":"gpt-test","instructions":"be brief","stream":true,"input":[` + strings.Join(items, ",") + `]}`)
}

const responsesUser = `{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}`

func TestResponsesEventSequence(t *testing.T) {
	srv := New(t)
	srv.Push(Turn{
		Blocks: []llm.ContentBlock{Thinking("Plan.", "enc"), Text("Listing files now."), ToolUse("", "shell", `{"command":["ls"]}`)},
		Usage:  llm.Usage{InputTokens: 7, OutputTokens: 9, CacheReadInputTokens: 3},
	})
	resp := post(t, context.Background(), srv.URL, "/v1/responses", responsesBody(responsesUser))
	if resp.StatusCode != 200 || resp.Header.Get("x-request-id") != "req_llmtest_001" {
		t.Fatalf("status %d, headers %v", resp.StatusCode, resp.Header)
	}
	events, err := readSSE(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"response.created", "response.in_progress",
		"response.output_item.added", "response.reasoning_summary_part.added", "response.reasoning_summary_text.delta",
		"response.reasoning_summary_text.done", "response.reasoning_summary_part.done", "response.output_item.done",
		"response.output_item.added", "response.content_part.added", "response.output_text.delta", "response.output_text.delta",
		"response.output_text.done", "response.content_part.done", "response.output_item.done",
		"response.output_item.added", "response.function_call_arguments.delta", "response.function_call_arguments.delta",
		"response.function_call_arguments.done", "response.output_item.done",
		"response.completed",
	}
	if got := names(events); !reflect.DeepEqual(got, want) {
		t.Fatalf("events:\n got %q\nwant %q", got, want)
	}
	var text strings.Builder
	for i, e := range events {
		var data struct {
			Type     string `json:"type"`
			Sequence int    `json:"sequence_number"`
			Delta    string `json:"delta"`
		}
		if err := json.Unmarshal([]byte(e.Data), &data); err != nil || data.Type != e.Name || data.Sequence != i {
			t.Errorf("event %d %s: data %s", i, e.Name, e.Data)
		}
		if e.Name == "response.output_text.delta" {
			text.WriteString(data.Delta)
		}
	}
	if text.String() != "Listing files now." {
		t.Errorf("text deltas add up to %q", text.String())
	}
	const call = `{"id":"resp_llmtest_001_item_2","type":"function_call","status":"completed","arguments":"{\"command\":[\"ls\"]}","call_id":"call_llmtest_0_2","name":"shell"}`
	if done := events[19].Data; !strings.Contains(done, `"item":`+call) {
		t.Errorf("function_call done = %s", done)
	}
	var completed struct {
		Response struct {
			ID     string            `json:"id"`
			Status string            `json:"status"`
			Output []json.RawMessage `json:"output"`
			Usage  responseUsageJSON `json:"usage"`
		} `json:"response"`
	}
	if err := json.Unmarshal([]byte(events[20].Data), &completed); err != nil {
		t.Fatal(err)
	}
	r := completed.Response
	if r.ID != "resp_llmtest_001" || r.Status != "completed" || len(r.Output) != 3 || string(r.Output[2]) != call ||
		r.Usage.InputTokens != 10 || r.Usage.InputTokensDetails.CachedTokens != 3 || r.Usage.OutputTokens != 9 || r.Usage.TotalTokens != 19 {
		t.Errorf("completed = %s", events[20].Data)
	}
	if !strings.Contains(string(r.Output[0]), `"encrypted_content":"enc"`) || !strings.Contains(string(r.Output[0]), `"summary":[{"type":"summary_text","text":"Plan."}]`) {
		t.Errorf("reasoning item = %s", r.Output[0])
	}
}

func TestResponsesRequestRecordedInTheNeutralShape(t *testing.T) {
	srv := New(t)
	srv.Push(Turn{Blocks: []llm.ContentBlock{Text("ok")}})
	body := responsesBody(
		`{"type":"message","role":"developer","content":[{"type":"input_text","text":"use the shell"}]}`,
		responsesUser,
		`{"type":"reasoning","summary":[{"type":"summary_text","text":"think"}],"encrypted_content":"x"}`,
		`{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Running."}]}`,
		`{"type":"function_call","call_id":"c1","name":"shell","arguments":"{\"command\":[\"ls\"]}"}`,
		`{"type":"custom_tool_call","call_id":"c2","name":"apply_patch","input":"*** Begin Patch"}`,
		`{"type":"function_call_output","call_id":"c1","output":"a.go"}`,
		`{"type":"custom_tool_call_output","call_id":"c2","output":"Done!"}`,
		`{"type":"message","role":"user","content":[{"type":"input_text","text":"next"}]}`,
	)
	resp := post(t, context.Background(), srv.URL, "/v1/responses", body)
	io.Copy(io.Discard, resp.Body)
	req := srv.Requests()[0]
	want := []llm.Message{
		user(Text("hi")),
		assistant(llm.ContentBlock{Type: llm.BlockThinking, Thinking: "think"}, Text("Running."),
			ToolUse("c1", "shell", `{"command":["ls"]}`), ToolUse("c2", "apply_patch", `{"input":"*** Begin Patch"}`)),
		user(llm.ToolResultBlock("c1", []llm.ContentBlock{Text("a.go")}, false), llm.ToolResultBlock("c2", []llm.ContentBlock{Text("Done!")}, false), Text("next")),
	}
	if len(req.Violations) != 0 || req.System != "be brief\n\nuse the shell" || !reflect.DeepEqual(req.Messages, want) {
		t.Errorf("violations %q, system %q, messages\n%s", req.Violations, req.System, mustJSON(req.Messages))
	}
}

func TestResponsesCallPairing(t *testing.T) {
	call := `{"type":"function_call","call_id":"c1","name":"shell","arguments":"{}"}`
	output := `{"type":"function_call_output","call_id":"c1","output":"ok"}`
	tests := []struct {
		name  string
		items []string
		want  string
	}{
		{"paired", []string{responsesUser, call, output}, ""},
		{"local shell needs no output", []string{responsesUser, `{"type":"local_shell_call","call_id":"s1","action":{"type":"exec","command":["ls"]}}`}, ""},
		{"missing output", []string{responsesUser, call}, `call "c1" has no function_call_output`},
		{"orphan output", []string{responsesUser, output}, `function_call_output for call_id "c1", which no earlier call`},
		{"output of the wrong kind", []string{responsesUser, call, `{"type":"custom_tool_call_output","call_id":"c1","output":"ok"}`}, "custom_tool_call_output for call_id"},
		{"invalid arguments", []string{responsesUser, `{"type":"function_call","call_id":"c1","name":"shell","arguments":"{"}`, output}, "arguments are not a JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recordingTB{TB: t}
			srv := New(rec)
			defer func() {
				for _, f := range rec.cleanups {
					f()
				}
			}()
			srv.Push(Turn{Blocks: []llm.ContentBlock{Text("ok")}})
			resp := post(t, context.Background(), srv.URL, "/v1/responses", responsesBody(tt.items...))
			io.Copy(io.Discard, resp.Body)
			violations := strings.Join(srv.Requests()[0].Violations, "\n")
			if (tt.want == "") != (violations == "") || !strings.Contains(violations, tt.want) || (tt.want != "") != (resp.StatusCode == 400) {
				t.Errorf("status %d, violations %q; want %q", resp.StatusCode, violations, tt.want)
			}
		})
	}
}

func TestResponsesFaults(t *testing.T) {
	srv := New(t)
	srv.Push(Turn{Faults: []Fault{{Status: 429, RetryAfter: 1}, {StreamError: "server_error"}, {DropAfterEvents: 4}}, Blocks: []llm.ContentBlock{Text("finally some text")}})
	resp := post(t, context.Background(), srv.URL, "/v1/responses", responsesBody(responsesUser))
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 429 || !strings.Contains(string(data), `"code":"rate_limit_exceeded"`) || resp.Header.Get("retry-after") != "1" {
		t.Errorf("429: %d %s", resp.StatusCode, data)
	}
	resp = post(t, context.Background(), srv.URL, "/v1/responses", responsesBody(responsesUser))
	events, err := readSSE(resp.Body)
	last := events[len(events)-1]
	if err != nil || last.Name != "response.failed" || !strings.Contains(last.Data, `"error":{"code":"server_error","message":"llmtest: scripted stream error"}`) {
		t.Errorf("stream error: %v, last event %v", err, last)
	}
	resp = post(t, context.Background(), srv.URL, "/v1/responses", responsesBody(responsesUser))
	if events, err := readSSE(resp.Body); err == nil || len(events) != 4 {
		t.Errorf("drop: %d events, err %v", len(events), err)
	}
	resp = post(t, context.Background(), srv.URL, "/v1/responses", responsesBody(responsesUser))
	if events, err := readSSE(resp.Body); err != nil || events[len(events)-1].Name != "response.completed" {
		t.Errorf("after the faults: %v, %v", names(events), err)
	}
}

package llmtest

import (
	"context"
	"encoding/json"
	"io"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/llm"
)

// chatBody returns a streaming chat completions body with the given messages (JSON objects).
func chatBody(includeUsage bool, msgs ...string) []byte {
	opts := ""
	if includeUsage {
		opts = `,"stream_options":{"include_usage":true}`
	}
	return []byte(`{"model":"gpt-test","stream":true` + opts + `,"messages":[` + strings.Join(msgs, ",") + `]}`)
}

const chatUser = `{"role":"user","content":"hi"}`

var created = regexp.MustCompile(`"created":\d+`)

func TestChatEventSequence(t *testing.T) {
	const head = `{"id":"chatcmpl-llmtest-001","object":"chat.completion.chunk","created":0,"model":"gpt-test","system_fingerprint":"fp_llmtest","choices":`
	tests := []struct {
		name  string
		turn  Turn
		usage bool
		want  []string
	}{{
		name: "text without usage",
		turn: Turn{Blocks: []llm.ContentBlock{Text("Hello, world! This is llmtest.")}},
		want: []string{
			head + `[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]}`,
			head + `[{"index":0,"delta":{"content":"Hello, world! Th"},"logprobs":null,"finish_reason":null}]}`,
			head + `[{"index":0,"delta":{"content":"is is llmtest."},"logprobs":null,"finish_reason":null}]}`,
			head + `[{"index":0,"delta":{},"logprobs":null,"finish_reason":"stop"}]}`,
			`[DONE]`,
		},
	}, {
		name:  "thinking and two tool calls with usage",
		usage: true,
		turn: Turn{Blocks: []llm.ContentBlock{Thinking("Hmm.", "sig"), ToolUse("call_1", "Read", `{"file_path":"/a/b.go"}`), ToolUse("", "Glob", `{}`)},
			Usage: llm.Usage{InputTokens: 7, OutputTokens: 9, CacheReadInputTokens: 3}},
		want: []string{
			head + `[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}],"usage":null}`,
			head + `[{"index":0,"delta":{"reasoning_content":"Hmm."},"logprobs":null,"finish_reason":null}],"usage":null}`,
			head + `[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"Read","arguments":""}}]},"logprobs":null,"finish_reason":null}],"usage":null}`,
			head + `[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"file_pat"}}]},"logprobs":null,"finish_reason":null}],"usage":null}`,
			head + `[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"h\":\"/a/b.g"}}]},"logprobs":null,"finish_reason":null}],"usage":null}`,
			head + `[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"o\"}"}}]},"logprobs":null,"finish_reason":null}],"usage":null}`,
			head + `[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_llmtest_0_2","type":"function","function":{"name":"Glob","arguments":""}}]},"logprobs":null,"finish_reason":null}],"usage":null}`,
			head + `[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":"{}"}}]},"logprobs":null,"finish_reason":null}],"usage":null}`,
			head + `[{"index":0,"delta":{},"logprobs":null,"finish_reason":"tool_calls"}],"usage":null}`,
			head + `[],"usage":{"prompt_tokens":10,"completion_tokens":9,"total_tokens":19,"prompt_tokens_details":{"cached_tokens":3},"completion_tokens_details":{"reasoning_tokens":0}}}`,
			`[DONE]`,
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := New(t)
			srv.Push(tt.turn)
			resp := post(t, context.Background(), srv.URL, "/v1/chat/completions", chatBody(tt.usage, chatUser))
			if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream; charset=utf-8" || resp.Header.Get("x-request-id") != "req_llmtest_001" {
				t.Fatalf("status %d, headers %v", resp.StatusCode, resp.Header)
			}
			events, err := readSSE(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range events {
				if e.Name != "" {
					t.Errorf("event has a name %q; chat completions sends data lines only", e.Name)
				}
				got = append(got, created.ReplaceAllString(e.Data, `"created":0`))
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("events:\n got %s\nwant %s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			if srv.Requests()[0].IncludeUsage != tt.usage {
				t.Errorf("IncludeUsage = %v", srv.Requests()[0].IncludeUsage)
			}
		})
	}
}

func TestChatRequestRecordedInTheNeutralShape(t *testing.T) {
	srv := New(t)
	srv.Push(Turn{Blocks: []llm.ContentBlock{Text("ok")}})
	body := chatBody(false,
		`{"role":"system","content":"be brief"}`,
		`{"role":"user","content":[{"type":"text","text":"look"},{"type":"image_url","image_url":{"url":"data:image/png;base64,iVBOR"}}]}`,
		`{"role":"assistant","content":"Reading.","tool_calls":[{"id":"c1","type":"function","function":{"name":"Read","arguments":"{\"file_path\":\"a\"}"}},{"id":"c2","type":"function","function":{"name":"Glob","arguments":"{}"}}]}`,
		`{"role":"tool","tool_call_id":"c1","content":"one"}`,
		`{"role":"tool","tool_call_id":"c2","content":[{"type":"text","text":"two"}]}`,
		`{"role":"user","content":"<system-reminder>note</system-reminder>"}`,
	)
	body = []byte(strings.Replace(string(body), `"messages"`, `"max_completion_tokens":512,"tools":[{"type":"function","function":{"name":"Read","description":"reads","parameters":{"type":"object"}}}],"messages"`, 1))
	resp := post(t, context.Background(), srv.URL, "/v1/chat/completions", body)
	io.Copy(io.Discard, resp.Body)
	req := srv.Requests()[0]
	want := []llm.Message{
		user(Text("look"), llm.ContentBlock{Type: llm.BlockImage, Source: &llm.ImageSource{Type: "base64", MediaType: "image/png", Data: "iVBOR"}}),
		assistant(Text("Reading."), ToolUse("c1", "Read", `{"file_path":"a"}`), ToolUse("c2", "Glob", `{}`)),
		user(
			llm.ToolResultBlock("c1", []llm.ContentBlock{Text("one")}, false),
			llm.ToolResultBlock("c2", []llm.ContentBlock{Text("two")}, false),
			Text("<system-reminder>note</system-reminder>")),
	}
	if !reflect.DeepEqual(req.Messages, want) || req.System != "be brief" || req.MaxTokens != 512 || req.AssistantTurns() != 1 {
		t.Errorf("parsed as system %q, max %d, messages\n%s", req.System, req.MaxTokens, mustJSON(req.Messages))
	}
	if len(req.Tools) != 1 || req.Tools[0].Name != "Read" || string(req.Tools[0].InputSchema) != `{"type":"object"}` {
		t.Errorf("tools = %+v", req.Tools)
	}
	if len(req.Violations) != 0 {
		t.Errorf("violations %q", req.Violations)
	}
}

func TestChatToolPairing(t *testing.T) {
	call := func(args string, ids ...string) string {
		var calls []string
		for _, id := range ids {
			b, _ := json.Marshal(args)
			calls = append(calls, `{"id":"`+id+`","type":"function","function":{"name":"Read","arguments":`+string(b)+`}}`)
		}
		return `{"role":"assistant","content":null,"tool_calls":[` + strings.Join(calls, ",") + `]}`
	}
	tool := func(id string) string { return `{"role":"tool","tool_call_id":"` + id + `","content":"ok"}` }
	tests := []struct {
		name string
		msgs []string
		want string // a violation the request must report, "" for none
	}{
		{"paired", []string{chatUser, call(`{}`, "a", "b"), tool("b"), tool("a"), chatUser}, ""},
		{"paired, tools last", []string{chatUser, call(`{}`, "a"), tool("a")}, ""},
		{"missing result", []string{chatUser, call(`{}`, "a", "b"), tool("a"), chatUser}, `tool_call ids ["b"] have no tool message before this user message`},
		{"conversation ends", []string{chatUser, call(`{}`, "a")}, `the conversation ends after them`},
		{"unknown id", []string{chatUser, call(`{}`, "a"), tool("a"), tool("z")}, `tool_call_id "z" does not answer`},
		{"answered twice", []string{chatUser, call(`{}`, "a", "b"), tool("a"), tool("a"), tool("b")}, `tool_call_id "a" is answered twice`},
		{"tool without call", []string{chatUser, tool("a")}, "a tool message must follow an assistant message with tool_calls"},
		{"result after a user message", []string{chatUser, call(`{}`, "a"), chatUser, tool("a")}, `tool_call ids ["a"] have no tool message`},
		{"invalid arguments", []string{chatUser, call(`{"file_path":`, "a"), tool("a")}, `function.arguments: not a JSON object`},
		{"duplicate id", []string{chatUser, call(`{}`, "a", "a"), tool("a")}, `id "a" is used twice`},
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
			resp := post(t, context.Background(), srv.URL, "/v1/chat/completions", chatBody(false, tt.msgs...))
			data, _ := io.ReadAll(resp.Body)
			violations := srv.Requests()[0].Violations
			if tt.want == "" {
				if resp.StatusCode != 200 || len(violations) != 0 {
					t.Errorf("status %d, violations %q", resp.StatusCode, violations)
				}
				return
			}
			if resp.StatusCode != 400 || !strings.Contains(strings.Join(violations, "\n"), tt.want) {
				t.Errorf("status %d, violations %q; want one containing %q", resp.StatusCode, violations, tt.want)
			}
			if !strings.HasPrefix(string(data), `{"error":{"message":`) || !strings.Contains(string(data), `"type":"invalid_request_error"`) {
				t.Errorf("error body %s", data)
			}
		})
	}
}

func TestChatFaults(t *testing.T) {
	turn := []llm.ContentBlock{Text("some words to split"), ToolUse("call_1", "Bash", `{"command":"ls -la /tmp"}`)}
	tests := []struct {
		fault    Fault
		status   int
		wantErr  bool
		lastData string // a prefix of the last data line
	}{
		{Fault{Status: 429, RetryAfterMs: 50}, 429, false, ""},
		{Fault{Status: 503}, 503, false, ""},
		{Fault{DropAfterEvents: 3}, 200, true, `{"id":"chatcmpl-llmtest-001"`},
		{Fault{Malformed: true}, 200, false, `{"id":"chatcmpl-llmtest","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"unterminated`},
		{Fault{StreamError: "server_error", Message: "The server had an error"}, 200, false, `{"error":{"message":"The server had an error","type":"server_error","param":null,"code":null}}`},
	}
	for _, tt := range tests {
		t.Run(tt.fault.describe(), func(t *testing.T) {
			srv := New(t)
			srv.Push(Turn{Faults: []Fault{tt.fault}, Blocks: turn})
			resp := post(t, context.Background(), srv.URL, "/v1/chat/completions", chatBody(true, chatUser))
			if resp.StatusCode != tt.status {
				t.Fatalf("status %d, want %d", resp.StatusCode, tt.status)
			}
			if tt.status != 200 {
				data, _ := io.ReadAll(resp.Body)
				var body chatErrorJSON
				if err := json.Unmarshal(data, &body); err != nil || body.Error.Message != "llmtest: scripted fault: "+tt.fault.describe() || resp.Header.Get("x-request-id") == "" {
					t.Errorf("error body %s", data)
				}
				if tt.fault.Status == 429 && (body.Error.Type != "requests" || *body.Error.Code != "rate_limit_exceeded" || resp.Header.Get("retry-after-ms") != "50") {
					t.Errorf("429 body %s, headers %v", data, resp.Header)
				}
				return
			}
			events, err := readSSE(resp.Body)
			if (err != nil) != tt.wantErr {
				t.Errorf("read error = %v, want error %v", err, tt.wantErr)
			}
			if len(events) == 0 || !strings.HasPrefix(events[len(events)-1].Data, tt.lastData) {
				t.Errorf("events %v, want the last to start with %s", events, tt.lastData)
			}
			if events[len(events)-1].Data == "[DONE]" {
				t.Error("a faulty stream ended with [DONE]")
			}
		})
	}
}

func TestOneServerServesBothAPIs(t *testing.T) {
	srv := New(t)
	srv.Push(Turn{Blocks: []llm.ContentBlock{ToolUse("", "Read", `{}`)}}, Turn{Blocks: []llm.ContentBlock{ToolUse("", "Read", `{}`)}})
	resp := post(t, context.Background(), srv.URL, "/v1/messages", body(t, llm.UserText("hi")))
	anthropicData, _ := io.ReadAll(resp.Body)
	resp = post(t, context.Background(), srv.URL, "/v1/chat/completions", chatBody(false, chatUser))
	chatData, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(anthropicData), `"id":"toolu_llmtest_0_0"`) || !strings.Contains(string(chatData), `"id":"call_llmtest_1_0"`) {
		t.Errorf("messages answer:\n%s\nchat answer:\n%s", anthropicData, chatData)
	}
	reqs := srv.Requests()
	if reqs[0].Path != "/v1/messages" || reqs[1].Path != "/v1/chat/completions" || srv.Pending() != 0 {
		t.Errorf("paths %q %q, pending %d", reqs[0].Path, reqs[1].Path, srv.Pending())
	}
}

package llmtest

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/llm"
)

const startData = `{"type":"message_start","message":{"id":"msg_llmtest_001","type":"message","role":"assistant","model":"claude-test","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":100,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":1}}}`

func TestTurnEventSequence(t *testing.T) {
	tests := []struct {
		name string
		turn Turn
		want []sseEvent
	}{{
		name: "text",
		turn: Turn{Blocks: []llm.ContentBlock{Text("Hello, world! This is llmtest.")}},
		want: []sseEvent{
			{"message_start", startData},
			{"content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`},
			{"ping", `{"type":"ping"}`},
			{"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hello, world! Th"}}`},
			{"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"is is llmtest."}}`},
			{"content_block_stop", `{"type":"content_block_stop","index":0}`},
			{"message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"input_tokens":100,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":50}}`},
			{"message_stop", `{"type":"message_stop"}`},
		},
	}, {
		name: "tool_use",
		turn: Turn{Blocks: []llm.ContentBlock{ToolUse("toolu_1", "Read", `{"file_path":"/a/b.go"}`)}, Usage: llm.Usage{InputTokens: 7, OutputTokens: 9, CacheReadInputTokens: 3}},
		want: []sseEvent{
			{"message_start", strings.Replace(startData, `"input_tokens":100,"cache_creation_input_tokens":0,"cache_read_input_tokens":0`, `"input_tokens":7,"cache_creation_input_tokens":0,"cache_read_input_tokens":3`, 1)},
			{"content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"Read","input":{}}}`},
			{"ping", `{"type":"ping"}`},
			{"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":""}}`},
			{"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"file_pat"}}`},
			{"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"h\":\"/a/b.g"}}`},
			{"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"o\"}"}}`},
			{"content_block_stop", `{"type":"content_block_stop","index":0}`},
			{"message_delta", `{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"input_tokens":7,"cache_creation_input_tokens":0,"cache_read_input_tokens":3,"output_tokens":9}}`},
			{"message_stop", `{"type":"message_stop"}`},
		},
	}, {
		name: "thinking then text",
		turn: Turn{Blocks: []llm.ContentBlock{Thinking("Let me think.", "sig-abc"), Text("Hi")}},
		want: []sseEvent{
			{"message_start", startData},
			{"content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}`},
			{"ping", `{"type":"ping"}`},
			{"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Let me think."}}`},
			{"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"sig-abc"}}`},
			{"content_block_stop", `{"type":"content_block_stop","index":0}`},
			{"content_block_start", `{"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}`},
			{"content_block_delta", `{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Hi"}}`},
			{"content_block_stop", `{"type":"content_block_stop","index":1}`},
			{"message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"input_tokens":100,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":50}}`},
			{"message_stop", `{"type":"message_stop"}`},
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := New(t)
			srv.Push(tt.turn)
			resp := post(t, context.Background(), srv.URL, "/v1/messages", body(t, llm.UserText("hi")))
			if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream; charset=utf-8" {
				t.Fatalf("status %d, content-type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
			}
			if got := resp.Header.Get("request-id"); got != "req_llmtest_001" {
				t.Errorf("request-id = %q", got)
			}
			got, err := readSSE(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("events:\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestChunksAreStreamedSeparately(t *testing.T) {
	srv := New(t)
	const delay = 30 * time.Millisecond
	srv.Push(Turn{Blocks: []llm.ContentBlock{Text("one two three four five six")}, ChunkDelay: delay})
	resp := post(t, context.Background(), srv.URL, "/v1/messages", body(t, llm.UserText("hi")))
	var arrivals []time.Time
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "event: ") {
			arrivals = append(arrivals, time.Now())
		}
	}
	if len(arrivals) != 8 {
		t.Fatalf("got %d events, want 8", len(arrivals))
	}
	if spread := arrivals[len(arrivals)-1].Sub(arrivals[0]); spread < 7*delay*9/10 {
		t.Errorf("events arrived within %v; want them %v apart", spread, delay)
	}
}

func TestRequestRecording(t *testing.T) {
	srv := New(t)
	srv.Push(Turn{Blocks: []llm.ContentBlock{Text("a")}}, Turn{Blocks: []llm.ContentBlock{Text("b")}})
	first := `{"model":"m1","max_tokens":10,"stream":true,"system":"be brief",` +
		`"tools":[{"name":"Read","description":"reads","input_schema":{"type":"object"}}],` +
		`"messages":[{"role":"user","content":"hello"}]}`
	second := `{"model":"m2","max_tokens":20,"stream":true,` +
		`"system":[{"type":"text","text":"part one, "},{"type":"text","text":"part two","cache_control":{"type":"ephemeral"}}],` +
		`"messages":[{"role":"user","content":[{"type":"text","text":"hello"}]},{"role":"assistant","content":[{"type":"text","text":"a"}]},{"role":"user","content":"more"}]}`
	for _, b := range []string{first, second} {
		resp := post(t, context.Background(), srv.URL, "/v1/messages", []byte(b))
		io.Copy(io.Discard, resp.Body)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("got %d requests", len(reqs))
	}
	r0, r1 := reqs[0], reqs[1]
	if r0.Model != "m1" || r0.MaxTokens != 10 || !r0.Stream || r0.System != "be brief" || string(r0.Body) != first {
		t.Errorf("first request parsed as %+v", r0)
	}
	if len(r0.Tools) != 1 || r0.Tools[0].Name != "Read" || string(r0.Tools[0].InputSchema) != `{"type":"object"}` {
		t.Errorf("tools = %+v", r0.Tools)
	}
	if r0.Header.Get("Content-Type") != "application/json" || r0.Path != "/v1/messages" || r0.ID != "req_llmtest_001" {
		t.Errorf("header/path/id = %v %q %q", r0.Header, r0.Path, r0.ID)
	}
	if r1.System != "part one, part two" || !strings.HasPrefix(string(r1.RawSystem), "[") {
		t.Errorf("system = %q raw %s", r1.System, r1.RawSystem)
	}
	wantMsgs := []llm.Message{llm.UserText("hello"), assistant(Text("a")), llm.UserText("more")}
	if !reflect.DeepEqual(r1.Messages, wantMsgs) || r1.AssistantTurns() != 1 {
		t.Errorf("messages = %+v", r1.Messages)
	}
	if r1.Time.Before(r0.Time) {
		t.Errorf("arrival times out of order: %v then %v", r0.Time, r1.Time)
	}
	if srv.Pending() != 0 {
		t.Errorf("Pending = %d", srv.Pending())
	}
}

func TestServeByHistory(t *testing.T) {
	srv := New(t)
	srv.ServeByHistory(
		Turn{Blocks: []llm.ContentBlock{ToolUse("", "Read", `{}`)}},
		Turn{Blocks: []llm.ContentBlock{Text("second")}},
		Turn{Blocks: []llm.ContentBlock{Text("last")}},
	)
	history := []llm.Message{llm.UserText("go")}
	tests := []struct {
		assistants int
		want       string
	}{{0, "toolu_llmtest_0_0"}, {1, "second"}, {2, "last"}, {5, "last"}, {0, "toolu_llmtest_0_0"}}
	for _, tt := range tests {
		msgs := history
		for range tt.assistants {
			msgs = append(msgs, assistant(Text("x")), llm.UserText("y"))
		}
		resp := post(t, context.Background(), srv.URL, "/v1/messages", body(t, msgs...))
		data, _ := io.ReadAll(resp.Body)
		if !strings.Contains(string(data), tt.want) {
			t.Errorf("%d assistant messages: response lacks %q:\n%s", tt.assistants, tt.want, data)
		}
	}
}

func TestOtherEndpoints(t *testing.T) {
	srv, err := Start()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	resp := post(t, context.Background(), srv.URL, "/v1/messages/count_tokens", []byte(`{"model":"m","messages":[{"role":"user","content":"hello there"}]}`))
	var count struct {
		InputTokens int `json:"input_tokens"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&count); err != nil || resp.StatusCode != 200 || count.InputTokens <= 0 {
		t.Errorf("count_tokens: status %d, %+v, %v", resp.StatusCode, count, err)
	}
	resp = post(t, context.Background(), srv.URL, "/v1/nope", []byte(`{}`))
	data, _ := io.ReadAll(resp.Body)
	want := `{"type":"error","error":{"type":"not_found_error","message":"llmtest: no endpoint POST /v1/nope"},"request_id":"req_llmtest_002"}`
	if resp.StatusCode != http.StatusNotFound || string(data) != want {
		t.Errorf("unknown path: %d %s", resp.StatusCode, data)
	}
	if v := srv.Violations(); len(v) != 1 || !strings.Contains(v[0], "no such endpoint") {
		t.Errorf("violations = %q", v)
	}
}

func TestServeFunc(t *testing.T) {
	srv := New(t)
	srv.ServeFunc(func(req Request) Turn {
		text := req.Messages[len(req.Messages)-1].Text()
		return Turn{Blocks: []llm.ContentBlock{Text("echo " + text)}, Usage: llm.Usage{InputTokens: len(req.Body) / 4}}
	})
	for _, word := range []string{"one", "two"} {
		b := body(t, llm.UserText(word))
		resp := post(t, context.Background(), srv.URL, "/v1/messages", b)
		data, _ := io.ReadAll(resp.Body)
		if !strings.Contains(string(data), "echo "+word) || !strings.Contains(string(data), fmt.Sprintf(`"input_tokens":%d`, len(b)/4)) {
			t.Errorf("answer to %q lacks the echo or the usage:\n%s", word, data)
		}
	}
}

func TestModelsAreListedAsALocalServerListsThem(t *testing.T) {
	for _, tt := range []struct {
		name string
		set  []string
		want string
	}{
		{"by default", nil, `{"object":"list","data":[{"id":"llmtest-model","object":"model","owned_by":"llmtest"}]}`},
		{"as set", []string{"qwen3-coder", "llama3"}, `{"object":"list","data":[{"id":"qwen3-coder","object":"model","owned_by":"llmtest"},{"id":"llama3","object":"model","owned_by":"llmtest"}]}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := New(t)
			if tt.set != nil {
				srv.SetModels(tt.set...)
			}
			resp, err := http.Get(srv.URL + "/v1/models")
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != 200 || strings.TrimSpace(string(body)) != tt.want {
				t.Errorf("GET /v1/models = %d %s", resp.StatusCode, body)
			}
			if len(srv.Requests()) != 0 {
				t.Error("the model list was recorded as a model request")
			}
		})
	}
}

package openai

import (
	"context"
	"errors"
	"net/http"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

func TestRetries(t *testing.T) {
	toolTurn := []llm.ContentBlock{llmtest.Text("Let me look."), llmtest.ToolUse("call_1", "Read", `{"file_path":"/some/long/path/to/a/file.go"}`)}
	status := func(code int) llmtest.Fault { return llmtest.Fault{Status: code} }
	fault := func(code int) string { return "llmtest: scripted fault: status " + strconv.Itoa(code) }
	tests := []struct {
		name     string
		faults   []llmtest.Fault
		retries  []llm.APIError
		final    *llm.APIError
		minWait  time.Duration
		requests int
	}{
		{name: "429 with retry-after-ms", faults: []llmtest.Fault{{Status: 429, RetryAfterMs: 50}},
			retries: []llm.APIError{{Status: 429, Type: "rate_limit_exceeded", Message: fault(429), Retryable: true}},
			minWait: 50 * time.Millisecond, requests: 2},
		{name: "503", faults: []llmtest.Fault{{Status: 503, Message: "Service Unavailable"}},
			retries:  []llm.APIError{{Status: 503, Type: "server_error", Message: "Service Unavailable", Retryable: true}},
			requests: 2},
		{name: "500 exhausted", faults: []llmtest.Fault{status(500), status(500), status(500), status(500)},
			retries: []llm.APIError{
				{Status: 500, Type: "server_error", Message: fault(500), Retryable: true},
				{Status: 500, Type: "server_error", Message: fault(500), Retryable: true},
				{Status: 500, Type: "server_error", Message: fault(500), Retryable: true}},
			final:    &llm.APIError{Status: 500, Type: "server_error", Message: fault(500), Retryable: true},
			requests: 4},
		{name: "401 not retried", faults: []llmtest.Fault{status(401)},
			final:    &llm.APIError{Status: 401, Type: "invalid_api_key", Message: fault(401)},
			requests: 1},
		{name: "400 not retried", faults: []llmtest.Fault{status(400)},
			final:    &llm.APIError{Status: 400, Type: "invalid_request_error", Message: fault(400)},
			requests: 1},
		{name: "429 out of quota not retried", faults: []llmtest.Fault{{Status: 429, Type: "insufficient_quota", Message: "You exceeded your current quota"}},
			final:    &llm.APIError{Status: 429, Type: "rate_limit_exceeded", Message: "You exceeded your current quota"},
			requests: 1},
		{name: "x-should-retry false wins", faults: []llmtest.Fault{{Status: 503, ShouldRetry: "false"}},
			final:    &llm.APIError{Status: 503, Type: "server_error", Message: fault(503)},
			requests: 1},
		{name: "error chunk mid-stream", faults: []llmtest.Fault{{StreamError: "server_error", Message: "The server had an error"}},
			retries:  []llm.APIError{{Status: 500, Type: "server_error", Message: "The server had an error", Retryable: true}},
			requests: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.New(t)
			srv.Push(llmtest.Turn{Faults: tt.faults, Blocks: toolTurn})
			start := time.Now()
			events, err := llmtest.Collect(context.Background(), newClient(t, srv), simpleRequest("read it"))
			_, retries := llmtest.AfterLastRetry(events)
			var got []llm.APIError
			for _, r := range retries {
				var apiErr *llm.APIError
				if !errors.As(r.Err, &apiErr) {
					t.Fatalf("retry error %v is not an APIError", r.Err)
				}
				got = append(got, *apiErr)
			}
			if !reflect.DeepEqual(got, tt.retries) {
				t.Errorf("retries = %+v\nwant %+v", got, tt.retries)
			}
			checkFinal(t, events, err, tt.final)
			if n := len(srv.Requests()); n != tt.requests {
				t.Errorf("%d requests, want %d", n, tt.requests)
			}
			if tt.minWait > 0 && (retries[0].Wait != tt.minWait || time.Since(start) < tt.minWait) {
				t.Errorf("waited %v (Retry.Wait %v), want %v", time.Since(start), retries[0].Wait, tt.minWait)
			}
		})
	}
}

// checkFinal checks how a stream ended: with the error want, or with a whole message.
func checkFinal(t *testing.T, events []llm.Event, err error, want *llm.APIError) {
	t.Helper()
	if want != nil {
		var apiErr *llm.APIError
		if !errors.As(err, &apiErr) || !reflect.DeepEqual(*apiErr, *want) {
			t.Errorf("err = %#v, want %#v", err, want)
		}
		return
	}
	if err != nil {
		t.Fatalf("err = %v", err)
	}
	end := llmtest.LastEnd(t, events)
	if uses := end.Message.ToolUses(); len(uses) != 1 || string(uses[0].Input) != `{"file_path":"/some/long/path/to/a/file.go"}` {
		t.Errorf("message = %+v", end.Message)
	}
}

func TestBrokenStreamIsRequestedAgain(t *testing.T) {
	tests := []struct {
		name  string
		fault llmtest.Fault
	}{
		{"connection reset mid tool call", llmtest.Fault{DropAfterEvents: 6}},
		{"malformed chunk", llmtest.Fault{Malformed: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.New(t)
			srv.Push(llmtest.Turn{Faults: []llmtest.Fault{tt.fault}, Blocks: []llm.ContentBlock{
				llmtest.Text("Let me look."), llmtest.ToolUse("call_1", "Read", `{"file_path":"/some/long/path/to/a/file.go"}`)}})
			events, err := llmtest.Collect(context.Background(), newClient(t, srv), simpleRequest("read it"))
			rest, retries := llmtest.AfterLastRetry(events)
			if len(retries) != 1 || len(rest) == len(events)-1 {
				t.Fatalf("retries %+v; want one Retry after partial events", retries)
			}
			var apiErr *llm.APIError
			if !errors.As(retries[0].Err, &apiErr) || apiErr.Status != 0 || !apiErr.Retryable || retries[0].Attempt != 1 {
				t.Errorf("retry = %+v", retries[0])
			}
			checkFinal(t, events, err, nil)
			starts := 0
			for _, ev := range rest {
				if _, ok := ev.(llm.ToolUseStart); ok {
					starts++
				}
			}
			if starts != 1 {
				t.Errorf("the new attempt has %d ToolUseStart events, want 1 (a whole message)", starts)
			}
		})
	}
}

func TestStreamEndingEarlyIsRequestedAgain(t *testing.T) {
	calls := 0
	ts := rawServerFunc(t, func(w http.ResponseWriter) {
		calls++
		w.Header().Set("Content-Type", "text/event-stream")
		if calls == 1 {
			w.Write([]byte(`data: {"id":"a","choices":[{"index":0,"delta":{"content":"half"},"finish_reason":null}]}` + "\n\n"))
			return
		}
		w.Write([]byte(`data: {"id":"b","choices":[{"index":0,"delta":{"content":"whole"},"finish_reason":"stop"}]}` + "\n\ndata: [DONE]\n\n"))
	})
	events, err := llmtest.Collect(context.Background(), newClientAt(t, ts), simpleRequest("hi"))
	if err != nil {
		t.Fatal(err)
	}
	_, retries := llmtest.AfterLastRetry(events)
	if len(retries) != 1 || llmtest.LastEnd(t, events).Message.Text() != "whole" || calls != 2 {
		t.Errorf("retries %+v, %d calls, end %+v", retries, calls, llmtest.LastEnd(t, events))
	}
}

func TestOtherServersErrorBodies(t *testing.T) {
	tests := []struct {
		name   string
		status int
		body   string
		want   llm.APIError
	}{
		{"vLLM flat", 400, `{"object":"error","message":"max_tokens is too large","type":"BadRequestError","param":null,"code":400}`,
			llm.APIError{Status: 400, Type: "BadRequestError", Message: "max_tokens is too large"}},
		{"llama.cpp numeric code", 400, `{"error":{"code":400,"message":"the request exceeds the available context size","type":"exceed_context_size_error"}}`,
			llm.APIError{Status: 400, Type: "exceed_context_size_error", Message: "the request exceeds the available context size"}},
		{"plain message", 404, `{"error":"model \"qwen3\" not found, try pulling it first"}`,
			llm.APIError{Status: 404, Message: `model "qwen3" not found, try pulling it first`}},
		{"HTML from a proxy", 502, `<html>Bad Gateway</html>`,
			llm.APIError{Status: 502, Message: "Bad Gateway: <html>Bad Gateway</html>", Retryable: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			url := rawServer(t, tt.status, http.Header{"X-Should-Retry": {"false"}}, tt.body)
			_, err := llmtest.Collect(context.Background(), newClientAt(t, url), simpleRequest("hi"))
			var apiErr *llm.APIError
			want := tt.want
			want.Retryable = false // x-should-retry: false
			if !errors.As(err, &apiErr) || *apiErr != want {
				t.Errorf("err = %#v, want %#v", err, want)
			}
		})
	}
}

func TestMidStreamErrorShapes(t *testing.T) {
	tests := []struct {
		chunk string
		want  llm.APIError
	}{
		{`{"error":{"message":"Rate limit reached","type":"tokens","code":"rate_limit_exceeded"}}`,
			llm.APIError{Status: 429, Type: "rate_limit_exceeded", Message: "Rate limit reached", Retryable: true}},
		{`{"error":{"code":500,"message":"slot unavailable","type":"server_error"}}`,
			llm.APIError{Status: 500, Type: "server_error", Message: "slot unavailable", Retryable: true}},
		{`{"error":{"message":"context too long","type":"invalid_request_error"}}`,
			llm.APIError{Status: 400, Type: "invalid_request_error", Message: "context too long"}},
	}
	for _, tt := range tests {
		url := rawServer(t, 200, http.Header{"Content-Type": {"text/event-stream"}}, "data: "+tt.chunk+"\n\n")
		c, err := New(Config{BaseURL: url, MaxRetries: -1})
		if err != nil {
			t.Fatal(err)
		}
		_, err = llmtest.Collect(context.Background(), c, simpleRequest("hi"))
		var apiErr *llm.APIError
		if !errors.As(err, &apiErr) || *apiErr != tt.want {
			t.Errorf("%s: err = %#v, want %#v", tt.chunk, err, tt.want)
		}
	}
}

func TestCancel(t *testing.T) {
	tests := []struct {
		name  string
		fault llmtest.Fault
	}{
		{"while the stream hangs", llmtest.Fault{Hang: true}},
		{"while waiting to retry", llmtest.Fault{Status: 429, RetryAfterMs: 60_000}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.New(t)
			srv.Push(llmtest.Turn{Faults: []llmtest.Fault{tt.fault}, Blocks: []llm.ContentBlock{llmtest.Text("never")}})
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(100*time.Millisecond, cancel)
			start := time.Now()
			_, err := llmtest.Collect(ctx, newClient(t, srv), simpleRequest("hi"))
			if !errors.Is(err, context.Canceled) || time.Since(start) > time.Second {
				t.Errorf("err %v after %v, want context.Canceled promptly", err, time.Since(start))
			}
		})
	}
}

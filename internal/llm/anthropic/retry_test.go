package anthropic

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

func TestRetries(t *testing.T) {
	toolTurn := []llm.ContentBlock{llmtest.Text("Let me look."), llmtest.ToolUse("toolu_1", "Read", `{"file_path":"/some/long/path/to/a/file.go"}`)}
	status := func(code int) llmtest.Fault { return llmtest.Fault{Status: code} }
	tests := []struct {
		name     string
		faults   []llmtest.Fault
		retries  []llm.APIError // the errors of the expected Retry events
		final    *llm.APIError  // the error that ends the stream, nil for success
		minWait  time.Duration
		requests int
	}{
		{name: "429 with retry-after-ms", faults: []llmtest.Fault{{Status: 429, RetryAfterMs: 50}},
			retries: []llm.APIError{{Status: 429, Type: "rate_limit_error", Message: "llmtest: scripted fault: status 429", Retryable: true}},
			minWait: 50 * time.Millisecond, requests: 2},
		{name: "529 overloaded", faults: []llmtest.Fault{{Status: 529, Message: "Overloaded"}},
			retries:  []llm.APIError{{Status: 529, Type: "overloaded_error", Message: "Overloaded", Retryable: true}},
			requests: 2},
		{name: "500 exhausted", faults: []llmtest.Fault{status(500), status(500), status(500), status(500)},
			retries: []llm.APIError{
				{Status: 500, Type: "api_error", Message: "llmtest: scripted fault: status 500", Retryable: true},
				{Status: 500, Type: "api_error", Message: "llmtest: scripted fault: status 500", Retryable: true},
				{Status: 500, Type: "api_error", Message: "llmtest: scripted fault: status 500", Retryable: true}},
			final:    &llm.APIError{Status: 500, Type: "api_error", Message: "llmtest: scripted fault: status 500", Retryable: true},
			requests: 4},
		{name: "401 not retried", faults: []llmtest.Fault{status(401)},
			final:    &llm.APIError{Status: 401, Type: "authentication_error", Message: "llmtest: scripted fault: status 401"},
			requests: 1},
		{name: "400 not retried", faults: []llmtest.Fault{status(400)},
			final:    &llm.APIError{Status: 400, Type: "invalid_request_error", Message: "llmtest: scripted fault: status 400"},
			requests: 1},
		{name: "x-should-retry false wins", faults: []llmtest.Fault{{Status: 503, ShouldRetry: "false"}},
			final:    &llm.APIError{Status: 503, Type: "api_error", Message: "llmtest: scripted fault: status 503"},
			requests: 1},
		{name: "error event mid-stream", faults: []llmtest.Fault{{StreamError: "overloaded_error", Message: "Overloaded"}},
			retries:  []llm.APIError{{Status: 529, Type: "overloaded_error", Message: "Overloaded", Retryable: true}},
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
		{"connection reset mid tool_use", llmtest.Fault{DropAfterEvents: 10}},
		{"malformed event", llmtest.Fault{Malformed: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.New(t)
			srv.Push(llmtest.Turn{Faults: []llmtest.Fault{tt.fault}, Blocks: []llm.ContentBlock{
				llmtest.Text("Let me look."), llmtest.ToolUse("toolu_1", "Read", `{"file_path":"/some/long/path/to/a/file.go"}`)}})
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

func TestRetryAfterSeconds(t *testing.T) {
	srv := llmtest.New(t)
	srv.Push(llmtest.Turn{Faults: []llmtest.Fault{{Status: 429, RetryAfter: 1}}, Blocks: []llm.ContentBlock{llmtest.Text("ok")}})
	start := time.Now()
	events, err := llmtest.Collect(context.Background(), newClient(t, srv), simpleRequest("hi"))
	if err != nil {
		t.Fatal(err)
	}
	_, retries := llmtest.AfterLastRetry(events)
	if len(retries) != 1 || retries[0].Wait != time.Second || time.Since(start) < time.Second {
		t.Errorf("retries %+v after %v; want a wait of 1s", retries, time.Since(start))
	}
	reqs := srv.Requests()
	if gap := reqs[1].Time.Sub(reqs[0].Time); gap < time.Second {
		t.Errorf("second request %v after the first", gap)
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

func TestConsumerStopsEarly(t *testing.T) {
	srv := llmtest.New(t)
	srv.Push(llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("a long answer in many chunks to stop in the middle of")}})
	n := 0
	for ev, err := range newClient(t, srv).Stream(context.Background(), simpleRequest("hi")) {
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := ev.(llm.TextDelta); ok {
			n++
			break
		}
	}
	if n != 1 {
		t.Errorf("got %d deltas", n)
	}
}

func TestClassifyConnectionError(t *testing.T) {
	if apiErr, wait := classify(errors.New("connection reset by peer")); !apiErr.Retryable || apiErr.Status != 0 || wait != -1 {
		t.Errorf("connection error classified as %+v, %v", apiErr, wait)
	}
}

func TestNoRetriesMeansOneRequest(t *testing.T) {
	srv := llmtest.New(t)
	srv.Push(llmtest.Turn{Faults: []llmtest.Fault{{Status: 503}}, Blocks: []llm.ContentBlock{llmtest.Text("unreached")}})
	c, err := New(Config{APIKey: "k", BaseURL: srv.URL, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = llmtest.Collect(context.Background(), c, simpleRequest("hi"))
	var apiErr *llm.APIError
	if !errors.As(err, &apiErr) || apiErr.Status != 503 || len(srv.Requests()) != 1 || time.Since(start) > time.Second {
		t.Errorf("err %v after %d requests and %v; want the 503 at once", err, len(srv.Requests()), time.Since(start))
	}
}

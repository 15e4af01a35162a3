package openai

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// newClient returns a client of srv with short retry delays.
func newClient(t *testing.T, srv *llmtest.Server) *Client {
	t.Helper()
	return newClientAt(t, srv.URL+"/v1")
}

func newClientAt(t *testing.T, baseURL string) *Client {
	t.Helper()
	c, err := New(Config{APIKey: "test-key", BaseURL: baseURL, MaxRetries: 3, BaseDelay: time.Millisecond, MaxDelay: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// rawServer answers every request with status, headers and body as given, for
// the shapes of other servers that llmtest does not produce.
func rawServer(t *testing.T, status int, header http.Header, body string) string {
	t.Helper()
	return rawServerFunc(t, func(w http.ResponseWriter) {
		for k, v := range header {
			w.Header()[k] = v
		}
		w.WriteHeader(status)
		w.Write([]byte(body))
	})
}

// rawServerFunc answers every request with answer, one request at a time.
func rawServerFunc(t *testing.T, answer func(http.ResponseWriter)) string {
	t.Helper()
	var mu sync.Mutex
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		answer(w)
	}))
	t.Cleanup(ts.Close)
	return ts.URL
}

// collect runs a stream to its end.
func collect(ctx context.Context, c *Client, req llm.Request) ([]llm.Event, error) {
	var events []llm.Event
	for ev, err := range c.Stream(ctx, req) {
		if err != nil {
			return events, err
		}
		events = append(events, ev)
	}
	return events, nil
}

// simpleRequest is a one-message request.
func simpleRequest(text string) llm.Request {
	return llm.Request{Model: "gpt-test", Messages: []llm.Message{llm.UserText(text)}}
}

// lastEnd returns the MessageEnd that closes events.
func lastEnd(t *testing.T, events []llm.Event) llm.MessageEnd {
	t.Helper()
	if len(events) == 0 {
		t.Fatal("no events")
	}
	end, ok := events[len(events)-1].(llm.MessageEnd)
	if !ok {
		t.Fatalf("last event is %T, want MessageEnd", events[len(events)-1])
	}
	return end
}

// afterLastRetry returns the events after the last Retry event, and the Retry events.
func afterLastRetry(events []llm.Event) (rest []llm.Event, retries []llm.Retry) {
	rest = events
	for i, ev := range events {
		if r, ok := ev.(llm.Retry); ok {
			retries = append(retries, r)
			rest = events[i+1:]
		}
	}
	return rest, retries
}

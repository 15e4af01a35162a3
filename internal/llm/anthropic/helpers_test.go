package anthropic

import (
	"context"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// newClient returns a client of srv with short retry delays.
func newClient(t *testing.T, srv *llmtest.Server) *Client {
	t.Helper()
	c, err := New(Config{APIKey: "test-key", BaseURL: srv.URL, MaxRetries: 3, BaseDelay: time.Millisecond, MaxDelay: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return c
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
	return llm.Request{Model: "claude-test", Messages: []llm.Message{llm.UserText(text)}}
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

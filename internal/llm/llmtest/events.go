package llmtest

import (
	"context"
	"testing"

	"github.com/mini-claude/mini-claude/internal/llm"
)

// Collect runs a client's stream to its end and returns its events, and the
// error that ended it early, if any.
func Collect(ctx context.Context, c llm.Client, req llm.Request) ([]llm.Event, error) {
	var events []llm.Event
	for ev, err := range c.Stream(ctx, req) {
		if err != nil {
			return events, err
		}
		events = append(events, ev)
	}
	return events, nil
}

// LastEnd returns the MessageEnd that closes events, failing the test when
// the stream did not end with one.
func LastEnd(t testing.TB, events []llm.Event) llm.MessageEnd {
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

// AfterLastRetry returns the events after the last Retry event, and the Retry
// events: what a consumer keeps of a stream that was retried.
func AfterLastRetry(events []llm.Event) (rest []llm.Event, retries []llm.Retry) {
	rest = events
	for i, ev := range events {
		if r, ok := ev.(llm.Retry); ok {
			retries = append(retries, r)
			rest = events[i+1:]
		}
	}
	return rest, retries
}

package anthropic

import (
	"context"
	"errors"
	"iter"
	"time"

	"github.com/mini-claude/mini-claude/internal/llm"
)

// Stream sends req and yields the events of the response as they arrive,
// ending with MessageEnd. A transient failure (429, 529, 5xx, 408, 409, a
// connection error, a stream that breaks before message_stop, or whatever the
// x-should-retry header says) is retried after a Retry event whose Attempt
// counts retries from 1; the consumer must then discard the deltas of the
// abandoned attempt, since the whole message is asked for again. The wait is
// what retry-after-ms or retry-after asks for, else jittered exponential
// backoff. Other failures, and the last one when retries run out, end the
// sequence with an *llm.APIError; cancelling ctx ends it promptly with ctx.Err().
//
// ToolUseEnd.Input is the JSON as streamed ("{}" when there was none); when the
// response stopped at max_tokens it may be cut short and invalid.
func (c *Client) Stream(ctx context.Context, req llm.Request) iter.Seq2[llm.Event, error] {
	return func(yield func(llm.Event, error) bool) {
		params, err := buildParams(req)
		if err != nil {
			yield(nil, err)
			return
		}
		for n := 0; ; n++ {
			err := c.attempt(ctx, params, n, yield)
			if err == nil || errors.Is(err, errStopped) {
				return
			}
			if ctx.Err() != nil {
				yield(nil, ctx.Err())
				return
			}
			apiErr, retryAfter := classify(err)
			if !apiErr.Retryable || n >= c.maxRetries {
				yield(nil, apiErr)
				return
			}
			wait := retryAfter
			if wait < 0 {
				wait = backoff(c.baseDelay, c.maxDelay, n)
			}
			if !yield(llm.Retry{Attempt: n + 1, Wait: wait, Err: apiErr}, nil) {
				return
			}
			if err := sleep(ctx, wait); err != nil {
				yield(nil, err)
				return
			}
		}
	}
}

// sleep waits d or until ctx is done, and returns ctx.Err() in that case.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

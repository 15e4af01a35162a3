package anthropic

import (
	"context"
	"iter"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/retry"
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
	params, err := buildParams(req)
	if err != nil {
		return func(yield func(llm.Event, error) bool) { yield(nil, err) }
	}
	attempt := func(ctx context.Context, n int, yield func(llm.Event, error) bool) error {
		return c.attempt(ctx, params, n, yield)
	}
	return retry.Stream(ctx, c.policy, attempt, classify)
}

// Package retry is the retry policy the model clients share: each client sends
// one attempt and classifies its failure; Stream decides whether to try again,
// reports the retry as an llm.Retry event and waits what the server asked for
// (retry-after-ms, retry-after) or a jittered exponential backoff.
package retry

import (
	"context"
	"errors"
	"iter"
	"math/rand/v2"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/mini-claude/mini-claude/internal/llm"
)

// Defaults of a Policy, as in Claude Code.
const (
	DefaultMaxRetries = 10
	DefaultBaseDelay  = 500 * time.Millisecond
	DefaultMaxDelay   = 32 * time.Second
)

// ErrStopped is what an Attempt returns when the consumer stopped iterating;
// nothing more may be yielded after it.
var ErrStopped = errors.New("consumer stopped")

// Policy says how often to retry and how long to wait in between.
type Policy struct {
	// MaxRetries is the number of retries after the first attempt: 0 means
	// DefaultMaxRetries, a negative value means none.
	MaxRetries int
	// BaseDelay and MaxDelay bound the backoff; 0 means the defaults.
	BaseDelay, MaxDelay time.Duration
}

// Normalized returns the policy with its defaults filled in and MaxRetries
// counting retries exactly (0 for none).
func (p Policy) Normalized() Policy {
	switch {
	case p.MaxRetries == 0:
		p.MaxRetries = DefaultMaxRetries
	case p.MaxRetries < 0:
		p.MaxRetries = 0
	}
	if p.BaseDelay <= 0 {
		p.BaseDelay = DefaultBaseDelay
	}
	if p.MaxDelay <= 0 {
		p.MaxDelay = DefaultMaxDelay
	}
	return p
}

// MaxRetriesFromEnv reads MINI_CLAUDE_MAX_RETRIES as a Policy.MaxRetries value:
// a count of retries, "0" for none (-1), and 0 (the default) when the variable
// is unset or not a non-negative integer.
func MaxRetriesFromEnv() int {
	n, err := strconv.Atoi(os.Getenv("MINI_CLAUDE_MAX_RETRIES"))
	switch {
	case err != nil || n < 0:
		return 0
	case n == 0:
		return -1
	}
	return n
}

// Attempt sends request number n (0 for the first) and yields its events as
// they arrive, ending with llm.MessageEnd. It returns nil on a complete
// message, ErrStopped when yield returned false, or the failure that cut it short.
type Attempt func(ctx context.Context, n int, yield func(llm.Event, error) bool) error

// Classify turns an attempt's failure into an APIError and returns the wait the
// server asked for before a retry, or -1 when it asked for none.
type Classify func(error) (*llm.APIError, time.Duration)

// Stream runs attempts until one completes. A failure that classify marks
// retryable is retried, while retries remain, after an llm.Retry event whose
// Attempt counts retries from 1; other failures, and the last one, end the
// sequence with the *llm.APIError. Cancelling ctx ends it promptly with ctx.Err().
// The policy is taken as Normalized returns it: MaxRetries 0 means no retry.
func Stream(ctx context.Context, p Policy, attempt Attempt, classify Classify) iter.Seq2[llm.Event, error] {
	return func(yield func(llm.Event, error) bool) {
		for n := 0; ; n++ {
			err := attempt(ctx, n, yield)
			if err == nil || errors.Is(err, ErrStopped) {
				return
			}
			if ctx.Err() != nil {
				yield(nil, ctx.Err())
				return
			}
			apiErr, retryAfter := classify(err)
			if !apiErr.Retryable || n >= p.MaxRetries {
				yield(nil, apiErr)
				return
			}
			wait := retryAfter
			if wait < 0 {
				wait = Backoff(p.BaseDelay, p.MaxDelay, n)
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

// RetryableStatus says whether an HTTP status is of a transient kind: 408,
// 409, 429 and every 5xx.
func RetryableStatus(status int) bool {
	switch status {
	case http.StatusRequestTimeout, http.StatusConflict, http.StatusTooManyRequests:
		return true
	}
	return status >= 500
}

// FromHeaders applies what the response headers of a failed request say: an
// x-should-retry of "true" or "false" overrides e.Retryable, and the returned
// wait is that of retry-after-ms or retry-after, or -1 when neither is usable.
func FromHeaders(e *llm.APIError, h http.Header) time.Duration {
	switch strings.ToLower(h.Get("x-should-retry")) {
	case "true":
		e.Retryable = true
	case "false":
		e.Retryable = false
	}
	return RetryAfter(h)
}

// RetryAfter reads retry-after-ms (milliseconds) or else retry-after (seconds or
// an HTTP date); it returns -1 when neither is usable.
func RetryAfter(h http.Header) time.Duration {
	if v := h.Get("retry-after-ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	v := h.Get("retry-after")
	if v == "" {
		return -1
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 {
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(0, time.Until(t))
	}
	return -1
}

// Backoff is the wait before retry n+1: base·2ⁿ with ±25% jitter, at most maxDelay.
func Backoff(base, maxDelay time.Duration, n int) time.Duration {
	d := maxDelay
	if n < 32 && base<<n > 0 && base<<n < maxDelay {
		d = base << n
	}
	jittered := time.Duration(float64(d) * (0.75 + 0.5*rand.Float64()))
	return min(jittered, maxDelay)
}

// HTTPClient is http.DefaultTransport's settings with no overall timeout
// (streams may be long) and a 10-minute bound on the wait for response
// headers, so a server that accepts and never answers becomes a retryable failure.
func HTTPClient() *http.Client {
	t, ok := http.DefaultTransport.(*http.Transport)
	if !ok {
		return &http.Client{}
	}
	t = t.Clone()
	t.ResponseHeaderTimeout = 10 * time.Minute
	return &http.Client{Transport: t}
}

package retry

import (
	"context"
	"errors"
	"net/http"
	"reflect"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/llm"
)

// script is a sequence of attempt outcomes: nil completes with a message,
// an error fails the attempt after one text delta.
type script struct {
	outcomes []error
	calls    []int
}

func (s *script) attempt(_ context.Context, n int, yield func(llm.Event, error) bool) error {
	s.calls = append(s.calls, n)
	if !yield(llm.TextDelta{Text: "partial"}, nil) {
		return ErrStopped
	}
	if err := s.outcomes[n]; err != nil {
		return err
	}
	if !yield(llm.MessageEnd{StopReason: llm.StopEndTurn}, nil) {
		return ErrStopped
	}
	return nil
}

var (
	errTransient = errors.New("transient")
	errFatal     = errors.New("fatal")
)

func classifyTest(err error) (*llm.APIError, time.Duration) {
	if errors.Is(err, errFatal) {
		return &llm.APIError{Status: 400, Message: "fatal"}, -1
	}
	return &llm.APIError{Status: 503, Message: "transient", Retryable: true}, 2 * time.Millisecond
}

func TestStream(t *testing.T) {
	tests := []struct {
		name     string
		policy   Policy
		outcomes []error
		retries  int
		finalErr string
	}{
		{"first attempt succeeds", Policy{MaxRetries: 3}, []error{nil}, 0, ""},
		{"retried then succeeds", Policy{MaxRetries: 3}, []error{errTransient, errTransient, nil}, 2, ""},
		{"retries exhausted", Policy{MaxRetries: 2}, []error{errTransient, errTransient, errTransient}, 2, "API error 503: transient"},
		{"not retryable", Policy{MaxRetries: 2}, []error{errFatal}, 0, "API error 400: fatal"},
		{"no retries", Policy{MaxRetries: -1}.Normalized(), []error{errTransient}, 0, "API error 503: transient"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &script{outcomes: tt.outcomes}
			var retries []llm.Retry
			var final error
			var ended bool
			for ev, err := range Stream(context.Background(), tt.policy, s.attempt, classifyTest) {
				switch ev := ev.(type) {
				case llm.Retry:
					retries = append(retries, ev)
				case llm.MessageEnd:
					ended = true
				}
				final = err
			}
			if len(retries) != tt.retries || (tt.finalErr == "") != ended {
				t.Errorf("%d retries, ended %v; want %d retries", len(retries), ended, tt.retries)
			}
			for i, r := range retries {
				if r.Attempt != i+1 || r.Wait != 2*time.Millisecond || r.Err == nil {
					t.Errorf("retry %d = %+v", i, r)
				}
			}
			if got := errString(final); got != tt.finalErr {
				t.Errorf("final error %q, want %q", got, tt.finalErr)
			}
			if want := len(tt.outcomes); !reflect.DeepEqual(s.calls, seq(want)) {
				t.Errorf("attempts %v, want %v", s.calls, seq(want))
			}
		})
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

func TestStreamStopsWhenTheConsumerDoes(t *testing.T) {
	s := &script{outcomes: []error{errTransient, nil}}
	for ev := range Stream(context.Background(), Policy{MaxRetries: 3}, s.attempt, classifyTest) {
		if _, ok := ev.(llm.Retry); ok {
			break
		}
	}
	if len(s.calls) != 1 {
		t.Errorf("%d attempts after the consumer stopped at the retry, want 1", len(s.calls))
	}
}

func TestStreamCancelledWhileWaiting(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	slow := func(error) (*llm.APIError, time.Duration) {
		return &llm.APIError{Status: 429, Retryable: true}, time.Minute
	}
	s := &script{outcomes: []error{errTransient, nil}}
	start := time.Now()
	var final error
	for _, err := range Stream(ctx, Policy{}.Normalized(), s.attempt, slow) {
		final = err
	}
	if !errors.Is(final, context.Canceled) || time.Since(start) > time.Second {
		t.Errorf("err %v after %v, want context.Canceled promptly", final, time.Since(start))
	}
}

func TestPolicyNormalized(t *testing.T) {
	tests := []struct{ in, want Policy }{
		{Policy{}, Policy{DefaultMaxRetries, DefaultBaseDelay, DefaultMaxDelay}},
		{Policy{MaxRetries: -1, BaseDelay: time.Second}, Policy{0, time.Second, DefaultMaxDelay}},
		{Policy{MaxRetries: 3, MaxDelay: time.Second}, Policy{3, DefaultBaseDelay, time.Second}},
	}
	for _, tt := range tests {
		if got := tt.in.Normalized(); got != tt.want {
			t.Errorf("%+v.Normalized() = %+v, want %+v", tt.in, got, tt.want)
		}
	}
}

func TestMaxRetriesFromEnv(t *testing.T) {
	tests := []struct {
		value string
		want  int
	}{{"", 0}, {"3", 3}, {"0", -1}, {"-2", 0}, {"many", 0}}
	for _, tt := range tests {
		t.Setenv("MINI_CLAUDE_MAX_RETRIES", tt.value)
		if got := MaxRetriesFromEnv(); got != tt.want {
			t.Errorf("MINI_CLAUDE_MAX_RETRIES=%q: got %d, want %d", tt.value, got, tt.want)
		}
	}
}

func TestRetryAfter(t *testing.T) {
	tests := []struct {
		header http.Header
		want   time.Duration
	}{
		{http.Header{}, -1},
		{http.Header{"Retry-After-Ms": {"250"}, "Retry-After": {"7"}}, 250 * time.Millisecond},
		{http.Header{"Retry-After": {"2"}}, 2 * time.Second},
		{http.Header{"Retry-After": {"1.5"}}, 1500 * time.Millisecond},
		{http.Header{"Retry-After": {"soon"}}, -1},
		{http.Header{"Retry-After": {time.Now().Add(-time.Hour).UTC().Format(http.TimeFormat)}}, 0},
	}
	for _, tt := range tests {
		if got := RetryAfter(tt.header); got != tt.want {
			t.Errorf("RetryAfter(%v) = %v, want %v", tt.header, got, tt.want)
		}
	}
}

func TestFromHeaders(t *testing.T) {
	tests := []struct {
		retryable   bool
		shouldRetry string
		want        bool
	}{{true, "", true}, {false, "", false}, {true, "false", false}, {false, "TRUE", true}}
	for _, tt := range tests {
		e := &llm.APIError{Retryable: tt.retryable}
		wait := FromHeaders(e, http.Header{"X-Should-Retry": {tt.shouldRetry}, "Retry-After": {"3"}})
		if e.Retryable != tt.want || wait != 3*time.Second {
			t.Errorf("retryable %v, x-should-retry %q: got %v, wait %v", tt.retryable, tt.shouldRetry, e.Retryable, wait)
		}
	}
}

func TestRetryableStatus(t *testing.T) {
	for status, want := range map[int]bool{400: false, 401: false, 404: false, 408: true, 409: true, 429: true, 500: true, 503: true, 529: true} {
		if got := RetryableStatus(status); got != want {
			t.Errorf("RetryableStatus(%d) = %v, want %v", status, got, want)
		}
	}
}

func TestBackoff(t *testing.T) {
	base, maxDelay := 500*time.Millisecond, 32*time.Second
	for n := range 40 {
		nominal := min(base<<min(n, 20), maxDelay)
		for range 50 {
			d := Backoff(base, maxDelay, n)
			if d < nominal*3/4 || d > nominal*5/4 || d > maxDelay {
				t.Fatalf("Backoff(%d) = %v, want %v ±25%% capped at %v", n, d, nominal, maxDelay)
			}
		}
	}
}

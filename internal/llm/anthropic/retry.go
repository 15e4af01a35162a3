package anthropic

import (
	"errors"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/mini-claude/mini-claude/internal/llm"
)

// classify turns the error of a failed attempt into an APIError, and returns the
// wait the server asked for before a retry, or -1 when it asked for none.
func classify(err error) (*llm.APIError, time.Duration) {
	var aerr *sdk.Error
	if !errors.As(err, &aerr) {
		// No HTTP answer, or a stream cut, malformed or ended early: the
		// request is sent again whole.
		return &llm.APIError{Message: err.Error(), Retryable: true}, -1
	}
	status := aerr.StatusCode
	typ := string(aerr.Type())
	if status == http.StatusOK {
		// An error event in the middle of a stream: take the status its type has
		// when the API reports it before streaming.
		status = statusOfType(typ)
	}
	e := &llm.APIError{Status: status, Type: typ, Message: errorMessage(aerr), Retryable: retryableStatus(status)}
	if aerr.Response == nil {
		return e, -1
	}
	h := aerr.Response.Header
	switch strings.ToLower(h.Get("x-should-retry")) {
	case "true":
		e.Retryable = true
	case "false":
		e.Retryable = false
	}
	return e, retryAfter(h)
}

// retryableStatus says whether a status is of a transient kind.
func retryableStatus(status int) bool {
	switch status {
	case http.StatusRequestTimeout, http.StatusConflict, http.StatusTooManyRequests:
		return true
	}
	return status >= 500
}

// statusOfType is the HTTP status the API uses for an error type.
func statusOfType(typ string) int {
	switch typ {
	case "overloaded_error":
		return 529
	case "rate_limit_error":
		return http.StatusTooManyRequests
	case "invalid_request_error":
		return http.StatusBadRequest
	case "authentication_error":
		return http.StatusUnauthorized
	case "permission_error":
		return http.StatusForbidden
	case "not_found_error":
		return http.StatusNotFound
	case "request_too_large":
		return http.StatusRequestEntityTooLarge
	case "timeout_error":
		return http.StatusGatewayTimeout
	}
	return http.StatusInternalServerError
}

// errorMessage is the message of the error body, or what can be said without one
// (a proxy's HTML page, an empty body).
func errorMessage(aerr *sdk.Error) string {
	if aerr.Message != "" {
		return aerr.Message
	}
	msg := http.StatusText(aerr.StatusCode)
	if raw := strings.TrimSpace(aerr.RawJSON()); raw != "" {
		const limit = 200
		if len(raw) > limit {
			raw = raw[:limit] + "…"
		}
		msg += ": " + raw
	}
	return msg
}

// retryAfter reads retry-after-ms (milliseconds) or else retry-after (seconds or
// an HTTP date); it returns -1 when neither is usable.
func retryAfter(h http.Header) time.Duration {
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

// backoff is the wait before retry n+1: base·2ⁿ with ±25% jitter, at most maxDelay.
func backoff(base, maxDelay time.Duration, n int) time.Duration {
	d := maxDelay
	if n < 32 && base<<n > 0 && base<<n < maxDelay {
		d = base << n
	}
	jittered := time.Duration(float64(d) * (0.75 + 0.5*rand.Float64()))
	return min(jittered, maxDelay)
}

package anthropic

import (
	"errors"
	"net/http"
	"strings"
	"time"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/retry"
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
	e := &llm.APIError{Status: status, Type: typ, Message: errorMessage(aerr), Retryable: retry.RetryableStatus(status)}
	if aerr.Response == nil {
		return e, -1
	}
	return e, retry.FromHeaders(e, aerr.Response.Header)
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

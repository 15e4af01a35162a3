package openai

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/retry"
)

// errorJSON is an error as OpenAI-compatible servers report it; code is a
// string ("rate_limit_exceeded") for OpenAI, a number for llama.cpp and vLLM.
type errorJSON struct {
	Message string          `json:"message"`
	Type    string          `json:"type"`
	Code    json.RawMessage `json:"code"`
}

// statusError is an answer with a status other than 2xx.
type statusError struct {
	status int
	header http.Header
	body   []byte
}

func (e *statusError) Error() string { return fmt.Sprintf("status %d: %s", e.status, e.body) }

// streamError is an error the server reported in the middle of a stream.
type streamError struct {
	status       int
	typ, message string
	noRetry      bool
}

func (e *streamError) Error() string { return e.message }

// classify is the package's classify for this client's server: a connection
// refused on a loopback address is not retried, since it means the local
// server (ollama serve, llama-server, vllm serve) is not running, and waiting
// would only delay saying so.
func (c *Client) classify(err error) (*llm.APIError, time.Duration) {
	e, wait := classify(err)
	if e.Status == 0 && c.loopback && errors.Is(err, syscall.ECONNREFUSED) {
		e.Retryable = false
		e.Message = fmt.Sprintf("no server is listening at %s: connection refused", c.endpoint)
	}
	return e, wait
}

// classify turns the error of a failed attempt into an APIError, and returns the
// wait the server asked for before a retry, or -1 when it asked for none.
func classify(err error) (*llm.APIError, time.Duration) {
	var se *statusError
	if errors.As(err, &se) {
		typ, message, quota := parseErrorBody(se.body)
		if message == "" {
			message = bodySnippet(se.status, se.body)
		}
		e := &llm.APIError{Status: se.status, Type: typ, Message: message, Retryable: retry.RetryableStatus(se.status) && !quota}
		return e, retry.FromHeaders(e, se.header)
	}
	var me *streamError
	if errors.As(err, &me) {
		return &llm.APIError{Status: me.status, Type: me.typ, Message: me.message, Retryable: retry.RetryableStatus(me.status) && !me.noRetry}, -1
	}
	// No HTTP answer, or a stream cut, malformed or ended early: the request
	// is sent again whole.
	return &llm.APIError{Message: err.Error(), Retryable: true}, -1
}

// parseErrorBody reads the error of a body in OpenAI's shape ({"error": {…}}),
// as a bare message ({"error": "…"}) or in vLLM's older flat shape. It returns
// the code when it is a string, else the type; quota says the account is out
// of credit, a 429 that no wait cures.
func parseErrorBody(body []byte) (typ, message string, quota bool) {
	var wrapped struct {
		Error json.RawMessage `json:"error"`
		errorJSON
	}
	if json.Unmarshal(body, &wrapped) != nil {
		return "", "", false
	}
	e, ok := errorOf(wrapped.Error)
	if !ok {
		e = wrapped.errorJSON
	}
	typ = e.Type
	if code, isString := codeString(e.Code); isString && code != "" {
		typ = code
	}
	return typ, e.Message, typ == "insufficient_quota" || e.Type == "insufficient_quota"
}

// errorOf reads an error field that is an object or a plain message.
func errorOf(raw json.RawMessage) (errorJSON, bool) {
	if len(raw) == 0 || string(raw) == "null" {
		return errorJSON{}, false
	}
	var e errorJSON
	if json.Unmarshal(raw, &e) == nil {
		return e, true
	}
	var message string
	if json.Unmarshal(raw, &message) == nil {
		return errorJSON{Message: message}, true
	}
	return errorJSON{}, false
}

// codeString returns the code when it is a JSON string.
func codeString(raw json.RawMessage) (string, bool) {
	var s string
	err := json.Unmarshal(raw, &s)
	return s, err == nil
}

// chunkError returns the error a chunk reports, if any, with the status its
// code or type stands for.
func chunkError(c chunkJSON) error {
	e, ok := errorOf(c.Error)
	if !ok {
		if c.Object != "error" {
			return nil
		}
		e = c.errorJSON
	}
	typ := e.Type
	status := http.StatusInternalServerError
	if code, isString := codeString(e.Code); isString && code != "" {
		typ = code
	} else if n, err := strconv.Atoi(string(e.Code)); err == nil && n >= 400 {
		status = n
	}
	switch typ {
	case "rate_limit_exceeded", "requests", "tokens", "insufficient_quota":
		status = http.StatusTooManyRequests
	case "invalid_request_error", "context_length_exceeded":
		status = http.StatusBadRequest
	}
	message := e.Message
	if message == "" {
		message = "the server reported an error in the middle of the stream"
	}
	return &streamError{status: status, typ: typ, message: message, noRetry: typ == "insufficient_quota"}
}

// bodySnippet says what can be said of an error without a message: the
// status text and the start of the body (a proxy's HTML page, say).
func bodySnippet(status int, body []byte) string {
	msg := http.StatusText(status)
	if raw := strings.TrimSpace(string(body)); raw != "" {
		const limit = 200
		if len(raw) > limit {
			raw = raw[:limit] + "…"
		}
		msg += ": " + raw
	}
	return msg
}

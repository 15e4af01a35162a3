package llmtest

import (
	"fmt"
	"net/http"
)

// wireAPI is one of the APIs the server speaks: how a request is parsed and
// checked, how a turn is streamed and how failures are written.
type wireAPI struct {
	// requestIDHeader is the response header that carries the request id.
	requestIDHeader string
	// toolIDPrefix starts the ids generated for tool calls ("toolu", "call").
	toolIDPrefix string
	// parse fills the parsed fields of a request from its body.
	parse func(*Request) error
	// check returns the rules of the API the request breaks.
	check func(Request) []string
	// events returns the SSE events streaming a resolved turn; serial numbers
	// the server's answers, for message ids.
	events func(t Turn, req Request, serial int) []event
	// malformed is the event a Malformed fault ends with: its data is not JSON.
	malformed event
	// streamError is the event a StreamError fault ends with.
	streamError func(typ, message string) event
	// errorBody is the JSON body of an error response; typ "" means the
	// API's type for the status.
	errorBody func(status int, typ, message, requestID string) []byte
}

// writeError writes an error response of the API.
func (api *wireAPI) writeError(w http.ResponseWriter, status int, typ, message, requestID string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set(api.requestIDHeader, requestID)
	w.WriteHeader(status)
	w.Write(api.errorBody(status, typ, message, requestID))
}

// messagesAPI is the Anthropic Messages API, POST /v1/messages.
var messagesAPI = &wireAPI{
	requestIDHeader: "request-id",
	toolIDPrefix:    "toolu",
	parse:           (*Request).parseBody,
	check:           checkRequest,
	events: func(t Turn, _ Request, serial int) []event {
		return turnEvents(t, fmt.Sprintf("msg_llmtest_%03d", serial))
	},
	malformed: event{"content_block_delta", []byte(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"unterminated`)},
	streamError: func(typ, message string) event {
		return event{"error", errorBody(typ, message, "")}
	},
	errorBody: func(status int, typ, message, requestID string) []byte {
		if typ == "" {
			typ = errorType(status)
		}
		return errorBody(typ, message, requestID)
	},
}

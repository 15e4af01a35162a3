package llmtest

import (
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// serveMessages answers POST /v1/messages with the next turn or fault.
func (s *Server) serveMessages(w http.ResponseWriter, r *http.Request) {
	s.serve(w, r, messagesAPI)
}

// serve answers a streaming request of api with the next turn or fault.
func (s *Server) serve(w http.ResponseWriter, r *http.Request, api *wireAPI) {
	req := s.receive(r, api)
	if len(req.Violations) > 0 {
		w.Header().Set("x-should-retry", "false")
		api.writeError(w, http.StatusBadRequest, "", strings.Join(req.Violations, "; "), req.ID)
		return
	}
	turn, fault, serial, ok := s.pick(req, api)
	if !ok {
		s.violate("%s (%d messages): llmtest: script exhausted", req.ID, len(req.Messages))
		w.Header().Set("x-should-retry", "false")
		api.writeError(w, http.StatusInternalServerError, "", "llmtest: script exhausted", req.ID)
		return
	}
	if fault != nil && fault.Status != 0 {
		writeFault(w, api, *fault, req.ID)
		return
	}
	if turn.Gate != nil {
		select {
		case <-turn.Gate:
		case <-r.Context().Done():
			return
		}
	}
	s.stream(w, r, api, api.events(turn, req, serial), turn.ChunkDelay, fault, req.ID)
}

// serveCountTokens answers POST /v1/messages/count_tokens with a count that
// grows with the size of the body.
func (s *Server) serveCountTokens(w http.ResponseWriter, r *http.Request) {
	req := s.receive(r, nil)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("request-id", req.ID)
	fmt.Fprintf(w, `{"input_tokens":%d}`, max(1, len(req.Body)/4))
}

// ListedModel is the model GET /v1/models lists until SetModels names others.
const ListedModel = "llmtest-model"

// SetModels sets the ids GET /v1/models lists, as a local OpenAI-compatible
// server (Ollama, llama.cpp, vLLM) lists the models it serves.
func (s *Server) SetModels(ids ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.models = ids
}

// serveModels answers GET /v1/models with OpenAI's model list. It is not a
// model request: it is not recorded and takes no turn.
func (s *Server) serveModels(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	ids := s.models
	s.mu.Unlock()
	if ids == nil {
		ids = []string{ListedModel}
	}
	type modelJSON struct {
		ID      string `json:"id"`
		Object  string `json:"object"`
		OwnedBy string `json:"owned_by"`
	}
	list := struct {
		Object string      `json:"object"`
		Data   []modelJSON `json:"data"`
	}{Object: "list", Data: []modelJSON{}}
	for _, id := range ids {
		list.Data = append(list.Data, modelJSON{ID: id, Object: "model", OwnedBy: "llmtest"})
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(mustJSON(list))
}

// serveNotFound answers any other path with the API's 404 error, and records it.
func (s *Server) serveNotFound(w http.ResponseWriter, r *http.Request) {
	req := s.receive(r, nil)
	s.violate("%s (%s %s): no such endpoint", req.ID, r.Method, r.URL.Path)
	messagesAPI.writeError(w, http.StatusNotFound, "", fmt.Sprintf("llmtest: no endpoint %s %s", r.Method, r.URL.Path), req.ID)
}

// writeFault writes the error response of a Status fault, with its retry headers.
func writeFault(w http.ResponseWriter, api *wireAPI, f Fault, requestID string) {
	if f.RetryAfterMs > 0 {
		w.Header().Set("retry-after-ms", strconv.Itoa(f.RetryAfterMs))
	}
	if f.RetryAfter > 0 {
		w.Header().Set("retry-after", strconv.Itoa(f.RetryAfter))
	}
	if f.ShouldRetry != "" {
		w.Header().Set("x-should-retry", f.ShouldRetry)
	}
	message := f.Message
	if message == "" {
		message = "llmtest: scripted fault: " + f.describe()
	}
	api.writeError(w, f.Status, f.Type, message, requestID)
}

// stream writes the SSE events of a turn, cut short or spoiled by a streaming fault.
func (s *Server) stream(w http.ResponseWriter, r *http.Request, api *wireAPI, events []event, delay time.Duration, fault *Fault, requestID string) {
	cut, tail := len(events), event{}
	if fault != nil {
		cut, tail = faultCut(api, *fault, events)
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	h.Set(api.requestIDHeader, requestID)
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	if rc.Flush() != nil {
		return
	}
	for i, e := range events[:cut] {
		if i > 0 && !s.pause(r, delay) {
			return
		}
		if writeEvent(w, rc, e) != nil {
			return
		}
	}
	switch {
	case fault == nil:
	case tail.data != nil:
		writeEvent(w, rc, tail)
	case fault.Hang:
		s.pause(r, -1)
	case fault.DropAfterEvents > 0:
		reset(rc)
	}
}

// faultCut returns how many events of the turn a streaming fault serves and
// the event it sends after them, if any.
func faultCut(api *wireAPI, f Fault, events []event) (int, event) {
	half := max(1, len(events)/2)
	switch {
	case f.DropAfterEvents > 0:
		return min(f.DropAfterEvents, len(events)), event{}
	case f.Malformed:
		return half, api.malformed
	case f.StreamError != "":
		message := f.Message
		if message == "" {
			message = "llmtest: scripted stream error"
		}
		return half, api.streamError(f.StreamError, message)
	}
	return 1, event{} // Hang: the first event only
}

// writeEvent writes one SSE event and flushes it.
func writeEvent(w http.ResponseWriter, rc *http.ResponseController, e event) error {
	var err error
	if e.name == "" {
		_, err = fmt.Fprintf(w, "data: %s\n\n", e.data)
	} else {
		_, err = fmt.Fprintf(w, "event: %s\ndata: %s\n\n", e.name, e.data)
	}
	if err != nil {
		return err
	}
	return rc.Flush()
}

// pause waits d (forever when d < 0) and reports whether the client and the
// server are both still there.
func (s *Server) pause(r *http.Request, d time.Duration) bool {
	if d == 0 {
		return true
	}
	var timeout <-chan time.Time
	if d > 0 {
		timer := time.NewTimer(d)
		defer timer.Stop()
		timeout = timer.C
	}
	select {
	case <-timeout:
		return true
	case <-r.Context().Done():
	case <-s.quit:
	}
	return false
}

// reset takes the connection over and closes it with a TCP reset.
func reset(rc *http.ResponseController) {
	conn, _, err := rc.Hijack()
	if err != nil {
		return
	}
	if tcp, ok := conn.(*net.TCPConn); ok {
		tcp.SetLinger(0)
	}
	conn.Close()
}

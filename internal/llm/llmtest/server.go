// Package llmtest is a scripted model server for tests: a real HTTP server on
// 127.0.0.1 that speaks three APIs with their SSE streaming, the path of the
// request choosing: the Anthropic Messages API (POST /v1/messages), OpenAI's
// chat completions (POST /v1/chat/completions: chunks of delta.content,
// index-keyed delta.tool_calls, finish_reason, a usage chunk when
// stream_options.include_usage asks for it, then data: [DONE]) and OpenAI's
// Responses API as Codex CLI uses it (POST /v1/responses: output items with
// their deltas, then response.completed). It serves scripted turns in order,
// one per request, whichever API asks. GET /v1/models lists models (see
// SetModels), as a local OpenAI-compatible server does.
//
// A turn can be preceded by faults (HTTP errors with retry headers, a connection
// cut mid-stream, a malformed event, an error event, a hang), served one per
// request before the turn itself. A Messages API turn may also hold the blocks
// of the API's server-side web search (ServerToolUse, WebSearchResult), which
// the other APIs leave out. Every request is recorded with its parsed body
// and checked against the rules of its API, among them the pairing of tool calls
// and results (a tool_use and its tool_result; a tool_call and its tool message;
// a function_call and its function_call_output);
// a request that breaks one is answered with a 400 like the API's. Such a
// request, or one that arrives when the script is exhausted, is a violation,
// and New fails the test for it when the test ends. OpenAI requests are
// recorded in the provider-neutral shape too, so a test reads the tool results
// the same way whatever the API:
//
//	srv := llmtest.New(t)
//	srv.Push(
//		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("", "Read", `{"file_path":"a.go"}`)}},
//		llmtest.Turn{Faults: []llmtest.Fault{{Status: 529}}, Blocks: []llm.ContentBlock{llmtest.Text("done")}},
//	)
//	// run the client against srv.URL, then look at srv.Requests()[1].Messages
package llmtest

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/llm"
)

// Server is a running scripted model server.
type Server struct {
	// URL is the base URL of the server, such as "http://127.0.0.1:43211".
	URL string

	ts   *httptest.Server
	quit chan struct{}
	once sync.Once

	mu           sync.Mutex
	turns        []Turn
	byHistory    bool
	next         int         // index of the next turn in queue mode
	faultsServed map[int]int // turn index -> faults already served
	requests     []Request
	violations   []string
	received     int
	served       int
	noRecord     bool
	onRequest    func(Request)
	respond      func(Request) Turn
	routes       []route
	models       []string
}

// New starts a server for a test. When the test ends it closes the server and
// fails the test for every recorded violation.
func New(t testing.TB) *Server {
	t.Helper()
	s, err := Start()
	if err != nil {
		t.Fatalf("llmtest: %v", err)
	}
	t.Cleanup(func() {
		s.Close()
		for _, v := range s.Violations() {
			t.Errorf("llmtest: protocol violation: %s", v)
		}
	})
	return s
}

// Start starts a server on a free port of 127.0.0.1, for use outside tests.
func Start() (*Server, error) { return Listen("127.0.0.1:0") }

// Listen starts a server on addr ("host:port"; port 0 picks a free one).
func Listen(addr string) (*Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("llmtest: listen on %s: %w", addr, err)
	}
	s := &Server{quit: make(chan struct{}), faultsServed: map[int]int{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/messages", s.serveMessages)
	mux.HandleFunc("POST /v1/messages/count_tokens", s.serveCountTokens)
	mux.HandleFunc("POST /v1/chat/completions", s.serveChat)
	mux.HandleFunc("POST /v1/responses", s.serveResponses)
	mux.HandleFunc("GET /v1/models", s.serveModels)
	mux.HandleFunc("/", s.serveNotFound)
	s.ts = &httptest.Server{Listener: ln, Config: &http.Server{Handler: mux}}
	s.ts.Start()
	s.URL = s.ts.URL
	return s, nil
}

// Close stops the server: hanging and streaming answers end, connections close.
func (s *Server) Close() {
	s.once.Do(func() {
		close(s.quit)
		s.ts.CloseClientConnections()
		s.ts.Close()
	})
}

// Push appends turns to the script. It panics on a turn that cannot be served
// (a block of another kind than text, thinking, redacted_thinking, tool_use,
// server_tool_use or web_search_tool_result, or a fault that sets no kind or
// several), since that is a mistake in the test.
func (s *Server) Push(turns ...Turn) {
	for i, t := range turns {
		if err := t.validate(); err != nil {
			panic(fmt.Sprintf("llmtest: Push: turn %d: %v", i, err))
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.turns = append(s.turns, turns...)
}

// ServeByHistory pushes turns and makes the choice of turn stateless: a request
// whose history holds i assistant messages gets turn i, or the last turn past
// the end, so the same script serves any number of sequential conversations.
// A turn's faults are still served once each, to the first requests that select it.
func (s *Server) ServeByHistory(turns ...Turn) {
	s.Push(turns...)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.byHistory = true
}

// Requests returns a copy of the requests received so far, in arrival order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Violations returns the protocol violations recorded so far.
func (s *Server) Violations() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.violations...)
}

// SetRecord turns the recording of requests on (the default) or off, for long
// runs where keeping every body would grow without bound. Checks still run.
func (s *Server) SetRecord(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.noRecord = !on
}

// OnRequest sets a function called with every request once it is parsed and
// checked, before it is answered; calls may be concurrent.
func (s *Server) OnRequest(fn func(Request)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.onRequest = fn
}

// receive reads, parses, checks and records a request; api, when not nil, is
// the API whose rules the request must follow.
func (s *Server) receive(r *http.Request, api *wireAPI) Request {
	req := Request{Time: time.Now(), Path: r.URL.Path, Header: r.Header.Clone()}
	body, err := io.ReadAll(r.Body)
	req.Body = body
	switch {
	case err != nil:
		req.Violations = []string{fmt.Sprintf("read body: %v", err)}
	case api != nil:
		if err := api.parse(&req); err != nil {
			req.Violations = []string{err.Error()}
		} else {
			req.Violations = api.check(req)
		}
	}
	s.mu.Lock()
	s.received++
	req.ID = fmt.Sprintf("req_llmtest_%03d", s.received)
	for _, v := range req.Violations {
		s.violations = append(s.violations, fmt.Sprintf("%s (%s %s): %s", req.ID, r.Method, req.Path, v))
	}
	if !s.noRecord {
		s.requests = append(s.requests, req)
	}
	hook := s.onRequest
	s.mu.Unlock()
	if hook != nil {
		hook(req)
	}
	return req
}

// violate records a violation that is not a property of one request's body.
func (s *Server) violate(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.violations = append(s.violations, fmt.Sprintf(format, args...))
}

// ServeFunc makes the server answer every request with the turn fn returns
// for it, in place of a script: for long runs whose answers depend on what was
// sent (a summarising request, the size of the history). The turns fn returns
// cannot hold faults. Calls may be concurrent.
func (s *Server) ServeFunc(fn func(Request) Turn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.respond = fn
}

// pick chooses the turn answering req and the fault to serve instead, if any;
// serial numbers the answers the server has given.
func (s *Server) pick(req Request, api *wireAPI) (turn Turn, fault *Fault, serial int, ok bool) {
	s.mu.Lock()
	if fn := s.respond; fn != nil {
		s.served++
		serial = s.served
		s.mu.Unlock()
		return s.answer(fn, req, api, serial)
	}
	defer s.mu.Unlock()
	if t, idx, ok := s.routed(req); ok {
		s.served++
		return t.resolved(idx, req.Model, api.toolIDPrefix), nil, s.served, true
	}
	idx := s.next
	if s.byHistory {
		idx = min(req.AssistantTurns(), len(s.turns)-1)
	}
	if idx < 0 || idx >= len(s.turns) {
		return Turn{}, nil, 0, false
	}
	t := s.turns[idx]
	if k := s.faultsServed[idx]; k < len(t.Faults) {
		s.faultsServed[idx]++
		fault = &t.Faults[k]
	} else if !s.byHistory {
		s.next++
	}
	s.served++
	return t.resolved(idx, req.Model, api.toolIDPrefix), fault, s.served, true
}

// answer returns the turn fn gives for req, or reports false with a violation
// when that turn cannot be served.
func (s *Server) answer(fn func(Request) Turn, req Request, api *wireAPI, serial int) (Turn, *Fault, int, bool) {
	t := fn(req)
	err := t.validate()
	if err == nil && len(t.Faults) > 0 {
		err = fmt.Errorf("a turn from ServeFunc cannot hold faults")
	}
	if err != nil {
		s.violate("%s: llmtest: ServeFunc: %v", req.ID, err)
		return Turn{}, nil, 0, false
	}
	return t.resolved(serial, req.Model, api.toolIDPrefix), nil, serial, true
}

// Pending returns how many pushed turns a queue-mode script has not served yet.
func (s *Server) Pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.byHistory {
		return 0
	}
	return len(s.turns) - s.next
}

// route is a script of its own for the requests that match.
type route struct {
	match func(Request) bool
	turns []Turn
}

// Route gives the requests that match a script of their own, chosen by
// history like ServeByHistory: a matching request whose history holds i
// assistant messages gets turns[i], or the last turn past the end. Routes are
// tried in the order added, before the main script, so conversations that run
// at the same time (sub-agents) each follow their own script however their
// requests interleave. Route panics on a turn that cannot be served or that
// has faults, which routes do not serve.
func (s *Server) Route(match func(Request) bool, turns ...Turn) {
	if len(turns) == 0 {
		panic("llmtest: Route: no turns")
	}
	for i, t := range turns {
		if err := t.validate(); err != nil {
			panic(fmt.Sprintf("llmtest: Route: turn %d: %v", i, err))
		}
		if len(t.Faults) > 0 {
			panic(fmt.Sprintf("llmtest: Route: turn %d has faults; routes do not serve faults", i))
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.routes = append(s.routes, route{match: match, turns: turns})
}

// FirstUserText matches the requests whose first user message has a text
// block containing substr: the prompt that started the conversation.
func FirstUserText(substr string) func(Request) bool {
	return func(r Request) bool {
		for _, m := range r.Messages {
			if m.Role != llm.RoleUser {
				continue
			}
			for _, b := range m.Content {
				if b.Type == llm.BlockText && strings.Contains(b.Text, substr) {
					return true
				}
			}
			return false
		}
		return false
	}
}

// routed returns the turn a route serves req and its position, numbered
// apart from the main script's so generated tool_use ids stay unique.
func (s *Server) routed(req Request) (Turn, int, bool) {
	for ri, r := range s.routes {
		if r.match(req) {
			idx := min(req.AssistantTurns(), len(r.turns)-1)
			return r.turns[idx], (ri+1)*1000 + idx, true
		}
	}
	return Turn{}, 0, false
}

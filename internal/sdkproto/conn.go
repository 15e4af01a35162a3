// Package sdkproto speaks the protocol the Claude Agent SDK uses with the
// CLI it starts (--input-format stream-json --output-format stream-json):
// JSON lines both ways, the program's user messages and control requests on
// stdin, the session's messages and the CLI's own control requests on
// stdout, each control request answered by a control_response with its
// request_id. Conn carries the lines; Prompter, Hooks and MCPTransport are
// the CLI's questions to the program (can_use_tool, hook_callback,
// mcp_message); Partial writes the stream_event lines of
// --include-partial-messages.
package sdkproto

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
)

// maxLine bounds one line of input: a user message may carry images.
const maxLine = 64 << 20

// Inbound is what the session handles in order, one at a time: a user
// message, or the program's initialize request (ID is its request_id).
type Inbound struct {
	User *UserMessage
	Init *Initialize
	ID   string
}

// Control answers the control requests that do not wait their turn
// (interrupt, set_permission_mode, set_model…): it returns the response
// object, or an error the program is told, and what to do once the answer
// is written (then, which may be nil).
type Control func(subtype string, request json.RawMessage) (body any, then func(), err error)

// Conn is one connection to an Agent SDK program over a pair of streams.
// Writes are whole lines, safe to call from any goroutine.
type Conn struct {
	out     io.Writer
	control Control

	// queue holds what the reader took in and Next has not handed out;
	// ended says the input ended; wake is signalled on either.
	queueMu sync.Mutex
	queue   []Inbound
	ended   bool
	wake    chan struct{}

	writeMu sync.Mutex
	nextID  atomic.Int64
	pendMu  sync.Mutex
	pending map[string]chan response
	closed  bool
}

// response is the program's answer to one of our control requests.
type response struct {
	body json.RawMessage
	err  error
}

// New returns a connection writing to out; control answers the program's
// immediate control requests.
func New(out io.Writer, control Control) *Conn {
	return &Conn{out: out, control: control, wake: make(chan struct{}, 1), pending: map[string]chan response{}}
}

// Next returns the next user message or initialize request, in the order
// they came, waiting for one; false when the input has ended (or ctx has)
// with nothing left. The reader never waits for Next, so the program's
// answers are read while a turn runs however much it queues.
func (c *Conn) Next(ctx context.Context) (Inbound, bool) {
	for {
		c.queueMu.Lock()
		if len(c.queue) > 0 {
			in := c.queue[0]
			c.queue = c.queue[1:]
			c.queueMu.Unlock()
			return in, true
		}
		ended := c.ended
		c.queueMu.Unlock()
		if ended {
			return Inbound{}, false
		}
		select {
		case <-c.wake:
		case <-ctx.Done():
			return Inbound{}, false
		}
	}
}

// enqueue adds in for Next.
func (c *Conn) enqueue(in Inbound) {
	c.queueMu.Lock()
	c.queue = append(c.queue, in)
	c.queueMu.Unlock()
	c.signal()
}

func (c *Conn) signal() {
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// Write writes p, which must be whole lines, as one write.
func (c *Conn) Write(p []byte) (int, error) {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	return c.out.Write(p)
}

// Send writes v as one JSON line.
func (c *Conn) Send(v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("encode %T: %w", v, err)
	}
	_, err := c.Write(b.Bytes())
	return err
}

// Respond answers the program's control request id with body.
func (c *Conn) Respond(id string, body any) error {
	return c.Send(controlResponse{Type: "control_response", Response: responseBody{Subtype: "success", RequestID: id, Response: body}})
}

// RespondError tells the program its control request id failed.
func (c *Conn) RespondError(id string, err error) error {
	return c.Send(controlResponse{Type: "control_response", Response: responseBody{Subtype: "error", RequestID: id, Error: err.Error()}})
}

// Request sends a control request to the program and waits for its
// answer's response object; it gives up when ctx ends or the input does.
func (c *Conn) Request(ctx context.Context, request any) (json.RawMessage, error) {
	id := "req_" + strconv.FormatInt(c.nextID.Add(1), 10)
	ch := make(chan response, 1)
	c.pendMu.Lock()
	if c.closed {
		c.pendMu.Unlock()
		return nil, errors.New("the program's input has ended")
	}
	c.pending[id] = ch
	c.pendMu.Unlock()
	defer func() {
		c.pendMu.Lock()
		delete(c.pending, id)
		c.pendMu.Unlock()
	}()
	if err := c.Send(controlRequest{Type: "control_request", RequestID: id, Request: request}); err != nil {
		return nil, err
	}
	select {
	case r := <-ch:
		return r.body, r.err
	case <-ctx.Done():
		if c.forget(id) {
			_ = c.Send(cancelRequest{Type: "control_cancel_request", RequestID: id})
		}
		return nil, ctx.Err()
	}
}

// forget removes id from the requests waiting for an answer, saying whether
// it was still there.
func (c *Conn) forget(id string) bool {
	c.pendMu.Lock()
	defer c.pendMu.Unlock()
	_, ok := c.pending[id]
	delete(c.pending, id)
	return ok
}

// ErrWithdrawn is the error of a request WithdrawAll gave up.
var ErrWithdrawn = errors.New("the question was withdrawn")

// WithdrawAll gives up every request still waiting for the program's
// answer, telling the program of each with a control_cancel_request (the
// SDK aborts the callback's signal) before it returns; a late answer is
// dropped. The waiting calls return ErrWithdrawn once release is called:
// Claude Code withdraws its open questions when the program interrupts the
// turn, answers the interrupt, and only then ends the calls they held.
func (c *Conn) WithdrawAll() (release func()) {
	c.pendMu.Lock()
	ids := make([]string, 0, len(c.pending))
	for id := range c.pending {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	chans := make([]chan response, len(ids))
	for i, id := range ids {
		chans[i] = c.pending[id]
		delete(c.pending, id)
	}
	c.pendMu.Unlock()
	for _, id := range ids {
		_ = c.Send(cancelRequest{Type: "control_cancel_request", RequestID: id})
	}
	return func() {
		for _, ch := range chans {
			ch <- response{err: ErrWithdrawn}
		}
	}
}

// Read reads the program's lines from in until it ends, answering control
// responses and immediate control requests and queueing the rest for Next,
// which reports the end once the queue is drained. A line that is not a message of
// the protocol is an error.
func (c *Conn) Read(in io.Reader) error {
	defer c.closeInput()
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), maxLine)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		if err := c.dispatch(line); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("read the program's input: %w", err)
	}
	return nil
}

// closeInput ends the queue and fails the requests still waiting.
func (c *Conn) closeInput() {
	c.queueMu.Lock()
	c.ended = true
	c.queueMu.Unlock()
	c.signal()
	c.pendMu.Lock()
	defer c.pendMu.Unlock()
	c.closed = true
	for id, ch := range c.pending {
		ch <- response{err: errors.New("the program's input ended before it answered")}
		delete(c.pending, id)
	}
}

// envelope is the part every input line shares.
type envelope struct {
	Type      string          `json:"type"`
	RequestID string          `json:"request_id"`
	Request   json.RawMessage `json:"request"`
	Response  *struct {
		Subtype   string          `json:"subtype"`
		RequestID string          `json:"request_id"`
		Response  json.RawMessage `json:"response"`
		Error     string          `json:"error"`
	} `json:"response"`
}

func (c *Conn) dispatch(line []byte) error {
	var env envelope
	if err := json.Unmarshal(line, &env); err != nil {
		return fmt.Errorf("the program sent a line that is not JSON: %w", err)
	}
	switch env.Type {
	case "user":
		var m UserMessage
		if err := json.Unmarshal(line, &m); err != nil {
			return fmt.Errorf("the program sent a user message that cannot be read: %w", err)
		}
		c.enqueue(Inbound{User: &m})
	case "control_response":
		if env.Response != nil {
			c.answered(env.Response.RequestID, env.Response.Subtype, env.Response.Response, env.Response.Error)
		}
	case "control_request":
		return c.request(env.RequestID, env.Request)
	case "control_cancel_request":
		// Claude Code aborts its handling of the named request of the
		// program's, for the long ones (a side question, an MCP call); every
		// request of the program's is answered here at once, so none is
		// ever in flight to abort.
	case "keep_alive", "update_environment_variables":
	default:
		return fmt.Errorf("the program sent a message of unknown type %q", env.Type)
	}
	return nil
}

// answered hands the program's answer to the request waiting for it.
func (c *Conn) answered(id, subtype string, body json.RawMessage, errText string) {
	c.pendMu.Lock()
	ch := c.pending[id]
	delete(c.pending, id)
	c.pendMu.Unlock()
	if ch == nil {
		return
	}
	if subtype == "error" {
		ch <- response{err: fmt.Errorf("the program answered with an error: %s", errText)}
		return
	}
	ch <- response{body: body}
}

// request handles one of the program's control requests: initialize waits
// its turn in the queue, the others are answered at once.
func (c *Conn) request(id string, raw json.RawMessage) error {
	var head struct {
		Subtype string `json:"subtype"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		return c.RespondError(id, fmt.Errorf("malformed control request: %w", err))
	}
	if head.Subtype == "initialize" {
		var init Initialize
		if err := json.Unmarshal(raw, &init); err != nil {
			return c.RespondError(id, fmt.Errorf("malformed initialize request: %w", err))
		}
		c.enqueue(Inbound{Init: &init, ID: id})
		return nil
	}
	body, then, err := c.control(head.Subtype, raw)
	if err != nil {
		return c.RespondError(id, err)
	}
	err = c.Respond(id, body)
	if then != nil {
		then()
	}
	return err
}

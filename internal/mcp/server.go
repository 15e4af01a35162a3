package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mini-claude/mini-claude/internal/credentials"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/reaper"
	"github.com/mini-claude/mini-claude/internal/tool"
)

// State is where a server is in its life.
type State string

// The states of a server, with Claude Code's names.
const (
	Pending   State = "pending"
	Connected State = "connected"
	Failed    State = "failed"
)

// stopGrace is how long a stdio server gets to exit once its stdin is closed,
// and again after SIGTERM, before it is killed.
const stopGrace = 500 * time.Millisecond

// conn is one server: its configuration, connection and current tools.
type conn struct {
	cfg    Server
	limits Limits
	stderr *tailBuffer
	// settled is closed once the server is connected or has failed; failed
	// once it has failed.
	settled, failed chan struct{}
	failOnce        sync.Once

	mu      sync.Mutex
	state   State
	problem string
	// lost says the server was connected and its connection ended.
	lost    bool
	tools   []tool.Tool
	session *mcp.ClientSession
	// proc is a stdio server's process, once started.
	proc *reaper.Process
	// cancel ends the context a connected server's connection runs under.
	cancel context.CancelFunc
	// background counts the goroutines of a connected server (watch, and
	// the refreshes after a tools/list_changed), which stop waits for;
	// stopping ends, and stopped is set, when stop begins, after which none
	// is added.
	background sync.WaitGroup
	stopping   context.Context
	stopBegins context.CancelFunc
	stopped    bool

	progressMu sync.Mutex
	progress   map[string]tool.Progress
	nextToken  atomic.Int64
	// changes counts the refreshes that tools/list_changed notifications caused.
	changes atomic.Int64
}

func newConn(cfg Server, limits Limits) *conn {
	stopping, stopBegins := context.WithCancel(context.Background())
	return &conn{cfg: cfg, limits: limits, stderr: &tailBuffer{}, settled: make(chan struct{}),
		failed: make(chan struct{}), stopping: stopping, stopBegins: stopBegins, state: Pending,
		progress: map[string]tool.Progress{}}
}

// start connects and lists the server's tools within the start-up timeout,
// then leaves the conn connected or failed. The context given to the
// connection outlives start (the SSE transport reads its event stream under
// it); the start-up timeout cancels it only while the server is connecting.
func (c *conn) start(ctx context.Context) {
	defer close(c.settled)
	if c.cfg.Problem != "" {
		c.fail(c.cfg.Problem)
		return
	}
	ctx, cancel := context.WithCancel(ctx)
	timeout := c.startupTimeout()
	var timedOut atomic.Bool
	timer := time.AfterFunc(timeout, func() {
		timedOut.Store(true)
		cancel()
	})
	session, err := c.connect(ctx)
	if err == nil {
		c.mu.Lock()
		c.session = session
		c.mu.Unlock()
		err = c.refresh(ctx)
	}
	intime := timer.Stop()
	switch {
	case err == nil && intime:
		c.mu.Lock()
		c.state, c.cancel = Connected, cancel
		c.mu.Unlock()
		c.inBackground(func() { c.watch(session) })
		return
	case timedOut.Load():
		c.fail(fmt.Sprintf("did not connect within %s (raise its \"timeout\" in milliseconds, or MCP_TIMEOUT)", timeout))
	case ctx.Err() != nil:
		c.fail("the session ended before it connected")
	case c.processExit() != "":
		c.fail(fmt.Sprintf("the server exited (%s) before it answered: %v", c.processExit(), err))
	default:
		c.fail(err.Error())
	}
	cancel()
	c.stop()
}

// inBackground runs fn on a goroutine that stop waits for, unless stop has
// begun: then the server is going and fn has nothing to do.
func (c *conn) inBackground(fn func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.stopped {
		c.background.Go(fn)
	}
}

// watch marks a connected server failed, and withdraws its tools, when its
// connection ends without the session closing it: a crashed process, a
// server that went away.
func (c *conn) watch(session *mcp.ClientSession) {
	err := session.Wait()
	c.mu.Lock()
	closed := c.session != session
	c.mu.Unlock()
	if closed {
		return
	}
	problem := "the connection ended during the session"
	switch exit := c.processExit(); {
	case exit != "":
		problem = "the server exited (" + exit + ") during the session"
	case err != nil:
		problem += ": " + err.Error()
	}
	c.setFailed(problem, true)
}

// processExit says how a stdio server's process ended ("exit status 3",
// "signal: killed"), or "" while it runs or for a server reached over HTTP.
func (c *conn) processExit() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.proc == nil {
		return ""
	}
	select {
	case <-c.proc.Done():
	default:
		return ""
	}
	status, err := c.proc.Wait()
	if err != nil {
		return err.Error()
	}
	return reaper.Describe(status)
}

func (c *conn) startupTimeout() time.Duration {
	if c.cfg.Timeout > 0 {
		return c.cfg.Timeout
	}
	return c.limits.StartupTimeout
}

func (c *conn) callTimeout() time.Duration {
	if c.cfg.Timeout > 0 {
		return c.cfg.Timeout
	}
	return c.limits.CallTimeout
}

// fail records why the server is unusable, with the end of what it wrote on stderr.
func (c *conn) fail(problem string) { c.setFailed(problem, false) }

// setFailed is fail, lost saying the server had been connected.
func (c *conn) setFailed(problem string, lost bool) {
	if tail := c.stderr.String(); tail != "" {
		problem += "; stderr: " + tail
	}
	c.mu.Lock()
	c.state, c.problem, c.tools, c.lost = Failed, problem, nil, lost
	c.mu.Unlock()
	c.failOnce.Do(func() { close(c.failed) })
}

func (c *conn) connect(ctx context.Context) (*mcp.ClientSession, error) {
	transport, err := c.transport()
	if err != nil {
		return nil, err
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "mini-claude", Version: "1.0.0"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
			c.inBackground(c.refreshAfterChange)
		},
		ProgressNotificationHandler: c.onProgress,
	})
	session, err := client.Connect(ctx, transport, nil)
	if err != nil {
		return nil, fmt.Errorf("connect: %w", err)
	}
	return session, nil
}

func (c *conn) transport() (mcp.Transport, error) {
	if c.cfg.Transport != nil {
		return c.cfg.Transport, nil
	}
	switch c.cfg.Type {
	case TransportHTTP:
		return &mcp.StreamableClientTransport{Endpoint: c.cfg.URL, HTTPClient: c.httpClient()}, nil
	case TransportSSE:
		return &mcp.SSEClientTransport{Endpoint: c.cfg.URL, HTTPClient: c.httpClient()}, nil
	}
	path, err := exec.LookPath(c.cfg.Command)
	if err != nil {
		return nil, fmt.Errorf("cannot run %q: %w", c.cfg.Command, err)
	}
	env := credentials.ChildEnv(os.Environ(), c.limits.PassEnv)
	for k, v := range c.cfg.Env {
		env = append(env, k+"="+v)
	}
	return &stdioTransport{
		spec:   reaper.Spec{Path: path, Args: append([]string{c.cfg.Command}, c.cfg.Args...), Env: env},
		stderr: c.stderr,
		started: func(p *reaper.Process) {
			c.mu.Lock()
			c.proc = p
			c.mu.Unlock()
		},
	}, nil
}

func (c *conn) httpClient() *http.Client {
	if len(c.cfg.Headers) == 0 {
		return nil
	}
	return &http.Client{Transport: headerTransport{headers: c.cfg.Headers, next: http.DefaultTransport}}
}

// headerTransport adds the configured headers (an Authorization token, say) to every request.
type headerTransport struct {
	headers map[string]string
	next    http.RoundTripper
}

func (t headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	for k, v := range t.headers {
		req.Header.Set(k, v)
	}
	return t.next.RoundTrip(req)
}

// refresh lists the server's tools and replaces the ones offered to the model.
// A tool whose schema the model API would refuse is left out and reported on stderr.
func (c *conn) refresh(ctx context.Context) error {
	c.mu.Lock()
	session := c.session
	c.mu.Unlock()
	if session == nil {
		return errors.New("not connected")
	}
	var tools []tool.Tool
	var skipped []string
	for t, err := range session.Tools(ctx, nil) {
		if err != nil {
			return fmt.Errorf("list its tools: %w", err)
		}
		built, err := newTool(c, t)
		if err != nil {
			skipped = append(skipped, err.Error())
			continue
		}
		tools = append(tools, built)
	}
	c.mu.Lock()
	c.tools = tools
	if len(skipped) > 0 {
		c.problem = "some tools were left out: " + strings.Join(skipped, "; ")
	}
	c.mu.Unlock()
	return nil
}

// refreshAfterChange answers notifications/tools/list_changed; a server that
// cannot list its tools any more keeps the ones it had. A failure of the
// whole connection meanwhile keeps its own, truer reason. Stopping the
// server ends the refresh.
func (c *conn) refreshAfterChange() {
	select {
	case <-c.settled:
	case <-c.stopping.Done():
		return
	}
	ctx, cancel := context.WithTimeout(c.stopping, c.startupTimeout())
	defer cancel()
	if err := c.refresh(ctx); err != nil {
		c.mu.Lock()
		if c.state == Connected {
			c.problem = "refreshing its tools after a change failed: " + err.Error()
		}
		c.mu.Unlock()
		return
	}
	c.changes.Add(1)
}

// call runs one tool call on the server, passing its progress notifications on.
func (c *conn) call(ctx context.Context, name string, input json.RawMessage, progress tool.Progress) ([]llm.ContentBlock, error) {
	c.mu.Lock()
	session := c.session
	c.mu.Unlock()
	if session == nil {
		return nil, fmt.Errorf("the MCP server %q is not connected; its tools cannot be used in this session", c.cfg.Name)
	}
	timeoutText := ""
	if timeout := c.callTimeout(); timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
		timeoutText = timeout.String()
	}
	params := &mcp.CallToolParams{Name: name, Arguments: input}
	token := c.cfg.Name + "-" + strconv.FormatInt(c.nextToken.Add(1), 10)
	params.SetProgressToken(token)
	c.progressMu.Lock()
	c.progress[token] = progress
	c.progressMu.Unlock()
	defer func() {
		c.progressMu.Lock()
		delete(c.progress, token)
		c.progressMu.Unlock()
	}()
	res, err := session.CallTool(ctx, params)
	if err != nil {
		return nil, callError(ctx, c.cfg.Name, err, timeoutText)
	}
	content := resultContent(res)
	if res.IsError {
		return nil, &tool.OutputError{Text: errorText(content)}
	}
	return content, nil
}

// onProgress passes a progress notification to the call it belongs to. The
// lock is held while reporting, so nothing is reported once the call is over.
func (c *conn) onProgress(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
	message := req.Params.Message
	if message == "" && req.Params.Total > 0 {
		message = fmt.Sprintf("%g/%g", req.Params.Progress, req.Params.Total)
	}
	c.progressMu.Lock()
	defer c.progressMu.Unlock()
	if progress := c.progress[fmt.Sprint(req.Params.ProgressToken)]; progress != nil {
		progress(tool.ProgressEvent{Message: message, Data: req.Params})
	}
}

// stop ends the connection; a stdio server's whole process group is killed
// if it is still there once the session is closed. It returns once the
// server's goroutines have ended.
func (c *conn) stop() {
	c.mu.Lock()
	session, proc, cancel := c.session, c.proc, c.cancel
	c.session = nil
	c.stopped = true
	c.mu.Unlock()
	c.stopBegins()
	defer c.background.Wait()
	if session != nil {
		_ = session.Close()
	}
	if cancel != nil {
		cancel()
	}
	if proc != nil {
		_ = syscall.Kill(-proc.Pid(), syscall.SIGKILL)
	}
}

// killGroup kills a stdio server's process group at once: for a server still
// starting when the session ends, which has nothing to finish.
func (c *conn) killGroup() {
	c.mu.Lock()
	proc := c.proc
	c.mu.Unlock()
	if proc != nil {
		_ = syscall.Kill(-proc.Pid(), syscall.SIGKILL)
	}
}

// status reports the server as `mcp list` and the init event show it.
func (c *conn) status() Status {
	c.mu.Lock()
	defer c.mu.Unlock()
	return Status{Name: c.cfg.Name, Source: c.cfg.Source, Type: c.cfg.Type, State: c.state, Problem: c.problem,
		Lost: c.lost, Tools: len(c.tools)}
}

// currentTools returns the tools of a connected server.
func (c *conn) currentTools() []tool.Tool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.state != Connected {
		return nil
	}
	return c.tools
}

// tailBufferSize is how much of a server's stderr is kept, to explain a failure.
const tailBufferSize = 2048

// tailBuffer keeps the last bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if len(b.buf) > tailBufferSize {
		b.buf = b.buf[len(b.buf)-tailBufferSize:]
	}
	return len(p), nil
}

// String returns the kept bytes with surrounding blank space trimmed.
func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.TrimSpace(strings.ToValidUTF8(string(b.buf), ""))
}

package mcp

import (
	"context"
	"strconv"
	"sync"
	"time"

	"github.com/mini-claude/mini-claude/internal/tool"
)

// Limits are the session-wide bounds of MCP servers, which a server's own
// "timeout" overrides: time, result size, and the credentials a server may see.
type Limits struct {
	// StartupTimeout bounds connecting and the first listing of tools.
	StartupTimeout time.Duration
	// CallTimeout bounds each tool call; zero leaves calls to the session's
	// own cancellation.
	CallTimeout time.Duration
	// MaxResultSizeChars is the result size above which a result is moved
	// to disk and the model gets a preview.
	MaxResultSizeChars int
	// PassEnv names the credentials mini-claude uses that the user's own
	// settings let stdio servers see; the others are kept from a server's
	// environment (its configured "env" is added as written).
	PassEnv []string
}

// The defaults of Limits, Claude Code's: 30 s to start, no bound on a call,
// about 25,000 tokens of output.
const (
	DefaultStartupTimeout     = 30 * time.Second
	DefaultMaxResultSizeChars = 100_000
)

// LimitsFromEnv reads the limits from Claude Code's variables: MCP_TIMEOUT and
// MCP_TOOL_TIMEOUT in milliseconds, MAX_MCP_OUTPUT_TOKENS in tokens (about
// four characters each); unset or invalid values keep the defaults.
func LimitsFromEnv(getenv func(string) string) Limits {
	l := Limits{StartupTimeout: DefaultStartupTimeout, MaxResultSizeChars: DefaultMaxResultSizeChars}
	if ms := positive(getenv("MCP_TIMEOUT")); ms > 0 {
		l.StartupTimeout = time.Duration(ms) * time.Millisecond
	}
	if ms := positive(getenv("MCP_TOOL_TIMEOUT")); ms > 0 {
		l.CallTimeout = time.Duration(ms) * time.Millisecond
	}
	if tokens := positive(getenv("MAX_MCP_OUTPUT_TOKENS")); tokens > 0 {
		l.MaxResultSizeChars = tokens * 4
	}
	return l
}

func positive(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		return 0
	}
	return n
}

// Status is one server's state, as `mcp list` and the stream-json init event show it.
type Status struct {
	Name   string
	Source string
	Type   string
	State  State
	// Problem says why a failed server failed, with the tail of its stderr,
	// or what went wrong with a connected one (tools left out).
	Problem string
	// Lost says a failed server had connected: its connection ended during
	// the session and its tools were withdrawn.
	Lost bool
	// Tools is the number of tools a connected server offers.
	Tools int
}

// Manager runs the MCP servers of a session: Start launches them all at once
// in the background, Tools returns the tools of those connected so far, and
// Close stops them.
type Manager struct {
	conns []*conn
	// ctx ends when Close begins.
	ctx    context.Context
	cancel context.CancelFunc
	// wg counts the goroutines of the manager (the servers starting, the
	// failure watchers), which Close waits for; closed, guarded by mu, says
	// Close began, after which none is added.
	wg     sync.WaitGroup
	mu     sync.Mutex
	closed bool
}

// Start begins connecting to every server in parallel and returns at once. A
// server that fails or does not connect within its timeout is reported in
// Statuses and never holds up the others.
func Start(servers []Server, limits Limits) *Manager {
	ctx, cancel := context.WithCancel(context.Background())
	m := &Manager{ctx: ctx, cancel: cancel}
	for _, cfg := range servers {
		c := newConn(cfg, limits)
		m.conns = append(m.conns, c)
		m.wg.Go(func() { c.start(ctx) })
	}
	return m
}

// Tools returns the tools of the servers connected now, server by server; it
// is cheap enough to call before every request.
func (m *Manager) Tools() []tool.Tool {
	if m == nil {
		return nil
	}
	var tools []tool.Tool
	for _, c := range m.conns {
		tools = append(tools, c.currentTools()...)
	}
	return tools
}

// Statuses returns the state of every server, in configuration order.
func (m *Manager) Statuses() []Status {
	if m == nil {
		return nil
	}
	statuses := make([]Status, len(m.conns))
	for i, c := range m.conns {
		statuses[i] = c.status()
	}
	return statuses
}

// WatchFailures calls report with the status of each server that fails, once
// per server, as it fails: while starting or during the session, before the
// call or after it. It returns at once; reports stop when ctx ends or Close
// begins, and come one at a time from goroutines of their own, which Close
// waits for: no report runs once Close has returned.
func (m *Manager) WatchFailures(ctx context.Context, report func(Status)) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return
	}
	var mu sync.Mutex
	for _, c := range m.conns {
		m.wg.Go(func() {
			select {
			case <-c.failed:
			case <-ctx.Done():
				return
			case <-m.ctx.Done():
				return
			}
			mu.Lock()
			defer mu.Unlock()
			if ctx.Err() == nil && m.ctx.Err() == nil {
				report(c.status())
			}
		})
	}
}

// Wait blocks until every server is connected or failed, d passes, or ctx is
// done, whichever comes first; it reports whether all servers settled.
func (m *Manager) Wait(ctx context.Context, d time.Duration) bool {
	if m == nil {
		return true
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	for _, c := range m.conns {
		select {
		case <-c.settled:
		case <-timer.C:
			return false
		case <-ctx.Done():
			return false
		}
	}
	return true
}

// Close stops every server: connections still starting are abandoned, stdio
// servers get their stdin closed and are killed with their process group if
// they do not exit promptly. It returns once every goroutine of the manager
// and of its servers has ended.
func (m *Manager) Close() {
	if m == nil {
		return
	}
	m.mu.Lock()
	m.closed = true
	m.mu.Unlock()
	m.cancel()
	var stops sync.WaitGroup
	for _, c := range m.conns {
		if c.status().State == Pending {
			c.killGroup()
		}
		stops.Go(func() {
			<-c.settled
			c.stop()
		})
	}
	stops.Wait()
	m.wg.Wait()
}

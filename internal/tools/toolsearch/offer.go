package toolsearch

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/mini-claude/mini-claude/internal/tool"
)

// Env names the variable that chooses when MCP tools are deferred: "1" or
// "true" always, "0" or "false" never (no tool is deferred, not even those
// marked ShouldDefer), "auto" (the default) when their schemas would take more
// than 10% of the context window, "auto:N" at N%.
const Env = "MINI_CLAUDE_TOOL_SEARCH"

// Mode says when tools are deferred.
type Mode int

// The modes; Auto is the default.
const (
	Auto Mode = iota
	Always
	Never
)

// Default sizes of Policy.
const (
	DefaultPercent       = 10
	DefaultContextTokens = 200_000
)

// Policy decides which tools are deferred. The zero value is Auto at 10% of a
// 200,000-token context window.
type Policy struct {
	Mode Mode
	// Percent is the share of the context window MCP tool schemas may take in
	// Auto mode before they are deferred; 0 means DefaultPercent.
	Percent int
	// ContextTokens is the model's context window; 0 means the window Offer
	// is given (the agent's model's), else DefaultContextTokens.
	ContextTokens int
}

// ParsePolicy reads the value of MINI_CLAUDE_TOOL_SEARCH.
func ParsePolicy(value string) (Policy, error) {
	switch v := strings.ToLower(strings.TrimSpace(value)); v {
	case "", "auto":
		return Policy{}, nil
	case "1", "true":
		return Policy{Mode: Always}, nil
	case "0", "false":
		return Policy{Mode: Never}, nil
	default:
		if n, ok := strings.CutPrefix(v, "auto:"); ok {
			percent, err := strconv.Atoi(n)
			if err == nil && percent >= 0 && percent <= 100 {
				return Policy{Percent: max(percent, 1)}, nil
			}
		}
	}
	return Policy{}, fmt.Errorf(`%s=%q: use 1 (always defer MCP tools), 0 (never), auto (when their schemas exceed 10%% of the context window) or auto:N (at N%%)`, Env, value)
}

// IsMCP reports whether t came from an MCP server. MCP tools are recognised by
// their mcp__<server>__<tool> name, which no other tool may take.
func IsMCP(t tool.Tool) bool {
	return strings.HasPrefix(t.Name(), "mcp__")
}

// Offer splits the pool for one request to a model whose context window
// holds contextTokens (which p.ContextTokens, when set, overrides; 0 for the
// default). It returns the tools to send, in an order that keeps the
// prompt-cache prefix: the tools that are not deferred in pool order, then the
// deferred tools ToolSearch has loaded, in load order; and the names of the
// deferred tools, for the system prompt, with a line for each MCP server
// still connecting (tool.ConnectingOf), whose tools ToolSearch waits for. It
// records the split in the session, where ToolSearch finds it. Nothing is
// deferred when the pool has no ToolSearch, and ToolSearch is sent only when
// something is deferred or a server is still connecting.
func (p Policy) Offer(pool []tool.Tool, s *tool.Session, contextTokens int) (send []tool.Tool, deferred []string) {
	if p.ContextTokens == 0 {
		p.ContextTokens = contextTokens
	}
	st := stateOf(s)
	if p.Mode == Never || !slices.ContainsFunc(pool, isToolSearch) {
		st.record(pool, nil)
		return slices.DeleteFunc(slices.Clone(pool), isToolSearch), nil
	}
	deferMCP := p.Mode == Always || mcpTokens(pool) > p.threshold()
	var kept, later []tool.Tool
	for _, t := range pool {
		if !isToolSearch(t) && !t.AlwaysLoad() && (t.ShouldDefer() || deferMCP && IsMCP(t)) {
			later = append(later, t)
			deferred = append(deferred, t.Name())
			continue
		}
		kept = append(kept, t)
	}
	st.record(pool, later)
	connecting := pendingServers(s)
	if len(later) == 0 && len(connecting) == 0 {
		return slices.DeleteFunc(kept, isToolSearch), nil
	}
	for _, name := range st.loadedNames() {
		if i := slices.IndexFunc(later, func(t tool.Tool) bool { return t.Name() == name }); i >= 0 {
			kept = append(kept, later[i])
		}
	}
	for _, server := range connecting {
		deferred = append(deferred, connectingEntry(server))
	}
	return kept, deferred
}

// connectingEntry is the line of the deferred tools that stands for the
// tools of a server still connecting, whose names are not known yet.
func connectingEntry(server string) string {
	return fmt.Sprintf("mcp__%s__* (the tools of MCP server %q, still connecting: ToolSearch waits for it)", server, server)
}

// pendingServers returns the MCP servers of the session still connecting.
func pendingServers(s *tool.Session) []string {
	if c := tool.ConnectingOf(s); c != nil {
		return c.Pending()
	}
	return nil
}

func isToolSearch(t tool.Tool) bool { return t.Name() == Name }

// threshold is the number of tokens MCP tool schemas may take before Auto defers them.
func (p Policy) threshold() int {
	percent, window := p.Percent, p.ContextTokens
	if percent == 0 {
		percent = DefaultPercent
	}
	if window == 0 {
		window = DefaultContextTokens
	}
	return window * percent / 100
}

// mcpTokens estimates the prompt tokens of the MCP tools' definitions: the
// JSON sent for them, at four bytes a token.
func mcpTokens(pool []tool.Tool) int {
	size := 0
	for _, t := range pool {
		if !IsMCP(t) {
			continue
		}
		b, err := json.Marshal(t.Spec())
		if err != nil {
			continue
		}
		size += len(b)
	}
	return size / 4
}

type stateKey struct{}

// state is the session's view of deferral: the pool and deferred tools of the
// latest request, and the deferred tools loaded so far, in load order.
type state struct {
	mu       sync.Mutex
	pool     []tool.Tool
	deferred []tool.Tool
	loaded   []string
}

func stateOf(s *tool.Session) *state {
	return tool.Value(s, stateKey{}, func() *state { return &state{} })
}

func (st *state) record(pool, deferred []tool.Tool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.pool, st.deferred = pool, deferred
}

func (st *state) snapshot() (pool, deferred []tool.Tool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.pool, st.deferred
}

func (st *state) loadedNames() []string {
	st.mu.Lock()
	defer st.mu.Unlock()
	return slices.Clone(st.loaded)
}

// load adds the deferred tools among ts to the loaded set, in order.
func (st *state) load(ts []tool.Tool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, t := range ts {
		deferred := slices.ContainsFunc(st.deferred, func(d tool.Tool) bool { return d.Name() == t.Name() })
		if deferred && !slices.Contains(st.loaded, t.Name()) {
			st.loaded = append(st.loaded, t.Name())
		}
	}
}

// Loaded returns the names of the deferred tools ToolSearch has loaded in the
// session, in load order.
func Loaded(s *tool.Session) []string {
	return stateOf(s).loadedNames()
}

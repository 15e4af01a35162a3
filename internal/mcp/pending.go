package mcp

import (
	"context"
	"fmt"
	"strings"
)

// Pending returns the names of the servers still connecting, in
// configuration order.
func (m *Manager) Pending() []string {
	if m == nil {
		return nil
	}
	var names []string
	for _, c := range m.conns {
		if c.status().State == Pending {
			names = append(names, c.cfg.Name)
		}
	}
	return names
}

// ServerOf returns the server whose tools are named like toolName
// (mcp__<server>__<tool>, the server's name normalised), whatever its state;
// the longest name wins when one server's name starts another's.
func (m *Manager) ServerOf(toolName string) (string, bool) {
	if m == nil {
		return "", false
	}
	best := ""
	for _, c := range m.conns {
		prefix := "mcp__" + NormalizeName(c.cfg.Name) + "__"
		if strings.HasPrefix(toolName, prefix) && len(c.cfg.Name) > len(best) {
			best = c.cfg.Name
		}
	}
	return best, best != ""
}

// Await waits until the server named server has connected or failed, which
// its start-up timeout bounds, or until ctx ends or the manager closes. It
// returns nil when the server is connected and otherwise an error giving its
// status: why it failed, or that it is still connecting.
func (m *Manager) Await(ctx context.Context, server string) error {
	var c *conn
	if m != nil {
		for _, candidate := range m.conns {
			if candidate.cfg.Name == server {
				c = candidate
			}
		}
	}
	if c == nil {
		return fmt.Errorf("no MCP server %q is configured in this session", server)
	}
	select {
	case <-c.settled:
	case <-ctx.Done():
		return fmt.Errorf("the MCP server %q is still connecting (waited until the call was cancelled: %w)", server, ctx.Err())
	case <-m.ctx.Done():
		return fmt.Errorf("the MCP server %q is still connecting and the session is ending", server)
	}
	st := c.status()
	if st.State == Connected {
		return nil
	}
	return &StatusError{Status: st}
}

// StatusError is the error of a wait for a server that failed: its status,
// whose Problem says why.
type StatusError struct {
	Status Status
}

func (e *StatusError) Error() string {
	if e.Status.Lost {
		return fmt.Sprintf("the MCP server %q %s: %s; its tools are no longer available", e.Status.Name, e.Status.State, e.Status.Problem)
	}
	return fmt.Sprintf("the MCP server %q %s to start: %s; its tools are not available in this session", e.Status.Name, e.Status.State, e.Status.Problem)
}

package tool

import (
	"context"
	"sync"
)

// Connecting is what a session knows of the tool servers (MCP servers) that
// were still starting when the session began: which are still connecting,
// and a wait for one of them. ToolSearch names them and waits for the ones a
// search asks for; the loop waits for the server of a tool it does not know
// yet before it answers that no such tool exists.
type Connecting interface {
	// Pending returns the names of the servers still connecting, in
	// configuration order.
	Pending() []string
	// ServerOf returns the server a tool name (mcp__<server>__<tool>) belongs
	// to, connected, connecting or failed; false when it names none.
	ServerOf(toolName string) (server string, ok bool)
	// Await waits until server has connected or failed, or ctx ends; the
	// server's own start-up timeout bounds the wait. It returns nil once the
	// server is connected, and otherwise an error that gives its status.
	Await(ctx context.Context, server string) error
	// Pool returns the session's tools as they are now, the tools of the
	// servers connected since the last request included.
	Pool() []Tool
}

type connectingKey struct{}

// connectingSlot holds a session's Connecting; a sub-agent's session shares
// its parent's, as it shares the servers.
type connectingSlot struct {
	mu sync.Mutex
	c  Connecting
}

func (s *connectingSlot) Inherit() any { return s }

// AttachConnecting gives a session the servers still connecting.
func AttachConnecting(s *Session, c Connecting) {
	slot := Value(s, connectingKey{}, func() *connectingSlot { return &connectingSlot{} })
	slot.mu.Lock()
	defer slot.mu.Unlock()
	slot.c = c
}

// ConnectingOf returns what AttachConnecting gave the session, or nil.
func ConnectingOf(s *Session) Connecting {
	if s == nil {
		return nil
	}
	slot := Value(s, connectingKey{}, func() *connectingSlot { return &connectingSlot{} })
	slot.mu.Lock()
	defer slot.mu.Unlock()
	return slot.c
}

package cli

import (
	"context"
	"slices"

	"github.com/mini-claude/mini-claude/internal/mcp"
	"github.com/mini-claude/mini-claude/internal/tool"
)

// connectingServers are the session's MCP servers as its tools see those
// still starting (tool.Connecting): ToolSearch lists and waits for them, the
// loop waits for the server of a tool it does not know yet. A server whose
// tools a deny rule removes whole is never listed.
type connectingServers struct {
	s       *session
	servers *mcp.Manager
}

func (c connectingServers) Pending() []string {
	return slices.DeleteFunc(c.servers.Pending(), func(name string) bool {
		return c.s.perm.DeniesTool("mcp__" + mcp.NormalizeName(name))
	})
}

func (c connectingServers) ServerOf(toolName string) (string, bool) {
	return c.servers.ServerOf(toolName)
}

func (c connectingServers) Await(ctx context.Context, server string) error {
	return c.servers.Await(ctx, server)
}

func (c connectingServers) Pool() []tool.Tool { return c.s.poolWith(c.servers) }

package acp

import (
	"errors"
	"fmt"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/mini-claude/mini-claude/internal/mcp"
)

// mcpServers converts the servers the editor gives a session. They are the
// editor's user's own configuration, so no folder trust is asked of them.
func mcpServers(servers []sdk.McpServer) ([]mcp.Server, error) {
	out := make([]mcp.Server, 0, len(servers))
	for _, s := range servers {
		switch {
		case s.Stdio != nil:
			env := map[string]string{}
			for _, v := range s.Stdio.Env {
				env[v.Name] = v.Value
			}
			out = append(out, mcp.Server{Name: s.Stdio.Name, Type: mcp.TransportStdio, Command: s.Stdio.Command,
				Args: s.Stdio.Args, Env: env, Source: mcp.SourceDynamic})
		case s.Http != nil:
			out = append(out, mcp.Server{Name: s.Http.Name, Type: mcp.TransportHTTP, URL: s.Http.Url,
				Headers: headers(s.Http.Headers), Source: mcp.SourceDynamic})
		case s.Sse != nil:
			out = append(out, mcp.Server{Name: s.Sse.Name, Type: mcp.TransportSSE, URL: s.Sse.Url,
				Headers: headers(s.Sse.Headers), Source: mcp.SourceDynamic})
		default:
			return nil, errors.New("an MCP server of a transport mini-claude does not speak (stdio, http and sse are offered)")
		}
	}
	for i, s := range out {
		if s.Name == "" {
			return nil, fmt.Errorf("MCP server %d has no name", i+1)
		}
	}
	return out, nil
}

func headers(hs []sdk.HttpHeader) map[string]string {
	out := map[string]string{}
	for _, h := range hs {
		out[h.Name] = h.Value
	}
	return out
}

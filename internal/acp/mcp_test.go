package acp

import (
	"reflect"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/mini-claude/mini-claude/internal/mcp"
)

func TestMCPServersConvertsTheEditorsServers(t *testing.T) {
	tests := []struct {
		name    string
		in      []sdk.McpServer
		want    []mcp.Server
		wantErr bool
	}{
		{"stdio", []sdk.McpServer{{Stdio: &sdk.McpServerStdio{Name: "fs", Command: "node", Args: []string{"s.js"}, Env: []sdk.EnvVariable{{Name: "K", Value: "v"}}}}},
			[]mcp.Server{{Name: "fs", Type: mcp.TransportStdio, Command: "node", Args: []string{"s.js"}, Env: map[string]string{"K": "v"}, Source: mcp.SourceDynamic}}, false},
		{"http", []sdk.McpServer{{Http: &sdk.McpServerHttpInline{Name: "web", Type: "http", Url: "http://127.0.0.1:1/mcp", Headers: []sdk.HttpHeader{{Name: "A", Value: "b"}}}}},
			[]mcp.Server{{Name: "web", Type: mcp.TransportHTTP, URL: "http://127.0.0.1:1/mcp", Headers: map[string]string{"A": "b"}, Source: mcp.SourceDynamic}}, false},
		{"none", nil, []mcp.Server{}, false},
		{"a server without a name", []sdk.McpServer{{Stdio: &sdk.McpServerStdio{Command: "x"}}}, nil, true},
		{"a transport not spoken", []sdk.McpServer{{Acp: &sdk.McpServerAcpInline{}}}, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := mcpServers(tt.in)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			if !tt.wantErr && !reflect.DeepEqual(got, tt.want) {
				t.Errorf("mcpServers = %+v, want %+v", got, tt.want)
			}
		})
	}
}

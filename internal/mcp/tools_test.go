package mcp

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mini-claude/mini-claude/internal/goldenfile"
)

func TestToolName(t *testing.T) {
	long := strings.Repeat("x", 70)
	tests := []struct{ server, tool, want string }{
		{"github", "create_issue", "mcp__github__create_issue"},
		{"my server", "get-sum", "mcp__my_server__get-sum"},
		{"fs.local", "read/file:v2", "mcp__fs_local__read_file_v2"},
	}
	for _, tt := range tests {
		if got := ToolName(tt.server, tt.tool); got != tt.want {
			t.Errorf("ToolName(%q, %q) = %q, want %q", tt.server, tt.tool, got, tt.want)
		}
	}
	a, b := ToolName("srv", long+"a"), ToolName("srv", long+"b")
	if len(a) != 64 || len(b) != 64 || a == b || !strings.HasPrefix(a, "mcp__srv__xxx") {
		t.Errorf("long names %q and %q: want 64 characters each, different", a, b)
	}
}

func TestResultContentGolden(t *testing.T) {
	res := &mcp.CallToolResult{Content: []mcp.Content{
		&mcp.TextContent{Text: "plain text"},
		&mcp.ImageContent{MIMEType: "image/png", Data: []byte("\x89PNG\r\n")},
		&mcp.ImageContent{MIMEType: "image/svg+xml", Data: []byte("<svg/>")},
		&mcp.AudioContent{MIMEType: "audio/wav", Data: []byte("RIFF")},
		&mcp.ResourceLink{URI: "file:///a.txt", Name: "a.txt", Description: "a file"},
		&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "test://r/1", MIMEType: "text/plain", Text: "resource text"}},
		&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "test://r/2", MIMEType: "application/gzip", Blob: []byte{1, 2, 3}}},
	}}
	got, err := json.MarshalIndent(resultContent(res), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "result_content.json", got)
	structured := resultContent(&mcp.CallToolResult{StructuredContent: map[string]any{"sum": 42}})
	if len(structured) != 1 || structured[0].Text != `{"sum":42}` {
		t.Errorf("structured-only result = %+v, want its JSON as text", structured)
	}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	goldenfile.Check(t, path, string(got))
}

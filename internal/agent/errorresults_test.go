package agent_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
	"github.com/mini-claude/mini-claude/internal/mcp"
	"github.com/mini-claude/mini-claude/internal/permission"
	"github.com/mini-claude/mini-claude/internal/resultstore"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools/testtools"
)

// errorLimit is the result limit of the tools that fail in these tests.
const errorLimit = 1000

// failingMCPTools serves one MCP tool, "shout", that answers every call with
// an isError result holding text, over streamable HTTP from this process, and
// returns the tools of a manager connected to it.
func failingMCPTools(t *testing.T, text string) []tool.Tool {
	t.Helper()
	server := sdk.NewServer(&sdk.Implementation{Name: "loud", Version: "1.0.0"}, nil)
	shout := &sdk.Tool{Name: "shout", Description: "fails loudly", InputSchema: map[string]any{"type": "object"}}
	server.AddTool(shout, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: text}}}, nil
	})
	srv := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return server }, nil))
	t.Cleanup(srv.Close)
	m := mcp.Start([]mcp.Server{{Name: "loud", Type: mcp.TransportHTTP, URL: srv.URL}},
		mcp.Limits{StartupTimeout: 10 * time.Second, MaxResultSizeChars: errorLimit})
	t.Cleanup(m.Close)
	if !m.Wait(context.Background(), 15*time.Second) || len(m.Tools()) != 1 {
		t.Fatalf("the in-process MCP server did not connect: %+v", m.Statuses())
	}
	return m.Tools()
}

func TestErrorResultsAreBoundedLikeSuccessfulOnes(t *testing.T) {
	home := t.TempDir()
	t.Setenv("MINI_CLAUDE_HOME", home)
	long := strings.Repeat("stderr line of a failing tool\n", 2_000)
	huge := strings.Repeat("text of a server's isError result\n", 30_000)
	tests := []struct {
		name, tool, input string
		tools             func(t *testing.T) []tool.Tool
		stored            string
		wrapped           bool
	}{
		{"a command's output error over the limit is stored", "Print", `{"chars":0,"fail":` + quote(long) + `}`,
			func(*testing.T) []tool.Tool { return []tool.Tool{printer(errorLimit)} }, long, false},
		{"a tool's plain error over the limit is stored", "Fail", `{"message":` + quote(long) + `}`,
			func(*testing.T) []tool.Tool { return testtools.All() }, long, true},
		{"an MCP server's isError text over the limit is stored", "mcp__loud__shout", `{}`,
			func(t *testing.T) []tool.Tool { return failingMCPTools(t, huge) }, huge, false},
		{"an output error within the limit is sent whole", "Print", `{"chars":0,"fail":"Exit code 1\nno such file"}`,
			func(*testing.T) []tool.Tool { return []tool.Tool{printer(errorLimit)} }, "", false},
		{"a plain error within the limit is sent whole", "Fail", `{"message":"short failure"}`,
			func(*testing.T) []tool.Tool { return testtools.All() }, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			h.srv.Push(
				llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("toolu_e", tt.tool, tt.input)}},
				llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("ok")}},
			)
			pool := tt.tools(t)
			h.agent(t, func(o *agent.Options) {
				o.Tools = pool
				o.Env.SessionID = "s1"
				o.Permissions = &permission.Context{Mode: permission.ModeDefault, Allow: []permission.Rule{{Tool: "mcp__loud"}}}
			}).Run(context.Background(), "fail")
			result := h.results(t, 1)[0]
			got := resultText(result)
			if !result.IsError || strings.HasPrefix(got, "<tool_use_error>") != tt.wrapped {
				t.Fatalf("result (error %v) %.200q, want an error result, wrapped in <tool_use_error>: %v", result.IsError, got, tt.wrapped)
			}
			path := resultstore.Path(&tool.Env{Cwd: h.cwd, SessionID: "s1"}, "toolu_e")
			if tt.stored == "" {
				if strings.Contains(got, "<persisted-output>") {
					t.Errorf("a short error was stored: %q", got)
				}
				return
			}
			assertStoredError(t, got, path, tt.stored)
		})
	}
}

// assertStoredError checks that the model got a preview and the path of the
// stored error in place of the error, and that the file holds all of it.
func assertStoredError(t *testing.T, got, path, want string) {
	t.Helper()
	if len(got) > 3*resultstore.PreviewBytes || !strings.Contains(got, "<persisted-output>") ||
		!strings.Contains(got, "Full output saved to: "+path) || !strings.Contains(got, want[:100]) {
		t.Errorf("the model got %d chars: %.300q…, want the preview and the path %s", len(got), got, path)
	}
	data, err := os.ReadFile(path)
	if err != nil || string(data) != want {
		t.Errorf("stored file %s: %v, %d bytes, want the whole %d-byte error", path, err, len(data), len(want))
	}
}

// quote renders s as a JSON string.
func quote(s string) string {
	data, _ := json.Marshal(s)
	return string(data)
}

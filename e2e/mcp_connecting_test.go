package e2e

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
	"github.com/mini-claude/mini-claude/internal/mcp/mcptest"
)

// TestConnectingMCPServerIsReachableFromTheFirstRequest: with a server that
// takes 1.5 s to start and one that never answers (a 3 s start-up timeout
// of its own), the first request of -p leaves after the grace, not after
// the servers, and offers ToolSearch with both servers listed as still
// connecting. The model's ToolSearch for the slow server's echo waits for
// it and loads the tool, and the call succeeds; a call of the silent
// server's tool waits for it up to its timeout and fails with its status.
// With MINI_CLAUDE_TOOL_SEARCH=1 the same holds, the tools deferred.
func TestConnectingMCPServerIsReachableFromTheFirstRequest(t *testing.T) {
	s := mcptest.Find(t)
	for _, mode := range []string{"auto", "1"} {
		t.Run("MINI_CLAUDE_TOOL_SEARCH="+mode, func(t *testing.T) {
			r := newRun(t)
			r.setenv("MINI_CLAUDE_TOOL_SEARCH=" + mode)
			config := mcpConfig(t, map[string]any{
				"slow": map[string]any{"command": "sh", "args": []string{"-c", `sleep 1.5; exec "$0" "$1" stdio`, s.Node, s.Everything}},
				"hang": map[string]any{"command": "sleep", "args": []string{"600"}, "timeout": 3000},
			})
			r.srv.Push(
				calls(llmtest.ToolUse("q1", "ToolSearch", `{"query":"select:mcp__slow__echo"}`)),
				calls(llmtest.ToolUse("e1", "mcp__slow__echo", `{"message":"from the first turn"}`)),
				calls(llmtest.ToolUse("h1", "mcp__hang__echo", `{"message":"never"}`)),
				text("Done."),
			)
			start := time.Now()
			out := r.exec("-p", "use the slow server's echo", "--output-format", "stream-json", "--verbose",
				"--tools", "Sleep,ToolSearch", "--mcp-config", config, "--allowedTools", "mcp__slow,mcp__hang")
			if out.code != 0 {
				t.Fatalf("exit %d: %s", out.code, out.stderr)
			}
			reqs := r.srv.Requests()
			if len(reqs) != 4 {
				t.Fatalf("%d requests, want 4", len(reqs))
			}
			if took := reqs[0].Time.Sub(start); took > time.Second {
				t.Errorf("the first request came %s after the start; the servers must not delay it past the grace", took)
			}
			if names := toolNames(reqs[0].Tools); !slices.Contains(names, "ToolSearch") || slices.ContainsFunc(names, func(n string) bool { return strings.HasPrefix(n, "mcp__") }) {
				t.Errorf("first request tools = %v, want ToolSearch and no MCP tool yet", names)
			}
			for _, server := range []string{"slow", "hang"} {
				if want := `mcp__` + server + `__* (the tools of MCP server "` + server + `", still connecting`; !strings.Contains(reqs[0].System, want) {
					t.Errorf("the first system prompt does not list %s as connecting:\n%s", server, reqs[0].System)
				}
			}
			found := lastResults(t, r.srv, 1)[0]
			if text := contentText(found); found.IsError || !strings.Contains(text, `"name":"mcp__slow__echo"`) ||
				!strings.Contains(text, "MCP servers still connecting: hang.") {
				t.Errorf("ToolSearch result (error %v):\n%s\nwant the echo's definition and hang still connecting", found.IsError, text)
			}
			if names := toolNames(reqs[1].Tools); !slices.Contains(names, "mcp__slow__echo") {
				t.Errorf("second request tools = %v, want the echo ToolSearch loaded", names)
			}
			if got := lastResults(t, r.srv, 2)[0]; got.IsError || contentText(got) != "Echo: from the first turn" {
				t.Errorf("echo of the slow server: %q (error %v)", contentText(got), got.IsError)
			}
			failed := lastResults(t, r.srv, 3)[0]
			if text := contentText(failed); !failed.IsError || !strings.Contains(text, `the MCP server "hang" failed to start: did not connect within 3s`) {
				t.Errorf("call of the silent server's tool: %q (error %v), want its status", text, failed.IsError)
			}
			if waited := reqs[3].Time.Sub(reqs[2].Time); waited > 6*time.Second {
				t.Errorf("the call of the silent server's tool took %s, longer than its 3 s start-up timeout allows", waited)
			}
		})
	}
}

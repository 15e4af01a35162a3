package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
	"github.com/mini-claude/mini-claude/internal/mcp/mcptest"
)

// mcpConfig is a {"mcpServers": ...} document.
func mcpConfig(t *testing.T, servers map[string]any) string {
	t.Helper()
	b, err := json.Marshal(map[string]any{"mcpServers": servers})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func toolNames(specs []llm.ToolSpec) []string {
	var names []string
	for _, s := range specs {
		names = append(names, s.Name)
	}
	return names
}

func TestMCPToolsThroughTheBinary(t *testing.T) {
	s := mcptest.Find(t)
	r := newRun(t)
	r.setenv("MINI_CLAUDE_MCP_WAIT_MS=30000")
	config := mcpConfig(t, map[string]any{
		"everything": map[string]any{"command": s.Node, "args": []string{s.Everything, "${TRANSPORT:-stdio}"}},
		"broken":     map[string]any{"command": s.Node, "args": []string{"-e", `console.error("no database"); process.exit(2)`}},
	})
	if err := os.WriteFile(filepath.Join(r.dir, ".mcp.json"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	r.trust(true)
	r.srv.Push(
		calls(
			llmtest.ToolUse("e1", "mcp__everything__echo", `{"message":"through the binary"}`),
			llmtest.ToolUse("e2", "mcp__everything__get-tiny-image", `{}`),
			llmtest.ToolUse("e3", "mcp__everything__get-resource-reference", `{"resourceId":0}`),
			llmtest.ToolUse("e4", "mcp__everything__get-env", `{}`),
		),
		text("Done."),
	)
	out := r.exec("-p", "use the MCP tools", "--output-format", "stream-json", "--verbose",
		"--tools", testTools, "--allowedTools", "mcp__everything__echo,mcp__everything__get-tiny-image,mcp__everything__get-resource-reference")
	if out.code != 0 {
		t.Fatalf("exit %d: %s", out.code, out.stderr)
	}
	if !strings.Contains(out.stderr, `MCP server "broken" failed`) || !strings.Contains(out.stderr, "no database") {
		t.Errorf("stderr does not report the broken server with its stderr: %s", out.stderr)
	}
	events := lines(t, out.stdout)
	init := events[0]
	servers, _ := init["mcp_servers"].([]any)
	want := []any{
		map[string]any{"name": "broken", "status": "failed", "source": "project"},
		map[string]any{"name": "everything", "status": "connected", "source": "project"},
	}
	if !jsonEqual(servers, want) {
		t.Errorf("init mcp_servers = %v, want %v", servers, want)
	}
	initTools, _ := json.Marshal(init["tools"])
	if !strings.Contains(string(initTools), `"Sleep","Touch","mcp__everything__echo"`) {
		t.Errorf("init tools = %s, want the built-ins then the MCP tools", initTools)
	}
	toolUseResults := map[string]any{}
	for _, ev := range events {
		if msg, ok := ev["message"].(map[string]any); ok && ev["type"] == "user" {
			block := msg["content"].([]any)[0].(map[string]any)
			toolUseResults[block["tool_use_id"].(string)] = ev["tool_use_result"]
		}
	}
	// Claude Code's shapes: the content blocks, or "Error: " and the text.
	if got := toolUseResults["e1"]; !jsonEqual(got, []any{map[string]any{"type": "text", "text": "Echo: through the binary"}}) {
		t.Errorf("tool_use_result of echo = %v", got)
	}
	if got, _ := toolUseResults["e3"].(string); !strings.HasPrefix(got, "Error: Invalid resourceId: 0") {
		t.Errorf("tool_use_result of the isError call = %q", got)
	}
	first := r.srv.Requests()[0]
	names := toolNames(first.Tools)
	if !slices.Contains(names, "mcp__everything__get-sum") || !slices.IsSorted(names[4:]) {
		t.Errorf("first request tools = %v, want the MCP tools sorted after the built-ins", names)
	}
	results := map[string]llm.ContentBlock{}
	for _, b := range lastResults(t, r.srv, 1) {
		results[b.ToolUseID] = b
	}
	if got := results["e1"]; got.IsError || contentText(got) != "Echo: through the binary" {
		t.Errorf("echo: %q (error %v)", contentText(got), got.IsError)
	}
	if got := results["e2"]; got.IsError || !slices.ContainsFunc(got.Content, func(b llm.ContentBlock) bool {
		return b.Type == llm.BlockImage && b.Source.MediaType == "image/png"
	}) {
		t.Errorf("image: %+v", got)
	}
	if got := results["e3"]; !got.IsError || !strings.Contains(contentText(got), "Must be a finite positive integer") {
		t.Errorf("isError result: %q (error %v)", contentText(got), got.IsError)
	}
	if got := results["e4"]; !got.IsError || !strings.Contains(contentText(got), "permission") {
		t.Errorf("a tool not allowed, headless: %q (error %v), want refused", contentText(got), got.IsError)
	}
}

func TestMCPDenyRuleHidesAServersTools(t *testing.T) {
	s := mcptest.Find(t)
	r := newRun(t)
	r.setenv("MINI_CLAUDE_MCP_WAIT_MS=30000")
	config := mcpConfig(t, map[string]any{
		"everything": map[string]any{"command": s.Node, "args": []string{s.Everything, "stdio"}},
		"fs":         map[string]any{"type": "stdio", "command": s.Node, "args": []string{s.Filesystem, r.dir}},
	})
	if err := os.WriteFile(filepath.Join(r.dir, "notes.txt"), []byte("from the file"), 0o644); err != nil {
		t.Fatal(err)
	}
	big := strings.Repeat("a line of a large file\n", 15000)
	if err := os.WriteFile(filepath.Join(r.dir, "big.txt"), []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	r.srv.Push(calls(
		llmtest.ToolUse("f1", "mcp__fs__read_text_file", `{"path":"notes.txt"}`),
		llmtest.ToolUse("f2", "mcp__fs__read_text_file", `{"path":"big.txt"}`),
	), text("Done."))
	out := r.exec("-p", "read notes", "--tools", testTools, "--mcp-config", config,
		"--disallowedTools", "mcp__everything", "--allowedTools", "mcp__fs")
	if out.code != 0 {
		t.Fatalf("exit %d: %s", out.code, out.stderr)
	}
	names := toolNames(r.srv.Requests()[0].Tools)
	if slices.ContainsFunc(names, func(n string) bool { return strings.HasPrefix(n, "mcp__everything__") }) ||
		!slices.Contains(names, "mcp__fs__read_text_file") {
		t.Errorf("tools = %v, want the fs tools and none of the denied server's", names)
	}
	results := lastResults(t, r.srv, 1)
	if got := results[0]; got.IsError || contentText(got) != "from the file" {
		t.Errorf("read_text_file: %q (error %v)", contentText(got), got.IsError)
	}
	// 345,000 characters, over the MCP limit of 100,000: stored, and the model gets a preview.
	if got := contentText(results[1]); results[1].IsError || !strings.HasPrefix(got, "<persisted-output>") || len(got) > 10000 {
		t.Errorf("large result: %d characters starting %q, want a <persisted-output> preview", len(got), got[:min(len(got), 80)])
	}
}

func TestSlowMCPServerDoesNotDelayTheFirstRequest(t *testing.T) {
	s := mcptest.Find(t)
	r := newRun(t)
	slow := map[string]any{"command": "sh", "args": []string{"-c", `sleep 3; exec "$0" "$1" stdio`, s.Node, s.Everything}}
	config := mcpConfig(t, map[string]any{"slow": slow, "hang": map[string]any{"command": "sleep", "args": []string{"600"}}})
	// The first turn sleeps long enough for the slow server to connect; its
	// tools join the second request, and the model calls one.
	r.srv.Push(
		calls(llmtest.ToolUse("s1", "Sleep", `{"label":"wait","ms":6000}`)),
		calls(llmtest.ToolUse("s2", "mcp__slow__echo", `{"message":"late but here"}`)),
		text("Done."),
	)
	start := time.Now()
	out := r.exec("-p", "wait for the server", "--output-format", "stream-json", "--verbose", "--tools", testTools,
		"--mcp-config", config, "--allowedTools", "mcp__slow")
	if out.code != 0 {
		t.Fatalf("exit %d: %s", out.code, out.stderr)
	}
	reqs := r.srv.Requests()
	if took := reqs[0].Time.Sub(start); took > 2*time.Second {
		t.Errorf("the first request came %s after the start; a 3 s server must not delay it", took)
	}
	if names := toolNames(reqs[0].Tools); slices.ContainsFunc(names, func(n string) bool { return strings.HasPrefix(n, "mcp__") }) {
		t.Errorf("first request tools = %v, want no MCP tools yet", names)
	}
	init := lines(t, out.stdout)[0]
	if !jsonEqual(init["mcp_servers"], []any{
		map[string]any{"name": "hang", "status": "pending", "source": "dynamic"},
		map[string]any{"name": "slow", "status": "pending", "source": "dynamic"},
	}) {
		t.Errorf("init mcp_servers = %v, want both pending", init["mcp_servers"])
	}
	if names := toolNames(reqs[1].Tools); !slices.Contains(names, "mcp__slow__echo") {
		t.Errorf("second request tools = %v, want the slow server's tools", names)
	}
	if got := lastResults(t, r.srv, 2)[0]; got.IsError || contentText(got) != "Echo: late but here" {
		t.Errorf("echo of the late server: %q (error %v)", contentText(got), got.IsError)
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

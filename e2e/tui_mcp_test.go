package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
	"github.com/mini-claude/mini-claude/internal/mcp/mcptest"
)

// pidOf waits for a server's wrapper to write its pid to file.
func pidOf(t *testing.T, file string) int {
	t.Helper()
	for deadline := time.Now().Add(screenTimeout); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		data, _ := os.ReadFile(file)
		if pid, err := strconv.Atoi(strings.TrimSpace(string(data))); err == nil {
			return pid
		}
	}
	t.Fatalf("no pid in %s", file)
	return 0
}

// notConnected is what the model answers while its request lacks the tool:
// the UI sends prompts before the MCP servers have connected.
const notConnected = "Not connected yet."

// routeUntilConnected has the model answer notConnected to every request
// that lacks tool.
func routeUntilConnected(r *run, tool string) {
	r.srv.Route(func(q llmtest.Request) bool { return !slices.Contains(toolNames(q.Tools), tool) }, text(notConnected))
}

// openEchoSession opens the UI on a project whose .mcp.json holds servers,
// failing among them, which fails saying "no database", and everything. Once
// the screen shows that failure, the model calls everything's echo tool with
// "through the UI" as soon as the tool is there, and answers "Echoed.".
func openEchoSession(t *testing.T, r *run, servers map[string]any, failing string) *screen {
	t.Helper()
	if err := os.WriteFile(filepath.Join(r.dir, ".mcp.json"), []byte(mcpConfig(t, servers)), 0o644); err != nil {
		t.Fatal(err)
	}
	r.trust(true)
	routeUntilConnected(r, "mcp__everything__echo")
	r.srv.Push(calls(llmtest.ToolUse("e1", "mcp__everything__echo", `{"message":"through the UI"}`)), text("Echoed."))
	s := openScreen(t, r, "--allowedTools", "mcp__everything__echo")
	s.waitFor(`MCP server "`+failing+`" failed`, "no database")
	askUntilConnected(s, "echo something", "Echoed.")
	return s
}

// askUntilConnected types prompt until the screen shows done, again each time
// the model answered notConnected.
func askUntilConnected(s *screen, prompt, done string) {
	s.t.Helper()
	deadline := time.Now().Add(screenTimeout)
	for asked := 1; ; asked++ {
		s.typeLine(prompt)
		for {
			shot := s.capture()
			if strings.Contains(shot, done) {
				return
			}
			if strings.Count(shot, notConnected) >= asked {
				break
			}
			if time.Now().After(deadline) {
				s.t.Fatalf("the screen never showed %q:\n%s", done, shot)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
}

// TestTUIAnnouncesMCPServersThatFailLater kills a working MCP server in the
// middle of the session, and has another fail while starting after the UI
// opened: the screen announces each, once, as an error naming the server.
func TestTUIAnnouncesMCPServersThatFailLater(t *testing.T) {
	servers := mcptest.Find(t)
	r := newRun(t)
	pidFile := filepath.Join(t.TempDir(), "everything.pid")
	s := openEchoSession(t, r, map[string]any{
		"everything": map[string]any{"command": "sh", "args": []string{"-c", `echo $$ > "$0"; exec "$1" "$2" stdio`, pidFile, servers.Node, servers.Everything}},
		"late":       map[string]any{"command": "sh", "args": []string{"-c", "sleep 1; echo no database >&2; exit 2"}},
	}, "late")
	if err := syscall.Kill(pidOf(t, pidFile), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	s.waitFor(`MCP server "everything" failed`, "signal: killed", "no longer available")
	time.Sleep(300 * time.Millisecond)
	shot := s.capture()
	for _, name := range []string{"everything", "late"} {
		if n := strings.Count(shot, `MCP server "`+name+`" failed`); n != 1 {
			t.Errorf("the failure of %s is announced %d times:\n%s", name, n, shot)
		}
	}
}

// TestHeadlessReportsAnMCPServerThatDiesMidRun has the model kill the server
// whose tool it just used: the run goes on, and stderr says what happened.
func TestHeadlessReportsAnMCPServerThatDiesMidRun(t *testing.T) {
	servers := mcptest.Find(t)
	r := newRun(t)
	r.setenv("MINI_CLAUDE_MCP_WAIT_MS=30000")
	pidFile := filepath.Join(r.dir, "everything.pid")
	config := mcpConfig(t, map[string]any{
		"everything": map[string]any{"command": "sh", "args": []string{"-c", `echo $$ > "$0"; exec "$1" "$2" stdio`, pidFile, servers.Node, servers.Everything}},
	})
	r.srv.Push(
		calls(llmtest.ToolUse("e1", "mcp__everything__echo", `{"message":"before"}`)),
		calls(llmtest.ToolUse("k1", "Bash", `{"command":"kill -9 $(cat '`+pidFile+`'); sleep 1"}`)),
		text("The server is gone."),
	)
	out := r.exec("-p", "use then kill the server", "--mcp-config", config,
		"--allowedTools", "mcp__everything__echo,Bash")
	if out.code != 0 {
		t.Fatalf("exit %d: %s", out.code, out.stderr)
	}
	var warnings []string
	for _, line := range strings.Split(out.stderr, "\n") {
		if strings.Contains(line, `MCP server "everything" failed`) {
			warnings = append(warnings, line)
		}
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "the server exited (signal: killed) during the session") ||
		!strings.HasSuffix(warnings[0], "; its tools are no longer available") {
		t.Errorf("stderr does not say once that the server died:\n%s", out.stderr)
	}
}

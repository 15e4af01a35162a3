// Package mcptest finds the real MCP servers the tests run: the npm packages
// @modelcontextprotocol/server-everything and server-filesystem that .ci/run
// installs, and node to run them.
package mcptest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// NPMEnv names the folder .ci/run installs the npm packages into (it holds node_modules).
const NPMEnv = "MINI_CLAUDE_TEST_NPM"

// Servers are the entry scripts of the installed servers and the node that runs them.
type Servers struct {
	Node       string
	Everything string
	Filesystem string
}

// Find locates node and the servers, in $MINI_CLAUDE_TEST_NPM or else in the
// cache folder .ci/run uses by default. It skips the test, saying what is
// missing, only when they cannot be found; .ci/run always installs them.
func Find(t testing.TB) Servers {
	t.Helper()
	s, err := Locate()
	if err != nil {
		t.Skipf("%v; run .ci/run, which installs node and the MCP test servers (or npm install them into $%s)", err, NPMEnv)
	}
	return s
}

// Locate is Find for programs: it returns what is missing as an error.
func Locate() (Servers, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return Servers{}, fmt.Errorf("node is not installed: %w", err)
	}
	dir := os.Getenv(NPMEnv)
	if dir == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			return Servers{}, fmt.Errorf("no $%s and no cache folder: %w", NPMEnv, err)
		}
		dir = filepath.Join(cache, "mini-claude", "npm")
	}
	s := Servers{
		Node:       node,
		Everything: filepath.Join(dir, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js"),
		Filesystem: filepath.Join(dir, "node_modules", "@modelcontextprotocol", "server-filesystem", "dist", "index.js"),
	}
	for _, script := range []string{s.Everything, s.Filesystem} {
		if _, err := os.Stat(script); err != nil {
			return Servers{}, fmt.Errorf("MCP test server %s is not installed", script)
		}
	}
	return s, nil
}

// FreePort returns a TCP port on 127.0.0.1 that was free a moment ago.
func FreePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// StartEverythingHTTP runs server-everything's streamable HTTP transport on a
// free port until the test ends and returns its endpoint URL.
func StartEverythingHTTP(t testing.TB, s Servers) string {
	t.Helper()
	return startEverything(t, s, "streamableHttp", "/mcp")
}

// StartEverythingSSE runs server-everything's older HTTP+SSE transport on a
// free port until the test ends and returns its SSE endpoint URL.
func StartEverythingSSE(t testing.TB, s Servers) string {
	t.Helper()
	return startEverything(t, s, "sse", "/sse")
}

func startEverything(t testing.TB, s Servers, transport, path string) string {
	t.Helper()
	port := FreePort(t)
	cmd := exec.Command(s.Node, s.Everything, transport)
	cmd.Env = append(os.Environ(), "PORT="+strconv.Itoa(port))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	addr := "127.0.0.1:" + strconv.Itoa(port)
	deadline := time.Now().Add(20 * time.Second)
	for {
		conn, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
		if err == nil {
			conn.Close()
			return "http://" + addr + path
		}
		if time.Now().After(deadline) {
			t.Fatalf("server-everything (%s) did not listen on %s within 20s", transport, addr)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

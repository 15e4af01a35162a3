package mcp

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/mcp/mcptest"
)

func TestFailingServersAreReportedAndBlockNoOne(t *testing.T) {
	s := mcptest.Find(t)
	dir := t.TempDir()
	crash := filepath.Join(dir, "crash.js")
	if err := os.WriteFile(crash, []byte(`console.error("fatal: cannot open the database"); process.exit(3);`), 0o644); err != nil {
		t.Fatal(err)
	}
	m := Start([]Server{
		{Name: "crash", Type: TransportStdio, Command: s.Node, Args: []string{crash}},
		{Name: "false", Type: TransportStdio, Command: "false"},
		{Name: "missing", Type: TransportStdio, Command: "no-such-mcp-server-here"},
		{Name: "hang", Type: TransportStdio, Command: "sleep", Args: []string{"60"}, Timeout: 2 * time.Second},
		{Name: "nohost", Type: TransportHTTP, URL: "http://127.0.0.1:" + itoa(mcptest.FreePort(t)) + "/mcp"},
		{Name: "badconfig", Type: TransportStdio, Problem: "its configuration uses environment variables that are not set: TOKEN"},
		everythingStdio(s),
	}, testLimits)
	defer m.Close()
	if !m.Wait(context.Background(), 30*time.Second) {
		t.Fatalf("servers did not settle: %+v", m.Statuses())
	}
	want := map[string]string{
		"crash":     "fatal: cannot open the database",
		"false":     "connect",
		"missing":   `cannot run "no-such-mcp-server-here"`,
		"hang":      "did not connect within 2s",
		"nohost":    "connect",
		"badconfig": "TOKEN",
	}
	for _, st := range m.Statuses() {
		t.Logf("%s: %s %s", st.Name, st.State, st.Problem)
		if st.Name == "everything" {
			if st.State != Connected || st.Tools == 0 {
				t.Errorf("everything = %+v, want connected despite the others", st)
			}
			continue
		}
		if st.State != Failed || !strings.Contains(st.Problem, want[st.Name]) {
			t.Errorf("%s = %s %q, want failed mentioning %q", st.Name, st.State, st.Problem, want[st.Name])
		}
	}
	for _, tl := range m.Tools() {
		if !strings.HasPrefix(tl.Name(), "mcp__everything__") {
			t.Errorf("tool %s offered from a failed server", tl.Name())
		}
	}
}

func TestHangingServerDelaysNothingAndIsKilledAtClose(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	// A server that never answers, with a child of its own, as a wrapper script would have.
	script := "sleep 300 & echo $! > " + pidFile + "; wait"
	start := time.Now()
	m := Start([]Server{{Name: "hang", Type: TransportStdio, Command: "sh", Args: []string{"-c", script}}}, testLimits)
	if took := time.Since(start); took > 100*time.Millisecond {
		t.Errorf("Start took %s; it must return at once", took)
	}
	if m.Wait(context.Background(), 300*time.Millisecond) {
		t.Fatalf("a server that never answers settled: %+v", m.Statuses())
	}
	if st := m.Statuses()[0]; st.State != Pending || len(m.Tools()) != 0 {
		t.Errorf("status = %+v, want pending with no tools", st)
	}
	var child int
	for deadline := time.Now().Add(5 * time.Second); child == 0 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		data, _ := os.ReadFile(pidFile)
		child = atoi(strings.TrimSpace(string(data)))
	}
	if child == 0 {
		t.Fatal("the server's child never started")
	}
	start = time.Now()
	m.Close()
	if took := time.Since(start); took > time.Second {
		t.Errorf("Close took %s", took)
	}
	if st := m.Statuses()[0]; st.State != Failed {
		t.Errorf("after Close: %+v, want failed", st)
	}
	for deadline := time.Now().Add(2 * time.Second); syscall.Kill(child, 0) == nil; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the server's child %d still runs after Close", child)
		}
	}
}

// killServer kills a stdio server's process, as a crash would.
func killServer(t *testing.T, c *conn) {
	t.Helper()
	c.mu.Lock()
	pid := c.proc.Pid()
	c.mu.Unlock()
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
}

func TestServerThatDiesIsReportedAndItsToolsWithdrawn(t *testing.T) {
	s := mcptest.Find(t)
	m := startSettled(t, testLimits, everythingStdio(s))
	mustConnect(t, m)
	killServer(t, m.conns[0])
	for deadline := time.Now().Add(5 * time.Second); m.Statuses()[0].State != Failed; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("status after the process was killed: %+v", m.Statuses()[0])
		}
	}
	if st := m.Statuses()[0]; !strings.Contains(st.Problem, "exited (signal: killed) during the session") || len(m.Tools()) != 0 {
		t.Errorf("status = %+v with %d tools, want failed saying the process was killed, and no tools", st, len(m.Tools()))
	}
}

func TestWatchFailuresReportsEachFailureOnceAsItHappens(t *testing.T) {
	s := mcptest.Find(t)
	m := Start([]Server{
		{Name: "early", Type: TransportStdio, Command: "false"},
		{Name: "late", Type: TransportStdio, Command: "sh", Args: []string{"-c", "sleep 0.5; echo no database >&2; exit 2"}},
		{Name: "hang", Type: TransportStdio, Command: "sleep", Args: []string{"60"}},
		everythingStdio(s),
	}, testLimits)
	reports := make(chan Status, 10)
	if st := m.Statuses()[1]; st.State != Pending {
		t.Fatalf("late = %+v before the watch began, want pending", st)
	}
	m.WatchFailures(context.Background(), func(st Status) { reports <- st })
	next := func() Status {
		t.Helper()
		select {
		case st := <-reports:
			return st
		case <-time.After(30 * time.Second):
			t.Fatalf("no failure reported; statuses %+v", m.Statuses())
			return Status{}
		}
	}
	got := map[string]Status{}
	for range 2 {
		st := next()
		got[st.Name] = st
	}
	if st := got["early"]; st.State != Failed || st.Lost {
		t.Errorf("early = %+v, want failed at start", st)
	}
	if st := got["late"]; st.State != Failed || st.Lost || !strings.Contains(st.Problem, "no database") {
		t.Errorf("late = %+v, want failed at start, with its stderr", st)
	}
	for deadline := time.Now().Add(30 * time.Second); m.Statuses()[3].State != Connected; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("everything did not connect: %+v", m.Statuses()[3])
		}
	}
	killServer(t, m.conns[3])
	if st := next(); st.Name != "everything" || !st.Lost || !strings.Contains(st.Problem, "exited (signal: killed) during the session") {
		t.Errorf("after the kill: %+v, want everything lost, saying it was killed", st)
	}
	m.Close()
	select {
	case st := <-reports:
		t.Errorf("reported %+v again, or a server the session closed", st)
	case <-time.After(300 * time.Millisecond):
	}
}

package mcp

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/mcp/mcptest"
	"github.com/mini-claude/mini-claude/internal/tool"
)

func TestAwaitWaitsForAConnectingServerAndGivesAFailedOnesStatus(t *testing.T) {
	s := mcptest.Find(t)
	slow := everythingStdio(s)
	slow.Name, slow.Command, slow.Args = "slow.one", "sh", []string{"-c", `sleep 1; exec "$0" "$@"`, slow.Command, slow.Args[0], "stdio"}
	m := Start([]Server{
		slow,
		{Name: "hang", Type: TransportStdio, Command: "sleep", Args: []string{"60"}, Timeout: 1500 * time.Millisecond},
	}, testLimits)
	defer m.Close()
	if got := m.Pending(); !slices.Equal(got, []string{"slow.one", "hang"}) {
		t.Fatalf("Pending = %v, want both servers", got)
	}
	for name, want := range map[string]string{"mcp__slow_one__echo": "slow.one", "mcp__hang__x": "hang", "mcp__other__x": "", "Read": ""} {
		if got, ok := m.ServerOf(name); got != want || ok != (want != "") {
			t.Errorf("ServerOf(%q) = %q, %v; want %q", name, got, ok, want)
		}
	}
	start := time.Now()
	if err := m.Await(context.Background(), "slow.one"); err != nil {
		t.Fatalf("Await(slow.one) = %v, want it connected", err)
	}
	if !slices.ContainsFunc(m.Tools(), func(tl tool.Tool) bool { return tl.Name() == "mcp__slow_one__echo" }) {
		t.Errorf("the awaited server's tools are not offered")
	}
	err := m.Await(context.Background(), "hang")
	var status *StatusError
	if !errors.As(err, &status) || status.Status.State != Failed || !strings.Contains(err.Error(), "did not connect within 1.5s") {
		t.Fatalf("Await(hang) = %v, want its failed status", err)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("the waits took %s, more than the servers' start-up", took)
	}
	if got := m.Pending(); len(got) != 0 {
		t.Errorf("Pending = %v after both settled", got)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := m.Await(ctx, "missing"); err == nil || !strings.Contains(err.Error(), "no MCP server") {
		t.Errorf("Await(missing) = %v", err)
	}
}

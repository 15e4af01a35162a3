package mcp

import (
	"context"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/leakcheck"
	"github.com/mini-claude/mini-claude/internal/mcp/mcptest"
)

func TestCloseWaitsForAFailureReportUnderWay(t *testing.T) {
	leakcheck.Ended(t)
	m := Start([]Server{{Name: "broken", Problem: "its configuration is broken"}}, testLimits)
	reporting, release := make(chan struct{}), make(chan struct{})
	m.WatchFailures(context.Background(), func(Status) {
		close(reporting)
		<-release
	})
	<-reporting
	closed := make(chan struct{})
	go func() {
		defer close(closed)
		m.Close()
	}()
	select {
	case <-closed:
		t.Fatal("Close returned while a failure was being reported")
	case <-time.After(100 * time.Millisecond):
	}
	close(release)
	<-closed
	leakcheck.NotRunning(t, ours+"(*Manager).WatchFailures.func1")
}

func TestWatchFailuresAfterCloseWatchesNothing(t *testing.T) {
	leakcheck.Ended(t)
	m := Start([]Server{{Name: "broken", Problem: "its configuration is broken"}}, testLimits)
	m.Close()
	m.WatchFailures(context.Background(), func(st Status) { t.Errorf("reported %+v after Close", st) })
}

func TestCloseEndsTheGoroutinesOfAConnectedServer(t *testing.T) {
	leakcheck.Ended(t)
	s := mcptest.Find(t)
	m := Start([]Server{everythingStdio(s)}, testLimits)
	if !m.Wait(context.Background(), 40*time.Second) {
		t.Fatalf("the server did not settle within 40s: %+v", m.Statuses())
	}
	mustConnect(t, m)
	m.WatchFailures(context.Background(), func(st Status) { t.Errorf("reported %+v", st) })
	// server-everything announces a tool with tools/list_changed after
	// initialization: a refresh ran on a goroutine of the server's own.
	for deadline := time.Now().Add(10 * time.Second); m.conns[0].changes.Load() == 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no refresh on tools/list_changed after 10s")
		}
	}
	m.Close()
	leakcheck.NotRunning(t, ours+"(*conn).start", ours+"(*conn).watch", ours+"(*conn).refreshAfterChange",
		ours+"(*Manager).WatchFailures.func1")
}

// ours prefixes the functions of this package as stack traces name them.
const ours = "github.com/mini-claude/mini-claude/internal/mcp."

package tui

import (
	"context"
	"io"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/leakcheck"
)

// runUI runs a UI whose keyboard is the returned writer, and returns Run's
// outcome on the channel.
func runUI(ctx context.Context, opts Options) (*io.PipeWriter, <-chan error) {
	keys, typed := io.Pipe()
	opts.In, opts.Out = keys, io.Discard
	u := New(opts)
	done := make(chan error, 1)
	go func() {
		done <- u.Run(ctx)
		keys.Close()
	}()
	return typed, done
}

func waitRun(t *testing.T, done <-chan error) {
	t.Helper()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the UI did not end")
	}
}

func TestRunLeavesNoGoroutineWhenTheUserLeaves(t *testing.T) {
	leakcheck.Ended(t)
	keys, done := runUI(context.Background(), Options{})
	if _, err := io.WriteString(keys, "/exit\r"); err != nil {
		t.Fatal(err)
	}
	waitRun(t, done)
}

func TestRunReturnsOnceTheCancelledTurnHasEnded(t *testing.T) {
	leakcheck.Ended(t)
	ctx, leave := context.WithCancel(context.Background())
	started := make(chan struct{})
	var ended atomic.Bool
	run := func(turn context.Context, _ string) agent.Result {
		close(started)
		<-turn.Done()
		// A turn takes a moment to wind down (a tool's process to stop).
		time.Sleep(50 * time.Millisecond)
		ended.Store(true)
		return agent.Result{Outcome: agent.Interrupted}
	}
	keys, done := runUI(ctx, Options{Run: run})
	if _, err := io.WriteString(keys, "hello\r"); err != nil {
		t.Fatal(err)
	}
	<-started
	leave()
	waitRun(t, done)
	if !ended.Load() {
		t.Fatal("Run returned while the turn it had cancelled was still running")
	}
}

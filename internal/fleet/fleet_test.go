package fleet

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/fleet/natstest"
)

func connect(t *testing.T) *Fleet {
	t.Helper()
	f, err := Connect(context.Background(), natstest.Start(t), "test")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.Close)
	return f
}

func TestSubmitQueuesEachTaskOnce(t *testing.T) {
	ctx := context.Background()
	f := connect(t)
	tasks := []Task{{ID: "a", Prompt: "p", Dir: "/x"}, {ID: "b", Prompt: "p", Dir: "/x"}}
	subs, err := f.Submit(ctx, tasks)
	if err != nil || len(subs) != 2 || subs[0] != (Submission{ID: "a"}) || subs[1] != (Submission{ID: "b"}) {
		t.Fatalf("first submit: %+v, %v", subs, err)
	}
	subs, err = f.Submit(ctx, tasks)
	if err != nil || subs[0].Skipped != "already queued" || subs[1].Skipped != "already queued" {
		t.Fatalf("second submit: %+v, %v", subs, err)
	}
	if err := f.putState(ctx, State{ID: "a", State: StateDone}); err != nil {
		t.Fatal(err)
	}
	subs, err = f.Submit(ctx, []Task{{ID: "a", Prompt: "p", Dir: "/x"}, {ID: "c", Prompt: "p", Dir: "/x"}})
	if err != nil || subs[0].Skipped != "already done" || subs[1].Skipped != "" {
		t.Fatalf("third submit: %+v, %v", subs, err)
	}
	sum, err := f.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Queued != 3 || sum.Counts[StatePending] != 2 || sum.Counts[StateDone] != 1 {
		t.Fatalf("status %+v", sum)
	}
}

func TestStatusListsRunningAndFailedTasks(t *testing.T) {
	ctx := context.Background()
	f := connect(t)
	beat := time.Now().Add(-3 * time.Second)
	for _, s := range []State{
		{ID: "r", State: StateRunning, Worker: "host-1", Attempt: 2, Heartbeat: beat},
		{ID: "x", State: StateFailed, Attempt: 3, Reason: "failed on each of 3 deliveries"},
		{ID: "d", State: StateDone},
	} {
		if err := f.putState(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	sum, err := f.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	WriteStatus(&out, sum, beat.Add(3*time.Second))
	want := "pending 0  running 1  done 1  failed 1  (queued messages 0, redelivered 0)\n" +
		"running  r  on host-1  attempt 2  heartbeat 3s ago\n" +
		"failed   x  after 3 attempts: failed on each of 3 deliveries\n"
	if out.String() != want {
		t.Fatalf("status:\n%s\nwant:\n%s", out.String(), want)
	}
}

func TestResultsAreStoredOnceAndWaitedFor(t *testing.T) {
	ctx := context.Background()
	f := connect(t)
	f.putState(ctx, State{ID: "a", State: StateRunning})
	if stored, err := f.storeResult(ctx, Result{ID: "a", Status: StateDone, Attempts: 1}); !stored || err != nil {
		t.Fatalf("first store: %v, %v", stored, err)
	}
	if stored, err := f.storeResult(ctx, Result{ID: "a", Status: StateDone, Attempts: 2}); stored || err != nil {
		t.Fatalf("second store: %v, %v", stored, err)
	}
	waited := make(chan error, 1)
	go func() { waited <- f.WaitFinished(ctx) }()
	select {
	case err := <-waited:
		t.Fatalf("WaitFinished returned with a task running: %v", err)
	case <-time.After(100 * time.Millisecond):
	}
	f.putState(ctx, State{ID: "a", State: StateDone})
	if err := <-waited; err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := f.WriteResults(ctx, &out); err != nil || !strings.Contains(out.String(), `"id":"a","status":"done"`) || !strings.Contains(out.String(), `"attempts":1`) {
		t.Fatalf("results %q, %v", out.String(), err)
	}
}

func TestAFleetWithoutTasksHasNothingToWaitFor(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	f := connect(t)
	if states, err := f.States(ctx); err != nil || len(states) != 0 {
		t.Fatalf("states %v, %v", states, err)
	}
	if err := f.WaitFinished(ctx); err != nil {
		t.Fatal(err)
	}
}

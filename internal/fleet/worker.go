package fleet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// WorkerConfig configures a worker.
type WorkerConfig struct {
	// Name identifies the worker in the tasks' states, such as host-pid.
	Name string
	// Concurrency is how many tasks run at once.
	Concurrency int
	// AckWait is how long a delivered task may go without a sign of life
	// (an ack or an in-progress) before it is delivered again; MaxDeliver
	// bounds the deliveries of a task. The consumer all workers share takes
	// the values of the worker that started last.
	AckWait    time.Duration
	MaxDeliver int
	// WorkRoot holds the clones of the tasks that name a repository.
	WorkRoot string
	// Grace is how long running tasks may go on finishing once the worker is
	// told to stop; then they are interrupted and released for another worker.
	Grace time.Duration
	// Command is the program and leading arguments of a run: the mini-claude
	// binary, to which the headless flags and the prompt are added.
	Command []string
	// Log receives a line for each task started, finished, released or parked.
	Log io.Writer
}

// worker is a running Work call.
type worker struct {
	f   *Fleet
	cfg WorkerConfig
	// stopping is done once the worker was told to stop.
	stopping context.Context
	logMu    sync.Mutex
}

// Work pulls tasks and runs them until ctx is done, then stops pulling, lets
// the running tasks finish within cfg.Grace, interrupts the rest and hands
// them back to the stream (they resume elsewhere from their transcripts),
// and returns.
func (f *Fleet) Work(ctx context.Context, cfg WorkerConfig) error {
	if cfg.Concurrency < 1 {
		return fmt.Errorf("concurrency must be 1 or more, not %d", cfg.Concurrency)
	}
	if cfg.MaxDeliver < 1 {
		return fmt.Errorf("max deliveries must be 1 or more, not %d", cfg.MaxDeliver)
	}
	if len(cfg.Command) == 0 {
		return errors.New("no command to run tasks with")
	}
	cons, err := f.js.CreateOrUpdateConsumer(ctx, StreamName, jetstream.ConsumerConfig{
		Durable: ConsumerName, Description: "mini-claude fleet workers",
		AckPolicy: jetstream.AckExplicitPolicy, AckWait: cfg.AckWait, MaxDeliver: cfg.MaxDeliver,
	})
	if err != nil {
		return fmt.Errorf("create consumer %s: %w", ConsumerName, err)
	}
	w := &worker{f: f, cfg: cfg, stopping: ctx}
	sub, err := f.nc.QueueSubscribe(maxDeliveriesAdvisory, "mini-claude-fleet", w.onMaxDeliveries)
	if err != nil {
		return fmt.Errorf("subscribe to the max deliveries advisory: %w", err)
	}
	defer sub.Unsubscribe()

	runCtx, stopRuns := context.WithCancel(context.WithoutCancel(ctx))
	defer stopRuns()
	go func() {
		<-ctx.Done()
		select {
		case <-time.After(cfg.Grace):
			stopRuns()
		case <-runCtx.Done():
		}
	}()
	w.logf("worker %s: pulling tasks, %d at a time", cfg.Name, cfg.Concurrency)
	var wg sync.WaitGroup
	for range cfg.Concurrency {
		wg.Go(func() { w.pull(runCtx, cons) })
	}
	wg.Wait()
	w.logf("worker %s: stopped", cfg.Name)
	return nil
}

// pull takes one task at a time until the worker is told to stop.
func (w *worker) pull(runCtx context.Context, cons jetstream.Consumer) {
	for w.stopping.Err() == nil {
		batch, err := cons.Fetch(1, jetstream.FetchMaxWait(time.Second))
		if err != nil {
			w.logf("worker %s: fetch: %v", w.cfg.Name, err)
			sleep(w.stopping, time.Second)
			continue
		}
		for msg := range batch.Messages() {
			w.handle(runCtx, msg)
		}
		if err := batch.Error(); err != nil && !errors.Is(err, nats.ErrTimeout) {
			w.logf("worker %s: fetch: %v", w.cfg.Name, err)
			sleep(w.stopping, time.Second)
		}
	}
}

// handle runs one delivered task and settles its message: acked once its
// result is stored, released when the worker stops, delivered again after a
// crash, or parked as failed after the last delivery.
func (w *worker) handle(runCtx context.Context, msg jetstream.Msg) {
	meta, err := msg.Metadata()
	if err != nil {
		w.logf("worker %s: message without metadata: %v", w.cfg.Name, err)
		return
	}
	attempt := int(meta.NumDelivered)
	var t Task
	if err := json.Unmarshal(msg.Data(), &t); err != nil || t.Validate() != nil {
		w.logf("worker %s: dropping message %d: not a task", w.cfg.Name, meta.Sequence.Stream)
		msg.TermWithReason("not a task")
		return
	}
	if w.stopping.Err() != nil {
		msg.Nak()
		return
	}
	if done, err := w.f.hasResult(runCtx, t.ID); err == nil && done {
		// An earlier attempt stored the result and died before its ack.
		w.ack(context.WithoutCancel(runCtx), msg, t.ID)
		return
	}
	w.logf("worker %s: task %s: attempt %d started", w.cfg.Name, t.ID, attempt)
	out := w.run(runCtx, msg, t, attempt)
	// Settling outlives the runs' context: a run that ended as the worker
	// stopped still has its result stored or its message released.
	settle := context.WithoutCancel(runCtx)
	switch {
	case out.released:
		w.logf("worker %s: task %s: released unfinished", w.cfg.Name, t.ID)
		w.f.putState(settle, State{ID: t.ID, State: StatePending, Worker: w.cfg.Name, Attempt: attempt, Reason: "released by a stopping worker"})
		msg.Nak()
	case out.err != nil && attempt < w.cfg.MaxDeliver:
		w.logf("worker %s: task %s: attempt %d failed: %v", w.cfg.Name, t.ID, attempt, out.err)
		w.f.putState(settle, State{ID: t.ID, State: StatePending, Worker: w.cfg.Name, Attempt: attempt, Reason: fmt.Sprintf("attempt %d: %v", attempt, out.err)})
		msg.NakWithDelay(time.Duration(attempt) * time.Second)
	case out.err != nil:
		reason := fmt.Sprintf("failed on each of %d deliveries; the last: %v", attempt, out.err)
		w.logf("worker %s: task %s: %s", w.cfg.Name, t.ID, reason)
		out.result.Status, out.result.Reason = StateFailed, reason
		w.finish(settle, msg, out.result)
	default:
		w.logf("worker %s: task %s: %s", w.cfg.Name, t.ID, out.result.Status)
		w.finish(settle, msg, out.result)
	}
}

// finish stores a task's result and state, then acks its message.
func (w *worker) finish(ctx context.Context, msg jetstream.Msg, r Result) {
	r.Finished = time.Now().UTC()
	if _, err := w.f.storeResult(ctx, r); err != nil {
		// Without its result stored the task must run again.
		w.logf("worker %s: task %s: %v", w.cfg.Name, r.ID, err)
		msg.Nak()
		return
	}
	if err := w.f.putState(ctx, State{ID: r.ID, State: r.Status, Worker: w.cfg.Name, Attempt: r.Attempts, Reason: r.Reason}); err != nil {
		w.logf("worker %s: %v", w.cfg.Name, err)
	}
	w.ack(ctx, msg, r.ID)
}

// ack acks a message and waits for the server to confirm it.
func (w *worker) ack(ctx context.Context, msg jetstream.Msg, id string) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := msg.DoubleAck(ctx); err != nil {
		w.logf("worker %s: task %s: ack: %v", w.cfg.Name, id, err)
	}
}

func (w *worker) logf(format string, args ...any) {
	if w.cfg.Log == nil {
		return
	}
	w.logMu.Lock()
	defer w.logMu.Unlock()
	fmt.Fprintf(w.cfg.Log, time.Now().UTC().Format("15:04:05.000 ")+format+"\n", args...)
}

// sleep waits d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}

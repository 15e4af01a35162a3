package fleet

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Summary is where the fleet's tasks stand.
type Summary struct {
	// Counts holds the number of tasks in each state.
	Counts map[string]int
	// Running are the running tasks' states: which worker, its last heartbeat.
	Running []State
	// Failed are the failed tasks' states, with their reasons.
	Failed []State
	// Queued counts the messages in the stream: tasks not yet acked.
	Queued uint64
	// Redelivered counts the tasks delivered more than once and not yet acked.
	Redelivered int
}

// States returns every task's state, by id.
func (f *Fleet) States(ctx context.Context) ([]State, error) {
	keys, err := f.state.Keys(ctx)
	if errors.Is(err, jetstream.ErrNoKeysFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list task states: %w", err)
	}
	slices.Sort(keys)
	states := make([]State, 0, len(keys))
	for _, k := range keys {
		s, found, err := f.getState(ctx, k)
		if err != nil {
			return nil, err
		}
		if found {
			states = append(states, s)
		}
	}
	return states, nil
}

// Status summarises the tasks' states and the stream.
func (f *Fleet) Status(ctx context.Context) (Summary, error) {
	states, err := f.States(ctx)
	if err != nil {
		return Summary{}, err
	}
	sum := Summary{Counts: map[string]int{StatePending: 0, StateRunning: 0, StateDone: 0, StateFailed: 0}}
	for _, s := range states {
		sum.Counts[s.State]++
		switch s.State {
		case StateRunning:
			sum.Running = append(sum.Running, s)
		case StateFailed:
			sum.Failed = append(sum.Failed, s)
		}
	}
	info, err := f.stream.Info(ctx)
	if err != nil {
		return Summary{}, fmt.Errorf("stream %s: %w", StreamName, err)
	}
	sum.Queued = info.State.Msgs
	cons, err := f.stream.Consumer(ctx, ConsumerName)
	switch {
	case errors.Is(err, jetstream.ErrConsumerNotFound):
	case err != nil:
		return Summary{}, fmt.Errorf("consumer %s: %w", ConsumerName, err)
	default:
		ci, err := cons.Info(ctx)
		if err != nil {
			return Summary{}, fmt.Errorf("consumer %s: %w", ConsumerName, err)
		}
		sum.Redelivered = ci.NumRedelivered
	}
	return sum, nil
}

// WriteStatus writes a summary for people: the counts, then a line per running
// and per failed task.
func WriteStatus(w io.Writer, sum Summary, now time.Time) error {
	_, err := fmt.Fprintf(w, "pending %d  running %d  done %d  failed %d  (queued messages %d, redelivered %d)\n",
		sum.Counts[StatePending], sum.Counts[StateRunning], sum.Counts[StateDone], sum.Counts[StateFailed], sum.Queued, sum.Redelivered)
	for _, s := range sum.Running {
		fmt.Fprintf(w, "running  %s  on %s  attempt %d  heartbeat %s ago\n", s.ID, s.Worker, s.Attempt, now.Sub(s.Heartbeat).Round(time.Second))
	}
	for _, s := range sum.Failed {
		fmt.Fprintf(w, "failed   %s  after %d attempts: %s\n", s.ID, s.Attempt, s.Reason)
	}
	return err
}

// WriteResults writes the stored results, one JSON object a line, by task id.
func (f *Fleet) WriteResults(ctx context.Context, w io.Writer) error {
	keys, err := f.results.Keys(ctx)
	if errors.Is(err, jetstream.ErrNoKeysFound) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("list results: %w", err)
	}
	slices.Sort(keys)
	for _, k := range keys {
		e, err := f.results.Get(ctx, k)
		if err != nil {
			return fmt.Errorf("read result of %s: %w", k, err)
		}
		if _, err := fmt.Fprintf(w, "%s\n", e.Value()); err != nil {
			return fmt.Errorf("write results: %w", err)
		}
	}
	return nil
}

// WaitFinished waits until every submitted task is done or failed, checking
// every interval.
func (f *Fleet) WaitFinished(ctx context.Context, interval time.Duration) error {
	for {
		states, err := f.States(ctx)
		if err != nil {
			return err
		}
		if !slices.ContainsFunc(states, func(s State) bool { return !terminal(s.State) }) {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("wait for the tasks: %w", ctx.Err())
		case <-time.After(interval):
		}
	}
}

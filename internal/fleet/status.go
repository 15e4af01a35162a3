package fleet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
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
	var states []State
	err := f.watchStates(ctx, func(all map[string]State) bool {
		states = make([]State, 0, len(all))
		for _, s := range all {
			states = append(states, s)
		}
		return true
	})
	slices.SortFunc(states, func(a, b State) int { return strings.Compare(a.ID, b.ID) })
	return states, err
}

// watchStates reads every task's state from the bucket in one pass, calls
// done with them all, then again after each change, until done returns true.
func (f *Fleet) watchStates(ctx context.Context, done func(map[string]State) bool) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	w, err := f.state.WatchAll(ctx, jetstream.IgnoreDeletes())
	if err != nil {
		return fmt.Errorf("watch task states: %w", err)
	}
	defer w.Stop()
	all := map[string]State{}
	current := false
	for {
		select {
		case <-ctx.Done():
			return fmt.Errorf("watch task states: %w", ctx.Err())
		case e, ok := <-w.Updates():
			if !ok {
				return errors.New("watch task states: the watch ended")
			}
			if e != nil {
				var s State
				if err := json.Unmarshal(e.Value(), &s); err != nil {
					return fmt.Errorf("decode state of %s: %w", e.Key(), err)
				}
				all[e.Key()] = s
			} else {
				// The bucket's current values have all arrived.
				current = true
			}
			if current && done(all) {
				return nil
			}
		}
	}
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

// WaitFinished waits until every submitted task is done or failed.
func (f *Fleet) WaitFinished(ctx context.Context) error {
	return f.watchStates(ctx, func(all map[string]State) bool {
		for _, s := range all {
			if !terminal(s.State) {
				return false
			}
		}
		return true
	})
}

package fleet

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/nats-io/nats.go/jetstream"
)

// Submission is what Submit did with one task.
type Submission struct {
	ID string
	// Skipped says why the task was not queued again: it is already queued
	// (a duplicate within DuplicateWindow) or already finished.
	Skipped string
}

// Submit queues tasks, each once: the task id is the message id, so the
// server drops a second submission within DuplicateWindow, and a task that
// already finished is not queued again.
func (f *Fleet) Submit(ctx context.Context, tasks []Task) ([]Submission, error) {
	subs := make([]Submission, 0, len(tasks))
	for _, t := range tasks {
		st, found, err := f.getState(ctx, t.ID)
		if err != nil {
			return subs, err
		}
		if found && terminal(st.State) {
			subs = append(subs, Submission{ID: t.ID, Skipped: "already " + st.State})
			continue
		}
		if !found {
			// Recorded before the message exists, so a worker's "running"
			// cannot be overwritten by it.
			if err := f.putState(ctx, State{ID: t.ID, State: StatePending}); err != nil {
				return subs, err
			}
		}
		data, err := json.Marshal(t)
		if err != nil {
			return subs, fmt.Errorf("encode task %s: %w", t.ID, err)
		}
		ack, err := f.js.Publish(ctx, Subject, data, jetstream.WithMsgID(t.ID), jetstream.WithExpectStream(StreamName))
		if err != nil {
			return subs, fmt.Errorf("publish task %s: %w", t.ID, err)
		}
		if ack.Duplicate {
			subs = append(subs, Submission{ID: t.ID, Skipped: "already queued"})
			continue
		}
		subs = append(subs, Submission{ID: t.ID})
	}
	return subs, nil
}

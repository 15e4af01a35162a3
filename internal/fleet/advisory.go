package fleet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// maxDeliveriesAdvisory is the subject on which the server tells that a
// task's message reached the consumer's maximum deliveries unacked: its
// worker died or hung on the last attempt.
const maxDeliveriesAdvisory = "$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES." + StreamName + "." + ConsumerName

// deliveriesExceeded is the part of the advisory the fleet reads.
type deliveriesExceeded struct {
	StreamSeq  uint64 `json:"stream_seq"`
	Deliveries int    `json:"deliveries"`
}

// onMaxDeliveries parks as failed the task whose message the advisory is
// about, unless an attempt stored its result, and removes the message. One
// worker of the queue group gets each advisory.
func (w *worker) onMaxDeliveries(m *nats.Msg) {
	var adv deliveriesExceeded
	if err := json.Unmarshal(m.Data, &adv); err != nil {
		w.logf("worker %s: max deliveries advisory: %v", w.cfg.Name, err)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := w.park(ctx, adv); err != nil {
		w.logf("worker %s: %v", w.cfg.Name, err)
	}
}

func (w *worker) park(ctx context.Context, adv deliveriesExceeded) error {
	raw, err := w.f.stream.GetMsg(ctx, adv.StreamSeq)
	if errors.Is(err, jetstream.ErrMsgNotFound) {
		// Its last attempt settled it.
		return nil
	}
	if err != nil {
		return fmt.Errorf("message %d past its deliveries: %w", adv.StreamSeq, err)
	}
	var t Task
	if err := json.Unmarshal(raw.Data, &t); err != nil {
		return fmt.Errorf("message %d past its deliveries: not a task: %w", adv.StreamSeq, err)
	}
	reason := fmt.Sprintf("no worker finished it in %d deliveries: the last worker died or stopped answering", adv.Deliveries)
	r := Result{ID: t.ID, Status: StateFailed, Reason: reason, SessionID: SessionID(t.ID), Attempts: adv.Deliveries, Finished: time.Now().UTC()}
	stored, err := w.f.storeResult(ctx, r)
	if err != nil {
		return err
	}
	if stored {
		w.logf("worker %s: task %s: %s", w.cfg.Name, t.ID, reason)
		if err := w.f.putState(ctx, State{ID: t.ID, State: StateFailed, Attempt: adv.Deliveries, Reason: reason}); err != nil {
			return err
		}
	}
	if err := w.f.stream.DeleteMsg(ctx, adv.StreamSeq); err != nil {
		return fmt.Errorf("remove message %d past its deliveries: %w", adv.StreamSeq, err)
	}
	return nil
}

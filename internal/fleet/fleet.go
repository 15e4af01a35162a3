// Package fleet runs agent tasks across many workers on many machines through
// NATS JetStream: tasks are messages of a work-queue stream, deduplicated by
// task id; workers pull them through one durable consumer with explicit acks,
// run each as a headless mini-claude session, keep the message in progress
// while it runs, store the result in a key-value bucket and only then ack. A
// task whose worker died is redelivered after the ack wait and resumes from its
// transcript, which workers keep in an object store so any machine can resume
// it; after the consumer's maximum deliveries it is parked as failed.
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

// Names of the fleet's JetStream assets.
const (
	// StreamName is the work-queue stream of submitted tasks.
	StreamName = "MINI_CLAUDE_TASKS"
	// Subject is the subject tasks are published on.
	Subject = "mini-claude.tasks"
	// ConsumerName is the durable pull consumer every worker shares.
	ConsumerName = "workers"
	// StateBucket holds each task's state by task id.
	StateBucket = "MINI_CLAUDE_STATE"
	// ResultBucket holds each finished task's result by task id.
	ResultBucket = "MINI_CLAUDE_RESULTS"
	// TranscriptBucket is the object store of the tasks' transcripts.
	TranscriptBucket = "MINI_CLAUDE_TRANSCRIPTS"
	// DuplicateWindow is how long a task id is remembered to drop a second submission.
	DuplicateWindow = 24 * time.Hour
)

// Fleet is a connection to the fleet's stream, buckets and object store,
// created on first use.
type Fleet struct {
	nc          *nats.Conn
	js          jetstream.JetStream
	stream      jetstream.Stream
	state       jetstream.KeyValue
	results     jetstream.KeyValue
	transcripts jetstream.ObjectStore
}

// Connect connects to the NATS server at url and makes sure the fleet's
// stream and buckets exist; name is the client's name the server shows.
func Connect(ctx context.Context, url, name string) (*Fleet, error) {
	nc, err := nats.Connect(url, nats.Name(name), nats.MaxReconnects(-1))
	if err != nil {
		return nil, fmt.Errorf("connect to %s: %w", url, err)
	}
	f, err := open(ctx, nc)
	if err != nil {
		nc.Close()
		return nil, err
	}
	return f, nil
}

func open(ctx context.Context, nc *nats.Conn) (*Fleet, error) {
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, fmt.Errorf("jetstream: %w", err)
	}
	f := &Fleet{nc: nc, js: js}
	f.stream, err = js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name: StreamName, Description: "mini-claude fleet tasks", Subjects: []string{Subject},
		Retention: jetstream.WorkQueuePolicy, Storage: jetstream.FileStorage, Duplicates: DuplicateWindow,
	})
	if err != nil {
		return nil, fmt.Errorf("create stream %s (is JetStream enabled on the server? nats-server -js): %w", StreamName, err)
	}
	if f.state, err = js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket: StateBucket, Description: "mini-claude fleet task states", Storage: jetstream.FileStorage,
	}); err != nil {
		return nil, fmt.Errorf("create bucket %s: %w", StateBucket, err)
	}
	if f.results, err = js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket: ResultBucket, Description: "mini-claude fleet results", Storage: jetstream.FileStorage,
	}); err != nil {
		return nil, fmt.Errorf("create bucket %s: %w", ResultBucket, err)
	}
	if f.transcripts, err = js.CreateOrUpdateObjectStore(ctx, jetstream.ObjectStoreConfig{
		Bucket: TranscriptBucket, Description: "mini-claude fleet transcripts", Storage: jetstream.FileStorage,
	}); err != nil {
		return nil, fmt.Errorf("create object store %s: %w", TranscriptBucket, err)
	}
	return f, nil
}

// Close sends what is still buffered (a task released with a nak) and
// closes the connection.
func (f *Fleet) Close() {
	f.nc.FlushTimeout(5 * time.Second)
	f.nc.Close()
}

// The states of a task.
const (
	StatePending = "pending"
	StateRunning = "running"
	StateDone    = "done"
	StateFailed  = "failed"
)

// State is a task's record in StateBucket: where it stands, and while it runs
// which worker runs it and when that worker last said so.
type State struct {
	ID    string `json:"id"`
	State string `json:"state"`
	// Worker runs the task, or ran its last attempt.
	Worker string `json:"worker,omitempty"`
	// Attempt is the delivery of the task this state is about, from 1.
	Attempt int `json:"attempt,omitempty"`
	// Heartbeat is when the running worker last reported the run alive.
	Heartbeat time.Time `json:"heartbeat,omitzero"`
	// Reason says why a task failed, or why its last attempt did.
	Reason  string    `json:"reason,omitempty"`
	Updated time.Time `json:"updated"`
}

// terminal reports whether a state is final.
func terminal(state string) bool { return state == StateDone || state == StateFailed }

// Result is a finished task's record in ResultBucket.
type Result struct {
	ID     string `json:"id"`
	Status string `json:"status"`
	// Reason says why a failed task failed.
	Reason    string `json:"reason,omitempty"`
	SessionID string `json:"session_id"`
	Worker    string `json:"worker,omitempty"`
	// Attempts counts the deliveries the task took.
	Attempts int `json:"attempts"`
	// Resumed says the run that finished went on from an earlier attempt's transcript.
	Resumed      bool            `json:"resumed,omitempty"`
	TotalCostUSD float64         `json:"total_cost_usd"`
	Usage        json.RawMessage `json:"usage,omitempty"`
	// Output is the run's result object, as --output-format json prints it.
	Output json.RawMessage `json:"result,omitempty"`
	// Diff is what the run changed in its directory, when it is a git
	// repository: git diff of its working tree, new files included.
	Diff     string    `json:"diff,omitempty"`
	Finished time.Time `json:"finished"`
}

// putState records a task's state.
func (f *Fleet) putState(ctx context.Context, s State) error {
	s.Updated = time.Now().UTC()
	data, err := json.Marshal(s)
	if err != nil {
		return fmt.Errorf("encode state of %s: %w", s.ID, err)
	}
	if _, err := f.state.Put(ctx, s.ID, data); err != nil {
		return fmt.Errorf("record state of %s: %w", s.ID, err)
	}
	return nil
}

// getState returns a task's state; found is false for a task never submitted.
func (f *Fleet) getState(ctx context.Context, id string) (s State, found bool, err error) {
	e, err := f.state.Get(ctx, id)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return State{}, false, nil
	}
	if err != nil {
		return State{}, false, fmt.Errorf("read state of %s: %w", id, err)
	}
	if err := json.Unmarshal(e.Value(), &s); err != nil {
		return State{}, false, fmt.Errorf("decode state of %s: %w", id, err)
	}
	return s, true, nil
}

// storeResult stores a task's result once: stored is false when another
// attempt stored one first.
func (f *Fleet) storeResult(ctx context.Context, r Result) (stored bool, err error) {
	data, err := json.Marshal(r)
	if err != nil {
		return false, fmt.Errorf("encode result of %s: %w", r.ID, err)
	}
	_, err = f.results.Create(ctx, r.ID, data)
	if errors.Is(err, jetstream.ErrKeyExists) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("store result of %s: %w", r.ID, err)
	}
	return true, nil
}

// hasResult reports whether a task's result is stored.
func (f *Fleet) hasResult(ctx context.Context, id string) (bool, error) {
	_, err := f.results.Get(ctx, id)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read result of %s: %w", id, err)
	}
	return true, nil
}

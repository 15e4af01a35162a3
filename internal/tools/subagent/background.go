package subagent

import (
	"context"
	"errors"
	"sync"

	"github.com/mini-claude/mini-claude/internal/tool"
)

// background keeps a session's background agents: they run on a context of
// their own, cancelled when the session closes.
type background struct {
	ctx    context.Context
	cancel context.CancelFunc
	once   sync.Once
	wg     sync.WaitGroup

	mu       sync.Mutex
	closed   bool
	running  int
	launched int
	// changed is closed, and replaced, whenever a background agent ends.
	changed chan struct{}
}

type backgroundKey struct{}

func backgroundOf(s *tool.Session) *background {
	b := tool.Value(s, backgroundKey{}, func() *background {
		ctx, cancel := context.WithCancel(context.Background())
		return &background{ctx: ctx, cancel: cancel, changed: make(chan struct{})}
	})
	b.once.Do(func() {
		s.OnClose(func() {
			b.mu.Lock()
			b.closed = true
			b.mu.Unlock()
			b.cancel()
			b.wg.Wait()
		})
	})
	return b
}

// startBackground runs req on its own goroutine; its end is queued as a
// session notice for the model's next turn. It fails once the session is closing.
func startBackground(s *tool.Session, r tool.SubAgentRunner, req tool.SubAgentRequest) error {
	b := backgroundOf(s)
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return errors.New("the session is ending, so no background agent can start; run the agent in the foreground")
	}
	b.running++
	b.launched++
	b.wg.Go(func() {
		report, err := r.RunAgent(b.ctx, req)
		s.Notify(notice(req, report, err))
		b.mu.Lock()
		defer b.mu.Unlock()
		b.running--
		close(b.changed)
		b.changed = make(chan struct{})
	})
	return nil
}

// Running returns how many background agents of the session have not ended.
func Running(s *tool.Session) int {
	b := backgroundOf(s)
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.running
}

// Launched returns how many background agents the session has started.
func Launched(s *tool.Session) int {
	b := backgroundOf(s)
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.launched
}

// WaitAny blocks until a background agent of the session ends, returning at
// once when none is running; its notice is queued by then. It returns
// ctx's error when ctx ends first.
func WaitAny(ctx context.Context, s *tool.Session) error {
	b := backgroundOf(s)
	b.mu.Lock()
	if b.running == 0 {
		b.mu.Unlock()
		return nil
	}
	changed := b.changed
	b.mu.Unlock()
	select {
	case <-changed:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

package tui

import (
	"sync"

	tea "charm.land/bubbletea/v2"
)

// work is what the UI runs off its own goroutine (a turn, a compaction, a
// "!command"), counted so that Run can wait for it once the program has
// ended: nothing the UI started runs on after Run returns.
type work struct {
	mu     sync.Mutex
	closed bool
	wg     sync.WaitGroup
}

// cmd wraps fn as a command of the program. Once the UI has ended, a command
// that had not started yet does not run fn.
func (w *work) cmd(fn func() tea.Msg) tea.Cmd {
	return func() tea.Msg {
		w.mu.Lock()
		if w.closed {
			w.mu.Unlock()
			return nil
		}
		w.wg.Add(1)
		w.mu.Unlock()
		defer w.wg.Done()
		return fn()
	}
}

// wait lets no more work start and returns once the work under way is done.
func (w *work) wait() {
	w.mu.Lock()
	w.closed = true
	w.mu.Unlock()
	w.wg.Wait()
}

package session

import (
	"os"
	"sync"
)

// flusher makes a transcript's lines durable in the background. A line is
// written to the file before the call that records it returns, so a crash of
// the process loses nothing written; the fsync that guards against a crash
// of the machine follows on a goroutine, one fsync for every line written
// while the previous one ran. On the path of each line, the fsync cost every
// request 1-3 ms on an ordinary disk, the first request of a run included.
type flusher struct {
	f *os.File
	// dir, when set, is the new file's folder, synced once with the first
	// line so that the file's entry is durable too.
	dir string
	// failed is told of the first fsync that fails; no fsync follows it.
	failed func(error)

	mu      sync.Mutex
	idle    *sync.Cond
	dirty   bool
	running bool
	err     error
}

func newFlusher(f *os.File, dir string, failed func(error)) *flusher {
	fl := &flusher{f: f, dir: dir, failed: failed}
	fl.idle = sync.NewCond(&fl.mu)
	return fl
}

// request asks for an fsync of everything written so far.
func (fl *flusher) request() {
	fl.mu.Lock()
	defer fl.mu.Unlock()
	fl.dirty = true
	if fl.running || fl.err != nil {
		return
	}
	fl.running = true
	go fl.run()
}

func (fl *flusher) run() {
	fl.mu.Lock()
	for fl.dirty && fl.err == nil {
		fl.dirty = false
		dir := fl.dir
		fl.dir = ""
		fl.mu.Unlock()
		if dir != "" {
			syncDir(dir)
		}
		err := fl.f.Sync()
		fl.mu.Lock()
		if err != nil {
			fl.err = err
			fl.mu.Unlock()
			fl.failed(err)
			fl.mu.Lock()
		}
	}
	fl.running = false
	fl.idle.Broadcast()
	fl.mu.Unlock()
}

// wait returns once every line written before it was called is synced, or
// an fsync failed.
func (fl *flusher) wait() {
	fl.mu.Lock()
	defer fl.mu.Unlock()
	for fl.running {
		fl.idle.Wait()
	}
}

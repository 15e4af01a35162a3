package reaper

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"syscall"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// launcher is a goroutine locked to an OS thread that the helper forks the
// commands of one sandbox from. Landlock restricts the thread, and a process
// inherits the restriction of the thread that forks it, while the helper's
// other threads keep their rights. The thread is never unlocked, so it never
// ends: the parent-death signal of the processes it forks fires only when
// the helper dies (it follows the forking thread), and the Go runtime neither
// runs other goroutines on it nor clones threads from it.
type launcher struct {
	sandbox  *Sandbox
	once     sync.Once
	err      error
	requests chan func()
}

func newLauncher(s *Sandbox) *launcher { return &launcher{sandbox: s} }

// ready starts the launcher's thread on first use and reports whether it could
// be restricted.
func (ln *launcher) ready() error {
	ln.once.Do(func() {
		ln.requests = make(chan func())
		started := make(chan error)
		go ln.serve(started)
		ln.err = <-started
	})
	return ln.err
}

func (ln *launcher) serve(started chan<- error) {
	runtime.LockOSThread()
	if err := restrictThread(ln.sandbox); err != nil {
		// Returning while locked ends the thread with its partial restriction.
		started <- err
		return
	}
	started <- nil
	for fn := range ln.requests {
		fn()
	}
}

// do runs fn on the launcher's thread and waits for it.
func (ln *launcher) do(fn func()) {
	done := make(chan struct{})
	ln.requests <- func() {
		defer close(done)
		fn()
	}
	<-done
}

// writeRights are the file-system rights the sandbox handles: every way of
// changing a file or directory. Reading and executing stay unrestricted, as do
// the network and signals.
const writeRights = ll.AccessFSWriteFile | ll.AccessFSRemoveDir | ll.AccessFSRemoveFile |
	ll.AccessFSMakeChar | ll.AccessFSMakeDir | ll.AccessFSMakeReg | ll.AccessFSMakeSock |
	ll.AccessFSMakeFifo | ll.AccessFSMakeBlock | ll.AccessFSMakeSym | ll.AccessFSRefer |
	ll.AccessFSTruncate

// fileWriteRights are the write rights that apply to a single file.
const fileWriteRights = ll.AccessFSWriteFile | ll.AccessFSTruncate

// restrictThread restricts the calling OS thread alone (no TSYNC) to writing
// inside the sandbox's places, with no_new_privs, which Landlock requires and
// which keeps setuid programs from lifting the restriction.
func restrictThread(s *Sandbox) error {
	cfg := landlock.Config{HandledAccessFS: writeRights}.BestEffort()
	fd, _, err := cfg.NewRulesetFD(
		landlock.PathAccess(writeRights, s.Dirs...).IgnoreIfMissing(),
		landlock.PathAccess(fileWriteRights, s.Files...).IgnoreIfMissing(),
	)
	if err != nil {
		return fmt.Errorf("build the Landlock rules: %w", err)
	}
	if fd < 0 {
		return errors.New("Landlock has nothing to enforce on this kernel")
	}
	defer syscall.Close(fd)
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("set no_new_privs: %w", err)
	}
	if err := ll.LandlockRestrictSelf(fd, 0); err != nil {
		return fmt.Errorf("restrict the launcher thread: %w", err)
	}
	return nil
}

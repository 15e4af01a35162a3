package shell

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// Sandbox limits where a command may write: inside Writable, the temporary
// directories and the harmless device files; reads and execution are not limited.
type Sandbox struct {
	// Writable are absolute directories the command may change, with everything below them.
	Writable []string
}

// SandboxEnv, set to "off", runs every command without the sandbox.
const SandboxEnv = "MINI_CLAUDE_SANDBOX"

// SandboxStatus says whether commands can run sandboxed here.
type SandboxStatus struct {
	// ABI is the kernel's Landlock ABI version, 0 when it has none.
	ABI int
	// Err says why the sandbox is unavailable; nil when it is available.
	Err error
}

// Available reports whether commands can be sandboxed.
func (s SandboxStatus) Available() bool { return s.Err == nil }

// String says whether the sandbox is available, and why not.
func (s SandboxStatus) String() string {
	if s.Err != nil {
		return "unavailable: " + s.Err.Error()
	}
	return fmt.Sprintf("available (Landlock ABI %d): commands may write only inside the allowed directories and the temporary directories", s.ABI)
}

var probeOnce = sync.OnceValue(probe)

// ProbeSandbox checks, once per process and with one system call, whether the
// kernel has Landlock.
func ProbeSandbox() SandboxStatus { return probeOnce() }

func probe() SandboxStatus {
	if os.Getenv(SandboxEnv) == "off" {
		return SandboxStatus{Err: fmt.Errorf("turned off by %s=off", SandboxEnv)}
	}
	abi, err := landlockABI()
	return SandboxStatus{ABI: abi, Err: err}
}

// writableExtras are the places every sandboxed command may write besides its
// directories: the temporary directories and /dev/shm.
func writableExtras() []string {
	dirs := []string{"/tmp", "/var/tmp", "/dev/shm"}
	if tmp := os.Getenv("TMPDIR"); filepath.IsAbs(tmp) {
		dirs = append(dirs, tmp)
	}
	return dirs
}

// writableDevices are the device files commands write to as a matter of course.
var writableDevices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom"}

// launchers holds one launcher per set of writable directories.
var launchers sync.Map

// sandbox starts the command from a launcher thread restricted to the spec's
// writable directories, when the spec asks for it.
func sandbox(l *launch) error {
	if l.spec.Sandbox == nil {
		return nil
	}
	if status := ProbeSandbox(); !status.Available() {
		return fmt.Errorf("the sandbox is %s", status)
	}
	writable := slices.Clone(l.spec.Sandbox.Writable)
	for _, dir := range writable {
		if !filepath.IsAbs(dir) {
			return fmt.Errorf("sandbox: writable directory %q is not absolute", dir)
		}
	}
	writable = append(writable, writableExtras()...)
	slices.Sort(writable)
	writable = slices.Compact(writable)
	v, _ := launchers.LoadOrStore(strings.Join(writable, "\x00"), &launcher{writable: writable})
	ln := v.(*launcher)
	if err := ln.ready(); err != nil {
		return fmt.Errorf("the sandbox could not be set up: %w; rerun the command with dangerouslyDisableSandbox", err)
	}
	l.via = ln.do
	return nil
}

// launcher is a goroutine locked to an OS thread that Landlock restricts to
// writing in a set of directories. A process inherits the Landlock domain of
// the thread that forks it, so the commands it starts are sandboxed while the
// rest of mini-claude keeps its rights. The thread is never unlocked: the Go
// runtime neither runs other goroutines on it nor clones new threads from it.
type launcher struct {
	writable []string
	once     sync.Once
	err      error
	requests chan func()
}

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
	lockThread()
	if err := restrictThread(ln.writable); err != nil {
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

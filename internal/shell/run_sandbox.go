package shell

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/mini-claude/mini-claude/internal/reaper"
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

// sandbox has bash started from a thread of the process helper restricted
// to the spec's writable directories, when the spec asks for it.
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
	l.sandbox = &reaper.Sandbox{Dirs: slices.Compact(writable), Files: writableDevices}
	return nil
}

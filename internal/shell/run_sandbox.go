package shell

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
)

// Sandbox limits where a command may write: inside Writable, the temporary
// directories and the harmless device files; reads and execution are not limited.
type Sandbox struct {
	// Writable are absolute directories the command may change, with everything below them.
	Writable []string
}

// SandboxEnv, set to "off", runs every command without the sandbox.
const SandboxEnv = "MINI_CLAUDE_SANDBOX"

// helperArg is the hidden first argument that turns the binary into the sandbox helper.
const helperArg = "__mini-claude-sandbox"

// helperServed records that this binary calls SandboxHelperMain at start, so
// re-executing it with helperArg reaches the helper.
var helperServed atomic.Bool

// SandboxHelperMain must be the first call of main (and of TestMain in tests
// that run sandboxed commands). In an ordinary run it only records that the
// binary can serve as the helper and returns. Run as the helper, it restricts
// the process with Landlock and executes bash in its place; it never returns then.
func SandboxHelperMain() {
	helperServed.Store(true)
	if len(os.Args) < 2 || os.Args[1] != helperArg {
		return
	}
	err := runHelper(os.Args[2:])
	fmt.Fprintf(os.Stderr, "mini-claude sandbox: %v\n", err)
	os.Exit(126)
}

// SandboxStatus says whether commands can run sandboxed here.
type SandboxStatus struct {
	// ABI is the kernel's Landlock ABI version, 0 when it has none.
	ABI int
	// Err says why the sandbox is unavailable; nil when it is available.
	Err error
	// helper is the binary re-executed as the helper.
	helper string
}

// Available reports whether commands can be sandboxed.
func (s SandboxStatus) Available() bool { return s.Err == nil }

func (s SandboxStatus) String() string {
	if s.Err != nil {
		return "unavailable: " + s.Err.Error()
	}
	return fmt.Sprintf("available (Landlock ABI %d): commands may write only inside the allowed directories and the temporary directories", s.ABI)
}

var probeOnce = sync.OnceValue(probe)

// ProbeSandbox checks, once per process and in microseconds, whether the kernel
// has Landlock and this binary can serve as the helper.
func ProbeSandbox() SandboxStatus { return probeOnce() }

func probe() SandboxStatus {
	if os.Getenv(SandboxEnv) == "off" {
		return SandboxStatus{Err: fmt.Errorf("turned off by %s=off", SandboxEnv)}
	}
	abi, err := landlockABI()
	if err != nil {
		return SandboxStatus{Err: err}
	}
	if !helperServed.Load() {
		return SandboxStatus{ABI: abi, Err: errors.New("this binary does not serve the sandbox helper (SandboxHelperMain is not called at start)")}
	}
	self, err := os.Executable()
	if err != nil {
		return SandboxStatus{ABI: abi, Err: fmt.Errorf("cannot find the mini-claude binary to run the helper: %w", err)}
	}
	return SandboxStatus{ABI: abi, helper: self}
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

// sandbox runs the wrapped bash through the helper when the spec asks for it.
func sandbox(l *launch) error {
	if l.spec.Sandbox == nil {
		return nil
	}
	status := ProbeSandbox()
	if !status.Available() {
		return fmt.Errorf("the sandbox is %s", status)
	}
	argv := []string{status.helper, helperArg}
	for _, dir := range append(l.spec.Sandbox.Writable, writableExtras()...) {
		if !filepath.IsAbs(dir) {
			return fmt.Errorf("sandbox: writable directory %q is not absolute", dir)
		}
		argv = append(argv, dir)
	}
	argv = append(argv, "--", l.path)
	l.path = status.helper
	l.argv = append(argv, l.argv...)
	return nil
}

// splitHelperArgs splits the helper's arguments into the writable directories
// and, after "--", the path of the program and its arguments from argv[0] on.
func splitHelperArgs(args []string) (writable, argv []string, err error) {
	for i, a := range args {
		if a == "--" {
			if i+2 >= len(args) {
				return nil, nil, errors.New("no program and arguments after --")
			}
			return args[:i], args[i+1:], nil
		}
	}
	return nil, nil, errors.New("no -- before the command")
}

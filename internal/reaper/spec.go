package reaper

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// HelperArg, as the only argument, makes a binary that links this package
// the helper of the process that started it (on Linux; elsewhere there is none).
const HelperArg = "__mini-claude-reaper"

// Spec describes a process for Start.
type Spec struct {
	// Path is the program to execute; Args its arguments, Args[0] its name.
	Path string
	Args []string
	// Env is the process's whole environment.
	Env []string
	// Dir is the working directory; "" is mini-claude's.
	Dir string
	// Files become the process's descriptors 0, 1, 2, 3 …; a nil entry is /dev/null.
	Files []*os.File
	// Setsid starts the process in a session, and so a process group, of its own.
	Setsid bool
	// Setpgid starts the process in a process group of its own.
	Setpgid bool
	// Sandbox, when not nil, limits where the process and its descendants may write.
	Sandbox *Sandbox
}

// Sandbox is Landlock's restriction of a process to writing in some places.
type Sandbox struct {
	// Dirs are the absolute directories writable with everything below them.
	Dirs []string
	// Files are single files that may be written but not replaced (devices).
	Files []string
}

// ErrSandbox marks a start refused because the sandbox could not be set up.
var ErrSandbox = errors.New("the sandbox could not be set up")

// Describe says how a process ended as os.ProcessState.String does: "exit
// status 3", "signal: killed".
func Describe(status syscall.WaitStatus) string {
	switch {
	case status.Exited():
		return fmt.Sprintf("exit status %d", status.ExitStatus())
	case status.Signaled():
		s := "signal: " + status.Signal().String()
		if status.CoreDump() {
			s += " (core dumped)"
		}
		return s
	}
	return fmt.Sprintf("wait status %#x", uint32(status))
}

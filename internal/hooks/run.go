package hooks

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/mini-claude/mini-claude/internal/reaper"
)

// killGrace is how long a hook's process group has to end after its timeout
// or cancellation before its pipes are closed on it.
const killGrace = 500 * time.Millisecond

// Result is what one hook did.
type Result struct {
	Hook Hook
	// ExitCode is the command's exit status; -1 when it could not start or was killed.
	ExitCode int
	Stdout   string
	Stderr   string
	// Output is stdout read as Claude Code's JSON answer, when it is one and the hook exited 0.
	Output *Output
	// TimedOut says the hook ran past its timeout and was killed.
	TimedOut bool
	// Cancelled says the hook was killed because what it ran for was
	// cancelled (the user interrupted the turn).
	Cancelled bool
	// Err says why the hook could not run at all.
	Err      error
	Duration time.Duration
}

// run runs one hook: bash -c command in dir, in a process group of its own
// started by the process helper (so it dies with mini-claude), with input on
// stdin; past its timeout, or when ctx ends, the group is killed.
func run(ctx context.Context, h Hook, dir string, env []string, input []byte) Result {
	if h.Callback != nil {
		return callBack(ctx, h, input)
	}
	started := time.Now()
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, h.Timeout)
	defer cancel()
	var stdout, stderr bytes.Buffer
	cmd := reaper.Command{Path: bashPath(), Args: []string{"bash", "-c", h.Command}, Env: env, Dir: dir,
		Stdin: input, Stdout: &stdout, Stderr: &stderr, WaitDelay: killGrace}
	status, err := cmd.Run(ctx)
	res := Result{Hook: h, ExitCode: exitCode(status, err), Stdout: stdout.String(), Stderr: stderr.String(), Duration: time.Since(started)}
	switch {
	case err != nil && parent.Err() != nil:
		res.Cancelled, res.ExitCode = true, -1
	case err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded):
		res.TimedOut, res.ExitCode = true, -1
	case err != nil:
		res.Err = err
	}
	if res.ExitCode == 0 {
		res.Output = parseOutput(res.Stdout)
	}
	return res
}

// exitCode is the hook's exit status; -1 when it did not start or was killed by a signal.
func exitCode(status syscall.WaitStatus, err error) int {
	if err != nil && status == 0 || !status.Exited() {
		return -1
	}
	return status.ExitStatus()
}

// bashPath is where bash is, found once; "bash" when it is not on PATH, to
// fail at the start with the system's error.
var bashPath = sync.OnceValue(func() string {
	path, err := exec.LookPath("bash")
	if err != nil {
		return "bash"
	}
	return path
})

// callBack runs a hook registered as a callback under its timeout: its answer
// is read as a command's stdout after exit 0; a failure is a non-blocking error.
func callBack(ctx context.Context, h Hook, input []byte) Result {
	started := time.Now()
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, h.Timeout)
	defer cancel()
	out, err := h.Callback(ctx, input)
	res := Result{Hook: h, Stdout: string(out), Duration: time.Since(started)}
	switch {
	case err != nil && parent.Err() != nil:
		res.Cancelled, res.ExitCode = true, -1
	case err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded):
		res.TimedOut, res.ExitCode = true, -1
	case err != nil:
		res.ExitCode, res.Stderr = 1, err.Error()
	default:
		res.Output = parseOutput(res.Stdout)
	}
	return res
}

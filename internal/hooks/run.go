package hooks

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"syscall"
	"time"
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

// run runs one hook: bash -c command in dir, in a process group of its own,
// with input on stdin; past its timeout, or when ctx ends, the group is killed.
func run(ctx context.Context, h Hook, dir string, env []string, input []byte) Result {
	if h.Callback != nil {
		return callBack(ctx, h, input)
	}
	started := time.Now()
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, h.Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", h.Command)
	cmd.Dir, cmd.Env = dir, env
	cmd.Stdin = bytes.NewReader(input)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = killGrace
	err := cmd.Run()
	res := Result{Hook: h, ExitCode: cmd.ProcessState.ExitCode(), Stdout: stdout.String(), Stderr: stderr.String(), Duration: time.Since(started)}
	var exit *exec.ExitError
	switch {
	case err != nil && parent.Err() != nil:
		res.Cancelled, res.ExitCode = true, -1
	case err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded):
		res.TimedOut, res.ExitCode = true, -1
	case err != nil && !errors.As(err, &exit) && !errors.Is(err, exec.ErrWaitDelay):
		res.Err = err
	}
	if res.ExitCode == 0 {
		res.Output = parseOutput(res.Stdout)
	}
	return res
}

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

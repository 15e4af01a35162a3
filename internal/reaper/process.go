package reaper

import (
	"errors"
	"os"
	"syscall"
)

// Process is a process Start started.
type Process struct {
	pid    int
	done   chan struct{}
	status syscall.WaitStatus
	err    error
}

// Pid is the process's id.
func (p *Process) Pid() int { return p.pid }

// Done is closed once the process has ended and been reaped.
func (p *Process) Done() <-chan struct{} { return p.done }

// Wait waits for the process to end and says how it did; the error says
// that its end could not be learnt (the helper died).
func (p *Process) Wait() (syscall.WaitStatus, error) {
	<-p.done
	return p.status, p.err
}

func (p *Process) finish(status syscall.WaitStatus, err error) {
	p.status, p.err = status, err
	close(p.done)
}

// startDirect starts the process as os/exec would, as mini-claude's own
// child: what it leaves behind when mini-claude is killed is not watched.
func startDirect(spec Spec) (*Process, error) {
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return nil, err
	}
	defer null.Close()
	files := make([]*os.File, len(spec.Files))
	for i, f := range spec.Files {
		if files[i] = f; f == nil {
			files[i] = null
		}
	}
	proc, err := os.StartProcess(spec.Path, spec.Args, &os.ProcAttr{Dir: spec.Dir, Env: spec.Env, Files: files,
		Sys: &syscall.SysProcAttr{Setsid: spec.Setsid, Setpgid: spec.Setpgid && !spec.Setsid}})
	if err != nil {
		var pathErr *os.PathError
		if errors.As(err, &pathErr) {
			return nil, pathErr.Err
		}
		return nil, err
	}
	p := &Process{pid: proc.Pid, done: make(chan struct{})}
	go func() {
		state, err := proc.Wait()
		var status syscall.WaitStatus
		if err == nil {
			status, _ = state.Sys().(syscall.WaitStatus)
		}
		p.finish(status, err)
	}()
	return p, nil
}

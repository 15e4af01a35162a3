//go:build !linux

package reaper

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// Process is a process Start started.
type Process struct {
	proc   *os.Process
	done   chan struct{}
	status syscall.WaitStatus
	err    error
}

// Start starts the process directly, as os/exec would: on this system the
// processes it leaves behind when mini-claude is killed are not watched.
func Start(spec Spec) (*Process, error) {
	if spec.Sandbox != nil {
		return nil, fmt.Errorf("%w: the sandbox needs Linux", ErrSandbox)
	}
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
	p := &Process{proc: proc, done: make(chan struct{})}
	go p.wait()
	return p, nil
}

func (p *Process) wait() {
	state, err := p.proc.Wait()
	if err == nil {
		p.status, _ = state.Sys().(syscall.WaitStatus)
	}
	p.err = err
	close(p.done)
}

// Pid is the process's id.
func (p *Process) Pid() int { return p.proc.Pid }

// Done is closed once the process has ended and been reaped.
func (p *Process) Done() <-chan struct{} { return p.done }

// Wait waits for the process to end and says how it did.
func (p *Process) Wait() (syscall.WaitStatus, error) {
	<-p.done
	return p.status, p.err
}

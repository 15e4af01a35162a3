package reaper

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"syscall"
	"time"
)

// Command is a command run to its end by Run, through Start, with its input
// and output in memory: what os/exec's Cmd.Run does, for a process that must
// die with mini-claude.
type Command struct {
	Path string
	Args []string
	Env  []string
	Dir  string
	// Stdin is the command's whole input; the pipe closes after it.
	Stdin []byte
	// Stdout and Stderr receive the command's output; the same writer for
	// both gets it merged, nil drops it.
	Stdout, Stderr io.Writer
	// WaitDelay bounds how long, once the command has ended, Run waits for
	// its output to end: processes it left may hold it open. Zero waits for
	// the end, as os/exec does.
	WaitDelay time.Duration
	// Grace, when not zero, makes the end of ctx send SIGTERM to the
	// command's group first, so it can wind up, and SIGKILL only if it has
	// not ended Grace later.
	Grace time.Duration
}

// Run starts the command in a process group of its own and waits for it.
// When ctx ends first, the group is killed with SIGKILL (after SIGTERM and
// Grace when Grace is set) and Run returns ctx's error along with how the
// command ended.
func (c *Command) Run(ctx context.Context) (syscall.WaitStatus, error) {
	var streams commandStreams
	defer streams.closeAll()
	stdin, err := streams.input(c.Stdin)
	if err != nil {
		return 0, err
	}
	stdout, err := streams.output(c.Stdout)
	if err != nil {
		return 0, err
	}
	stderr := stdout
	if c.Stderr != c.Stdout {
		if stderr, err = streams.output(c.Stderr); err != nil {
			return 0, err
		}
	}
	p, err := Start(Spec{Path: c.Path, Args: c.Args, Env: c.Env, Dir: c.Dir, Files: []*os.File{stdin, stdout, stderr}, Setpgid: true})
	streams.closeChildEnds()
	if err != nil {
		return 0, fmt.Errorf("start %s: %w", c.Path, err)
	}
	streams.begin()
	select {
	case <-p.Done():
	case <-ctx.Done():
		c.stop(p)
	}
	status, err := p.Wait()
	streams.settle(c.WaitDelay)
	if ctx.Err() != nil {
		return status, ctx.Err()
	}
	return status, err
}

// stop ends the command's group: with SIGTERM, then SIGKILL if it is still
// running Grace later, or at once with SIGKILL when Grace is zero.
func (c *Command) stop(p *Process) {
	if c.Grace > 0 {
		_ = syscall.Kill(-p.Pid(), syscall.SIGTERM)
		select {
		case <-p.Done():
			return
		case <-time.After(c.Grace):
		}
	}
	_ = syscall.Kill(-p.Pid(), syscall.SIGKILL)
}

// commandStreams are the pipes of a Command: the child's ends, given to it
// and closed once it runs, and mini-claude's, copied from and to.
type commandStreams struct {
	child []*os.File
	// copies are the goroutines copying to and from mini-claude's ends.
	copies []func()
	ends   []*os.File
	wg     sync.WaitGroup
}

func (s *commandStreams) input(data []byte) (*os.File, error) {
	if data == nil {
		return nil, nil
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("create the input pipe: %w", err)
	}
	s.child, s.ends = append(s.child, r), append(s.ends, w)
	s.copies = append(s.copies, func() {
		_, _ = w.Write(data)
		_ = w.Close()
	})
	return r, nil
}

func (s *commandStreams) output(dst io.Writer) (*os.File, error) {
	if dst == nil {
		return nil, nil
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("create the output pipe: %w", err)
	}
	s.child, s.ends = append(s.child, w), append(s.ends, r)
	s.copies = append(s.copies, func() { _, _ = io.Copy(dst, r) })
	return w, nil
}

func (s *commandStreams) closeChildEnds() {
	for _, f := range s.child {
		_ = f.Close()
	}
	s.child = nil
}

// begin starts the copies.
func (s *commandStreams) begin() {
	for _, copy := range s.copies {
		s.wg.Go(copy)
	}
}

// settle waits up to delay for the copies to end, then closes mini-claude's
// ends under those still running and waits for them.
func (s *commandStreams) settle(delay time.Duration) {
	done := make(chan struct{})
	go func() {
		s.wg.Wait()
		close(done)
	}()
	if delay > 0 {
		select {
		case <-done:
		case <-time.After(delay):
		}
	} else {
		<-done
	}
	s.closeAll()
	<-done
}

func (s *commandStreams) closeAll() {
	s.closeChildEnds()
	for _, f := range s.ends {
		_ = f.Close()
	}
	s.ends = nil
}

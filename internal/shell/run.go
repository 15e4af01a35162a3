package shell

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/mini-claude/mini-claude/internal/credentials"
	"github.com/mini-claude/mini-claude/internal/reaper"
)

// Spec describes one command for Start.
type Spec struct {
	// Command is bash source, run with bash -c.
	Command string
	// Dir is the working directory the command starts in.
	Dir string
	// Env is the user's environment the command inherits, usually
	// credentials.ChildEnv of os.Environ(); nil is os.Environ() without the
	// credentials mini-claude uses. Start adds the non-interactive settings
	// (see NonInteractive).
	Env []string
	// Stdin is the command's standard input, such as a pipe's read end; nil is /dev/null.
	Stdin *os.File
	// Output receives stdout and stderr merged, in the order they were written.
	// It is written from one goroutine at a time.
	Output io.Writer
	// Sandbox, when not nil, limits the directories the command may write to.
	Sandbox *Sandbox
}

// Exit is how a command ended.
type Exit struct {
	// Code is the exit status; a command killed by signal N gets 128+N, as bash reports it.
	Code int
	// Signal is the signal that killed the command, or 0.
	Signal syscall.Signal
	// Dir is the command's final working directory (`pwd -P` when it exited),
	// or "" when it did not report one (killed, exec'd away, or it replaced the EXIT trap).
	Dir string
}

// settleTime is how long a finished command's output may keep arriving from
// children it left running (`server &`) before the result is formed without it.
const settleTime = 100 * time.Millisecond

// cwdFD is the file descriptor on which the wrapper reports the final directory.
const cwdFD = 3

// Process is a running command: bash in its own session and process group,
// started by the process helper (internal/reaper) so that it and what it
// leaves die with mini-claude, its merged output copied to Spec.Output.
type Process struct {
	proc    *reaper.Process
	pid     int
	cwdRead *os.File
	// outRead is the read end of the output pipe; copied is closed when
	// the copy from it has ended.
	outRead *os.File
	copied  chan struct{}
	exited  chan struct{}
	done    chan struct{}
	// mu guards out, which the copier writes to until the output is settled.
	mu   sync.Mutex
	out  io.Writer
	exit Exit
}

// launch is a command being prepared by the steps of Start.
type launch struct {
	spec *Spec
	// path is the program to execute and argv its arguments, argv[0] its name.
	path string
	argv []string
	env  []string
	// setsid starts bash in a session of its own.
	setsid bool
	// sandbox, when not nil, is where bash and its descendants may write.
	sandbox *reaper.Sandbox
	// extra are the files the command inherits from descriptor 3 on.
	extra []*os.File
}

// A step prepares one aspect of a launch; Start applies them in the order of steps.
type step func(*launch) error

// steps is the launch chain, in order:
//  1. trackCwd wraps the command so that it reports its final directory on fd 3;
//  2. nonInteractive sets the environment that makes prompts fail instead of waiting;
//  3. sandbox, when asked, has bash started from a thread of the process
//     helper that Landlock restricts, so bash and everything it runs inherit
//     the restriction;
//  4. isolate gives the command its own session, hence its own process group
//     and no controlling terminal, so /dev/tty prompts fail and the group can be killed.
var steps = []step{trackCwd, nonInteractive, sandbox, isolate}

// Start runs spec.Command with bash, stdin from spec.Stdin, and returns at once.
// The command outlives no one: stop it with Terminate or Kill.
func Start(spec Spec) (*Process, error) {
	if spec.Output == nil {
		spec.Output = io.Discard
	}
	bash, err := bashPath()
	if err != nil {
		return nil, err
	}
	l := &launch{spec: &spec, path: bash, argv: []string{"bash", "-c", spec.Command}, env: spec.Env}
	if l.env == nil {
		l.env = credentials.ChildEnv(os.Environ(), nil)
	}
	for _, s := range steps {
		if err := s(l); err != nil {
			return nil, err
		}
	}
	return l.start()
}

var bashOnce = sync.OnceValues(func() (string, error) {
	path, err := exec.LookPath("bash")
	if err != nil {
		return "", fmt.Errorf("bash is not installed or not on PATH (%w); install bash to run commands", err)
	}
	return path, nil
})

func bashPath() (string, error) { return bashOnce() }

// trackCwd makes the command print its final directory on cwdFD when bash
// exits, through an EXIT trap set on the same line, so line numbers in bash's
// own error messages stay those of the command.
func trackCwd(l *launch) error {
	l.argv[len(l.argv)-1] = fmt.Sprintf("trap 'pwd -P >&%d' EXIT; %s", cwdFD, l.spec.Command)
	return nil
}

func isolate(l *launch) error {
	l.setsid = true
	return nil
}

func (l *launch) start() (*Process, error) {
	outRead, outWrite, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("create the output pipe: %w", err)
	}
	cwdRead, cwdWrite, err := os.Pipe()
	if err != nil {
		outRead.Close()
		outWrite.Close()
		return nil, fmt.Errorf("create the directory pipe: %w", err)
	}
	proc, err := reaper.Start(reaper.Spec{
		Path: l.path, Args: l.argv, Env: l.env, Dir: l.spec.Dir,
		Files:  append([]*os.File{l.spec.Stdin, outWrite, outWrite, cwdWrite}, l.extra...),
		Setsid: l.setsid, Sandbox: l.sandbox,
	})
	outWrite.Close()
	cwdWrite.Close()
	if err != nil {
		outRead.Close()
		cwdRead.Close()
		return nil, startError(l.spec.Dir, err)
	}
	p := &Process{proc: proc, pid: proc.Pid(), cwdRead: cwdRead, out: l.spec.Output, outRead: outRead,
		copied: make(chan struct{}), exited: make(chan struct{}), done: make(chan struct{})}
	go p.copyOutput()
	go p.wait()
	return p, nil
}

func startError(dir string, err error) error {
	if errors.Is(err, reaper.ErrSandbox) {
		return fmt.Errorf("%w; rerun the command with dangerouslyDisableSandbox", err)
	}
	if errors.Is(err, os.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		if _, statErr := os.Stat(dir); statErr != nil {
			return fmt.Errorf("the working directory %s no longer exists: %w", dir, statErr)
		}
	}
	return fmt.Errorf("start bash: %w", err)
}

// copyOutput copies the merged output until every holder of the pipe has
// closed it, or Kill closes it; once the output is settled it keeps draining
// into nothing, so a child left running never blocks on a full pipe.
func (p *Process) copyOutput() {
	defer p.outRead.Close()
	defer close(p.copied)
	buf := make([]byte, 256<<10)
	for {
		n, err := p.outRead.Read(buf)
		if n > 0 {
			p.mu.Lock()
			_, _ = p.out.Write(buf[:n])
			p.mu.Unlock()
		}
		if err != nil {
			return
		}
	}
}

// wait reaps bash, reads the directory it reported, and marks the output
// settled when the pipe closes or settleTime after the exit, whichever is first.
func (p *Process) wait() {
	exit := exitOf(p.proc.Wait())
	exit.Dir = readDir(p.cwdRead)
	p.cwdRead.Close()
	p.exit = exit
	close(p.exited)
	select {
	case <-p.copied:
	case <-time.After(settleTime):
	}
	p.mu.Lock()
	p.out = io.Discard
	p.mu.Unlock()
	close(p.done)
}

// exitOf is how bash ended; -1 when that is unknown (the helper died).
func exitOf(status syscall.WaitStatus, err error) Exit {
	switch {
	case err != nil:
		return Exit{Code: -1}
	case status.Signaled():
		return Exit{Code: 128 + int(status.Signal()), Signal: status.Signal()}
	}
	return Exit{Code: status.ExitStatus()}
}

// readDir reads the directory the EXIT trap printed. Bash has exited, so the
// line is in the pipe already; children that inherited the descriptor may keep
// it open, hence the deadline instead of waiting for the end of the pipe.
func readDir(r *os.File) string {
	_ = r.SetReadDeadline(time.Now().Add(20 * time.Millisecond))
	line, err := bufio.NewReader(r).ReadString('\n')
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(line, "\n")
}

// Pid is the process id of bash, which is also the id of its process group and session.
func (p *Process) Pid() int { return p.pid }

// Exited is closed when bash itself has exited; children it left may still run.
func (p *Process) Exited() <-chan struct{} { return p.exited }

// Done is closed when the command has exited and its output is settled: no
// more writes reach Spec.Output after it.
func (p *Process) Done() <-chan struct{} { return p.done }

// Exit returns how the command ended; valid once Exited is closed.
func (p *Process) Exit() Exit {
	<-p.exited
	return p.exit
}

package reaper

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"runtime"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// client is mini-claude's side of the helper.
type client struct {
	conn   *net.UnixConn
	helper *os.Process
	// writeMu keeps requests whole on the socket.
	writeMu sync.Mutex

	mu      sync.Mutex
	nextID  uint64
	pending map[uint64]chan outcome
	running map[int]*Process
	// early holds the ends that arrived before the start's answer was read.
	early map[int]syscall.WaitStatus
	// err says why the helper is gone; nil while it serves.
	err error
}

var (
	currentMu sync.Mutex
	current   *client
	devNull   = sync.OnceValues(func() (*os.File, error) { return os.OpenFile(os.DevNull, os.O_RDWR, 0) })
)

// Start starts the process through the helper, starting the helper first if
// it is not running, and returns once the process runs or could not start
// (the error is then the system's, such as ENOENT, or wraps ErrSandbox).
// The caller may close its copies of spec.Files once Start returns.
//
// When the helper cannot start (no /proc, say), Start starts the process
// directly, as on other systems, and says so once on stderr.
func Start(spec Spec) (*Process, error) {
	c, err := helperClient()
	if err != nil {
		warnOnce.Do(func() {
			fmt.Fprintf(os.Stderr, "mini-claude: %v; commands run without it, and what they leave may outlive mini-claude\n", err)
		})
		if spec.Sandbox != nil {
			return nil, fmt.Errorf("%w: %w", ErrSandbox, err)
		}
		return startDirect(spec)
	}
	return c.start(spec)
}

var warnOnce sync.Once

// helperClient returns the running helper's client, starting a helper when
// there is none or the last one died.
func helperClient() (*client, error) {
	currentMu.Lock()
	defer currentMu.Unlock()
	if current != nil && current.alive() {
		return current, nil
	}
	c, err := startHelper()
	if err != nil {
		return nil, fmt.Errorf("start the process helper: %w", err)
	}
	current = c
	return c, nil
}

func startHelper() (*client, error) {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("create the socket: %w", err)
	}
	mine, theirs := os.NewFile(uintptr(fds[0]), "reaper"), os.NewFile(uintptr(fds[1]), "reaper-helper")
	defer theirs.Close()
	null, err := devNull()
	if err != nil {
		mine.Close()
		return nil, err
	}
	// /proc/self/exe is this very program, even if its file was replaced since.
	helper, err := os.StartProcess("/proc/self/exe", []string{os.Args[0], HelperArg}, &os.ProcAttr{
		// No stdout or stderr: whoever reads mini-claude's to their end must
		// not wait for the helper; no environment: the commands get theirs
		// with each request, and the helper needs none, credentials least.
		Files: []*os.File{null, null, null, theirs},
		Env:   []string{},
		// A group of its own: the terminal's signals are for mini-claude.
		Sys: &syscall.SysProcAttr{Setpgid: true},
	})
	if err != nil {
		mine.Close()
		return nil, err
	}
	conn, err := net.FileConn(mine)
	mine.Close()
	if err != nil {
		_ = helper.Kill()
		_, _ = helper.Wait()
		return nil, fmt.Errorf("use the socket: %w", err)
	}
	c := &client{conn: conn.(*net.UnixConn), helper: helper, pending: map[uint64]chan outcome{},
		running: map[int]*Process{}, early: map[int]syscall.WaitStatus{}}
	go c.read()
	return c, nil
}

func (c *client) alive() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err == nil
}

func (c *client) start(spec Spec) (*Process, error) {
	files := make([]int, len(spec.Files))
	for i, f := range spec.Files {
		if f == nil {
			null, err := devNull()
			if err != nil {
				return nil, err
			}
			f = null
		}
		// Fd makes the descriptor blocking, as os/exec does for a child.
		files[i] = int(f.Fd())
	}
	answer := make(chan outcome, 1)
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return nil, c.err
	}
	c.nextID++
	req := request{ID: c.nextID, Path: spec.Path, Args: spec.Args, Env: spec.Env, Dir: spec.Dir,
		Files: len(files), Setsid: spec.Setsid, Setpgid: spec.Setpgid, Sandbox: spec.Sandbox}
	c.pending[req.ID] = answer
	c.mu.Unlock()
	msg, err := frame(req)
	if err == nil {
		err = c.send(msg, files)
	}
	// The descriptors are copied into the message: the files may close after it.
	runtime.KeepAlive(spec.Files)
	if err != nil {
		c.fail(fmt.Errorf("the process helper is unreachable: %w", err))
	}
	a := <-answer
	return a.p, a.err
}

// outcome is the answer to a start.
type outcome struct {
	p   *Process
	err error
}

// send writes a request with its descriptors, which travel with its first bytes.
func (c *client) send(msg []byte, fds []int) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	var rights []byte
	if len(fds) > 0 {
		rights = unix.UnixRights(fds...)
	}
	n, _, err := c.conn.WriteMsgUnix(msg, rights, nil)
	if err != nil {
		return err
	}
	if n < len(msg) {
		_, err = c.conn.Write(msg[n:])
	}
	return err
}

// read dispatches the helper's messages until it is gone.
func (c *client) read() {
	dec := json.NewDecoder(c.conn)
	for {
		var m message
		if err := dec.Decode(&m); err != nil {
			c.fail(fmt.Errorf("the process helper ended (%v)", err))
			_, _ = c.helper.Wait()
			return
		}
		c.dispatch(m)
	}
}

func (c *client) dispatch(m message) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if m.Exit != 0 {
		status := syscall.WaitStatus(m.Status)
		if p := c.running[m.Exit]; p != nil {
			delete(c.running, m.Exit)
			p.finish(status, nil)
		} else {
			c.early[m.Exit] = status
		}
		return
	}
	answer := c.pending[m.ID]
	delete(c.pending, m.ID)
	if answer == nil {
		return
	}
	if m.Pid == 0 {
		answer <- outcome{err: m.startError()}
		return
	}
	p := &Process{pid: m.Pid, done: make(chan struct{})}
	if status, ok := c.early[m.Pid]; ok {
		delete(c.early, m.Pid)
		p.finish(status, nil)
	} else {
		c.running[m.Pid] = p
	}
	answer <- outcome{p: p}
}

// fail marks the helper gone: the starts waiting for an answer fail, and so
// do the waits for the processes it ran, which its death killed.
func (c *client) fail(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return
	}
	c.err = err
	_ = c.conn.Close()
	for id, answer := range c.pending {
		delete(c.pending, id)
		answer <- outcome{err: err}
	}
	for pid, p := range c.running {
		delete(c.running, pid)
		p.finish(0, err)
	}
}

package reaper

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// init makes the binary the helper when it was started as one; it then
// never returns to the program's main.
func init() {
	if len(os.Args) == 2 && os.Args[1] == HelperArg {
		os.Exit(serve())
	}
}

// helper is the state of the helper process.
type helper struct {
	sock int
	// writeMu keeps the helper's messages whole on the socket.
	writeMu sync.Mutex
	// mu guards children, the processes the helper started and whose end
	// mini-claude waits for; it is held from fork to registration so that
	// the reaper cannot see an exit before it knows whose it is.
	mu       sync.Mutex
	children map[int]bool
	// started wakes the reaper when it has found no child.
	started chan struct{}
	// boxes are the sandboxed launchers, one per set of writable places.
	boxes map[string]*launcher
}

// serve is the helper's life: it starts what it is asked to until
// mini-claude is gone, then kills everything below it.
func serve() int {
	// The requests are read, and the unsandboxed commands forked, on this
	// thread, which never ends: see launcher for why that matters.
	runtime.LockOSThread()
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		fmt.Fprintln(os.Stderr, "mini-claude process helper: become a subreaper:", err)
		return 2
	}
	// Asked to stop, the helper stops what it started first. (Ignoring a
	// signal instead would pass SIG_IGN on to every command, through exec.)
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		<-stop
		killDescendants()
		os.Exit(0)
	}()
	h := &helper{sock: helperFD, children: map[int]bool{}, started: make(chan struct{}, 1), boxes: map[string]*launcher{}}
	go h.reap()
	for {
		req, fds, err := readRequest(h.sock)
		if err != nil {
			closeAll(fds)
			if !errors.Is(err, io.EOF) {
				fmt.Fprintln(os.Stderr, "mini-claude process helper:", err)
			}
			break
		}
		h.start(req, fds)
	}
	killDescendants()
	return 0
}

// start starts the process req asks for and answers with its pid.
func (h *helper) start(req request, fds []int) {
	defer closeAll(fds)
	via := func(fork func()) { fork() }
	if req.Sandbox != nil {
		ln, err := h.box(req.Sandbox)
		if err != nil {
			h.send(message{ID: req.ID, Sandbox: true, Err: err.Error()})
			return
		}
		via = ln.do
	}
	files := make([]uintptr, len(fds))
	for i, fd := range fds {
		files[i] = uintptr(fd)
	}
	attr := &syscall.ProcAttr{Dir: req.Dir, Env: req.Env, Files: files, Sys: &syscall.SysProcAttr{
		Setsid: req.Setsid, Setpgid: req.Setpgid && !req.Setsid, Pdeathsig: syscall.SIGKILL,
	}}
	var pid int
	var err error
	h.mu.Lock()
	via(func() { pid, err = syscall.ForkExec(req.Path, req.Args, attr) })
	if err == nil {
		h.children[pid] = true
		select {
		case h.started <- struct{}{}:
		default:
		}
	}
	h.mu.Unlock()
	var errno syscall.Errno
	switch {
	case errors.As(err, &errno):
		h.send(message{ID: req.ID, Errno: int(errno), Err: err.Error()})
	case err != nil:
		h.send(message{ID: req.ID, Err: err.Error()})
	default:
		h.send(message{ID: req.ID, Pid: pid})
	}
}

// box returns the launcher restricted to the sandbox's places.
func (h *helper) box(s *Sandbox) (*launcher, error) {
	key := strings.Join(s.Dirs, "\x00") + "\x01" + strings.Join(s.Files, "\x00")
	ln := h.boxes[key]
	if ln == nil {
		ln = newLauncher(s)
		h.boxes[key] = ln
	}
	return ln, ln.ready()
}

// reap collects every child that ends, adopted orphans included, and
// reports the end of those mini-claude started. It waits in wait4 itself,
// which the kernel wakes at once, rather than for SIGCHLD through the
// runtime's signal handling; with no child it waits for the next start.
func (h *helper) reap() {
	for {
		var status syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &status, 0, nil)
		switch {
		case errors.Is(err, syscall.ECHILD):
			<-h.started
			continue
		case err != nil || pid <= 0:
			continue
		}
		h.mu.Lock()
		mine := h.children[pid]
		delete(h.children, pid)
		h.mu.Unlock()
		if mine {
			h.send(message{Exit: pid, Status: uint32(status)})
		}
	}
}

// send writes a message; once mini-claude is gone it is lost, which is fine.
func (h *helper) send(m message) {
	line, _ := json.Marshal(m)
	line = append(line, '\n')
	h.writeMu.Lock()
	defer h.writeMu.Unlock()
	for len(line) > 0 {
		n, err := syscall.Write(h.sock, line)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return
		}
		line = line[n:]
	}
}

func closeAll(fds []int) {
	for _, fd := range fds {
		_ = syscall.Close(fd)
	}
}

// killDescendants kills every process below the helper with SIGKILL and
// reaps its children until none is left. Being a subreaper, the helper
// adopts whatever a killed process leaves, so each pass finds what the last
// one orphaned, including a process forked meanwhile.
func killDescendants() {
	self := os.Getpid()
	for {
		for _, pid := range descendants(self) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		for {
			pid, err := syscall.Wait4(-1, nil, syscall.WNOHANG, nil)
			if errors.Is(err, syscall.ECHILD) {
				return
			}
			if pid <= 0 && !errors.Is(err, syscall.EINTR) {
				break
			}
		}
		time.Sleep(time.Millisecond)
	}
}

// descendants lists the processes below root, read from /proc.
func descendants(root int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	children := map[int][]int{}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if ppid, ok := parentOf(pid); ok {
			children[ppid] = append(children[ppid], pid)
		}
	}
	var found []int
	queue := []int{root}
	for len(queue) > 0 {
		next := children[queue[0]]
		queue = append(queue[1:], next...)
		found = append(found, next...)
	}
	return found
}

// parentOf reads the parent's pid from /proc/<pid>/stat, whose second field
// (the command name) may hold spaces and parentheses.
func parentOf(pid int) (int, bool) {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	s := string(stat)
	end := strings.LastIndexByte(s, ')')
	if end < 0 {
		return 0, false
	}
	fields := strings.Fields(s[end+1:])
	if len(fields) < 2 {
		return 0, false
	}
	ppid, err := strconv.Atoi(fields[1])
	return ppid, err == nil
}

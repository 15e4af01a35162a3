package cli

import (
	"errors"
	"io"
	"os"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// stoppableInput is the program's input of a stream session, made so that
// a Read blocked on it can be ended: the session's reader goroutine is then
// waited for however the session ends (a signal, a failure to start).
type stoppableInput struct {
	io.Reader
	// stop ends a blocked Read and every later one; nil when the input
	// cannot be stopped, and its reader is left to the process's exit.
	stop func()
	// done releases what the input holds once its reader has returned.
	done func()
}

// newStoppableInput makes in stoppable. A pipe or socket on a file (the
// Agent SDK's stdin) is read through a non-blocking duplicate that the
// runtime's poller watches, so a read deadline ends a blocked Read; the
// descriptor's mode is put back when done. A reader that is also
// a Closer (a pipe in a test) is stopped by closing it. A terminal is left
// as it is: it is shared with the shell.
func newStoppableInput(in io.Reader, terminal bool) stoppableInput {
	if f, ok := in.(*os.File); ok {
		if s, ok := pollable(f); ok && !terminal {
			return s
		}
		return stoppableInput{Reader: in, done: func() {}}
	}
	if c, ok := in.(io.Closer); ok {
		var once sync.Once
		return stoppableInput{Reader: in, stop: func() { once.Do(func() { _ = c.Close() }) }, done: func() {}}
	}
	return stoppableInput{Reader: in, done: func() {}}
}

// pollable duplicates f's descriptor in non-blocking mode when f is a pipe
// or a socket.
func pollable(f *os.File) (stoppableInput, bool) {
	info, err := f.Stat()
	if err != nil || info.Mode()&(os.ModeNamedPipe|os.ModeSocket) == 0 {
		return stoppableInput{}, false
	}
	raw, err := f.SyscallConn()
	if err != nil {
		return stoppableInput{}, false
	}
	dup, flags := -1, 0
	_ = raw.Control(func(fd uintptr) {
		if flags, err = unix.FcntlInt(fd, unix.F_GETFL, 0); err == nil {
			dup, err = unix.Dup(int(fd))
		}
	})
	if err != nil || dup < 0 {
		return stoppableInput{}, false
	}
	if err := unix.SetNonblock(dup, true); err != nil {
		_ = unix.Close(dup)
		return stoppableInput{}, false
	}
	nb := os.NewFile(uintptr(dup), f.Name())
	return stoppableInput{Reader: deadlineEOF{nb}, stop: func() { _ = nb.SetReadDeadline(time.Now()) }, done: func() {
		// The mode belongs to the open file, which f shares: put it back.
		if raw, err := nb.SyscallConn(); err == nil {
			_ = raw.Control(func(fd uintptr) { _ = unix.SetNonblock(int(fd), flags&unix.O_NONBLOCK != 0) })
		}
		_ = nb.Close()
	}}, true
}

// deadlineEOF reads r, a stopped read ending the input as its end does.
type deadlineEOF struct{ r io.Reader }

func (d deadlineEOF) Read(p []byte) (int, error) {
	n, err := d.r.Read(p)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		err = io.EOF
	}
	return n, err
}

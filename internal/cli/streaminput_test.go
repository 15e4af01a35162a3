package cli

import (
	"errors"
	"io"
	"os"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

func TestAStoppedInputEndsItsBlockedRead(t *testing.T) {
	tests := []struct {
		name string
		open func(t *testing.T) (in io.Reader, writer io.Closer)
		// wantEOF says the stopped read reports the input's end.
		wantEOF bool
	}{
		{"a pipe on a file, as the Agent SDK's stdin", func(t *testing.T) (io.Reader, io.Closer) {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { r.Close() })
			// Blocking, as the stdin a program gives its child is.
			raw, _ := r.SyscallConn()
			_ = raw.Control(func(fd uintptr) { _ = unix.SetNonblock(int(fd), false) })
			return r, w
		}, true},
		{"a pipe in memory", func(t *testing.T) (io.Reader, io.Closer) {
			r, w := io.Pipe()
			return r, w
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in, w := tt.open(t)
			defer w.Close()
			input := newStoppableInput(in, false)
			if input.stop == nil {
				t.Fatal("the input cannot be stopped")
			}
			read := make(chan error, 1)
			go func() {
				_, err := input.Read(make([]byte, 10))
				read <- err
			}()
			select {
			case err := <-read:
				t.Fatalf("the read returned %v before the stop", err)
			case <-time.After(50 * time.Millisecond):
			}
			input.stop()
			select {
			case err := <-read:
				if tt.wantEOF && !errors.Is(err, io.EOF) || err == nil {
					t.Errorf("the stopped read returned %v", err)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("the read went on after the stop")
			}
			input.done()
			if f, ok := in.(*os.File); ok {
				raw, _ := f.SyscallConn()
				_ = raw.Control(func(fd uintptr) {
					if nonblocking(t, fd) {
						t.Error("the descriptor's blocking mode was not put back")
					}
				})
			}
		})
	}
}

// nonblocking says whether fd's open file is in non-blocking mode.
func nonblocking(t *testing.T, fd uintptr) bool {
	t.Helper()
	flags, err := unix.FcntlInt(fd, unix.F_GETFL, 0)
	if err != nil {
		t.Fatal(err)
	}
	return flags&unix.O_NONBLOCK != 0
}

package mcp

import (
	"context"
	"fmt"
	"io"
	"os"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mini-claude/mini-claude/internal/reaper"
)

// stdioTransport runs a stdio server through the process helper
// (internal/reaper), so that the server and whatever it starts (the program
// an npx or uvx launcher runs) die with mini-claude, even when it is killed.
// It speaks to the server over its stdin and stdout, and closing the
// connection ends the server as the MCP specification asks: stdin closed,
// then SIGTERM, then SIGKILL, stopGrace apart.
type stdioTransport struct {
	spec   reaper.Spec
	stderr io.Writer
	// started records the server's process once it runs.
	started func(*reaper.Process)
}

// Connect starts the server.
func (t *stdioTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	var pipes [3][2]*os.File
	for i := range pipes {
		r, w, err := os.Pipe()
		if err != nil {
			closePipes(pipes[:i])
			return nil, fmt.Errorf("create the server's pipes: %w", err)
		}
		pipes[i] = [2]*os.File{r, w}
	}
	spec := t.spec
	spec.Files = []*os.File{pipes[0][0], pipes[1][1], pipes[2][1]}
	spec.Setpgid = true
	proc, err := reaper.Start(spec)
	for _, f := range spec.Files {
		f.Close()
	}
	if err != nil {
		pipes[0][1].Close()
		pipes[1][0].Close()
		pipes[2][0].Close()
		return nil, fmt.Errorf("start %s: %w", spec.Path, err)
	}
	t.started(proc)
	in := &serverInput{File: pipes[0][1], proc: proc, stdout: pipes[1][0], stderr: pipes[2][0], copied: make(chan struct{})}
	go func() {
		defer close(in.copied)
		_, _ = io.Copy(t.stderr, in.stderr)
	}()
	// The connection closes through stdin: the server's output is read to its end.
	return (&mcp.IOTransport{Reader: io.NopCloser(in.stdout), Writer: in}).Connect(ctx)
}

func closePipes(pipes [][2]*os.File) {
	for _, p := range pipes {
		p[0].Close()
		p[1].Close()
	}
}

// serverInput is the server's stdin; closing it ends the server.
type serverInput struct {
	*os.File
	proc           *reaper.Process
	stdout, stderr *os.File
	// copied is closed when the copy of the server's stderr has ended.
	copied chan struct{}
}

// Close closes stdin and waits for the server to exit, sending SIGTERM and
// then SIGKILL when it takes longer than stopGrace; then it stops reading
// its output, stopGrace later at most for processes it left holding it.
func (in *serverInput) Close() error {
	err := in.File.Close()
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGKILL} {
		if in.ended(stopGrace) {
			break
		}
		_ = syscall.Kill(in.proc.Pid(), sig)
	}
	<-in.proc.Done()
	select {
	case <-in.copied:
	case <-time.After(stopGrace):
	}
	in.stdout.Close()
	in.stderr.Close()
	<-in.copied
	return err
}

// ended reports whether the server ends within d.
func (in *serverInput) ended(d time.Duration) bool {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-in.proc.Done():
		return true
	case <-timer.C:
		return false
	}
}

package reaper

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"syscall"

	"golang.org/x/sys/unix"
)

// helperFD is the helper's end of the socket it shares with mini-claude.
const helperFD = 3

// request asks the helper to start a process; its descriptors travel with it
// (SCM_RIGHTS), Files in order.
type request struct {
	ID      uint64   `json:"id"`
	Path    string   `json:"path"`
	Args    []string `json:"args"`
	Env     []string `json:"env"`
	Dir     string   `json:"dir,omitempty"`
	Files   int      `json:"files"`
	Setsid  bool     `json:"setsid,omitempty"`
	Setpgid bool     `json:"setpgid,omitempty"`
	Sandbox *Sandbox `json:"sandbox,omitempty"`
}

// message is what the helper sends: the answer to request ID (Pid, or Errno
// and Err), or, with Exit set, how the process Exit it started ended.
type message struct {
	ID      uint64 `json:"id,omitempty"`
	Pid     int    `json:"pid,omitempty"`
	Errno   int    `json:"errno,omitempty"`
	Err     string `json:"err,omitempty"`
	Sandbox bool   `json:"sandbox,omitempty"`
	Exit    int    `json:"exit,omitempty"`
	Status  uint32 `json:"status,omitempty"`
}

// startError is the error of a refused start.
func (m message) startError() error {
	switch {
	case m.Sandbox:
		return fmt.Errorf("%w: %s", ErrSandbox, m.Err)
	case m.Errno != 0:
		return syscall.Errno(m.Errno)
	}
	return errors.New(m.Err)
}

// maxRequest bounds a request: a command line and its environment.
const maxRequest = 64 << 20

// frame is a request as sent: its length, then its JSON.
func frame(req request) ([]byte, error) {
	payload, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("encode the request: %w", err)
	}
	return append(binary.LittleEndian.AppendUint32(make([]byte, 0, 4+len(payload)), uint32(len(payload))), payload...), nil
}

// readRequest reads one request and the descriptors sent with it from the
// blocking socket fd. It reads exactly the request's bytes, never into the
// next one, since the descriptors of a request arrive with its first byte.
func readRequest(fd int) (request, []int, error) {
	var fds []int
	head := make([]byte, 4)
	if err := readFull(fd, head, &fds); err != nil {
		return request{}, fds, err
	}
	n := binary.LittleEndian.Uint32(head)
	if n > maxRequest {
		return request{}, fds, fmt.Errorf("a request of %d bytes", n)
	}
	body := make([]byte, n)
	if err := readFull(fd, body, &fds); err != nil {
		return request{}, fds, err
	}
	var req request
	if err := json.Unmarshal(body, &req); err != nil {
		return request{}, fds, fmt.Errorf("decode the request: %w", err)
	}
	if len(fds) != req.Files {
		return request{}, fds, fmt.Errorf("a request with %d descriptors of %d", len(fds), req.Files)
	}
	return req, fds, nil
}

// readFull fills buf from fd, collecting the descriptors that come with it.
func readFull(fd int, buf []byte, fds *[]int) error {
	oob := make([]byte, unix.CmsgSpace(4*256))
	for len(buf) > 0 {
		n, oobn, _, _, err := unix.Recvmsg(fd, buf, oob, unix.MSG_CMSG_CLOEXEC)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return fmt.Errorf("read a request: %w", err)
		}
		if oobn > 0 {
			got, err := parseRights(oob[:oobn])
			*fds = append(*fds, got...)
			if err != nil {
				return err
			}
		}
		if n == 0 {
			return io.EOF
		}
		buf = buf[n:]
	}
	return nil
}

func parseRights(oob []byte) ([]int, error) {
	msgs, err := unix.ParseSocketControlMessage(oob)
	if err != nil {
		return nil, fmt.Errorf("parse the descriptors: %w", err)
	}
	var fds []int
	for _, m := range msgs {
		got, err := unix.ParseUnixRights(&m)
		if err != nil {
			return fds, fmt.Errorf("parse the descriptors: %w", err)
		}
		fds = append(fds, got...)
	}
	return fds, nil
}

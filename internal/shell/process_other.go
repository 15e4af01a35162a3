//go:build !linux

package shell

import (
	"errors"
	"syscall"
)

// signalSession signals the process group; there is no portable way to list
// the other processes of a session.
func signalSession(sid int, sig syscall.Signal) {
	_ = syscall.Kill(-sid, sig)
}

func groupAlive(pid int) bool {
	err := syscall.Kill(-pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

//go:build !linux

package shell

import (
	"errors"
	"syscall"
)

// signalSession signals the process groups; there is no portable way to list
// the other processes of a session.
func signalSession(sig syscall.Signal, sids ...int) []int {
	for _, sid := range sids {
		_ = syscall.Kill(-sid, sig)
	}
	return nil
}

func anyAlive(sid int, _ []int) bool { return groupAlive(sid) }

func groupAlive(pid int) bool {
	err := syscall.Kill(-pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

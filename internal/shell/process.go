package shell

import (
	"errors"
	"syscall"
	"time"
)

// TerminateGrace is how long Terminate waits after SIGTERM before SIGKILL.
const TerminateGrace = 500 * time.Millisecond

// Terminate stops the command and everything it started: SIGTERM to its
// process group and session, then, after grace or as soon as none of them
// runs, SIGKILL to whatever is left. It returns as Kill does.
func (p *Process) Terminate(grace time.Duration) {
	pids := signalSession(syscall.SIGTERM, p.pid)
	deadline := time.NewTimer(grace)
	defer deadline.Stop()
	poll := time.NewTicker(10 * time.Millisecond)
	defer poll.Stop()
wait:
	for anyAlive(p.pid, pids) {
		select {
		case <-deadline.C:
			break wait
		case <-poll.C:
		}
	}
	p.Kill()
}

// Kill sends SIGKILL to the command's process group and to every process left
// in its session, such as `sleep 1000 &`, then closes the Process.
func (p *Process) Kill() {
	KillGroups(p.pid)
	p.Close()
}

// Close waits for bash to exit and its output to settle, stops copying the
// output of processes it left running (from then on they get an error when
// they write to it), and returns once the goroutines of the Process have
// ended. It sends no signal.
func (p *Process) Close() {
	<-p.done
	_ = p.outRead.Close()
	<-p.copied
}

// Copying reports whether the output is still being copied: bash, or a
// process it left running, holds it open, and Close has not been called.
func (p *Process) Copying() bool {
	select {
	case <-p.copied:
		return false
	default:
		return true
	}
}

// KillGroups sends SIGKILL to the process groups and sessions led by pids:
// what commands started by Start left behind, even after bash has exited.
func KillGroups(pids ...int) {
	signalSession(syscall.SIGKILL, pids...)
}

// GroupGone reports, with one signal 0, that no process is left in the
// process group pid; unlike GroupAlive it counts zombies not yet reaped as
// present, and it does not see session members in other groups.
func GroupGone(pid int) bool {
	return errors.Is(syscall.Kill(-pid, 0), syscall.ESRCH)
}

// GroupAlive reports whether any process of the group or session led by pid still runs.
func GroupAlive(pid int) bool { return groupAlive(pid) }

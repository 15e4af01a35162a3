package fleet

import (
	"os/exec"
	"syscall"
)

// dieWithParent has the kernel kill a run when its worker dies, even by
// SIGKILL, so a dead worker leaves no run going on beside the redelivered one.
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

//go:build !linux

package fleet

import "os/exec"

// dieWithParent does nothing where the platform has no parent-death signal:
// a run there outlives a killed worker until it ends.
func dieWithParent(*exec.Cmd) {}

//go:build !linux

package reaper

import "fmt"

// Start starts the process directly, as os/exec would: on this system the
// processes it leaves behind when mini-claude is killed are not watched.
func Start(spec Spec) (*Process, error) {
	if spec.Sandbox != nil {
		return nil, fmt.Errorf("%w: the sandbox needs Linux", ErrSandbox)
	}
	return startDirect(spec)
}

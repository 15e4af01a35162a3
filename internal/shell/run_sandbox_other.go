//go:build !linux

package shell

import "errors"

func landlockABI() (int, error) {
	return 0, errors.New("Landlock is a Linux feature; commands run without a sandbox on this system")
}

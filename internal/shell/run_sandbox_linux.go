package shell

import (
	"errors"
	"fmt"
	"syscall"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

func landlockABI() (int, error) {
	abi, err := ll.LandlockGetABIVersion()
	switch {
	case errors.Is(err, syscall.ENOSYS):
		return 0, errors.New("the kernel lacks Landlock (Linux 5.13 or later with CONFIG_SECURITY_LANDLOCK is needed)")
	case errors.Is(err, syscall.EOPNOTSUPP):
		return 0, errors.New("Landlock is built into the kernel but not enabled (add landlock to the lsm= boot parameter)")
	case err != nil:
		return 0, fmt.Errorf("probe Landlock: %w", err)
	case abi < 1:
		return 0, fmt.Errorf("unexpected Landlock ABI version %d", abi)
	}
	return abi, nil
}

package shell

import (
	"errors"
	"fmt"
	"os"
	"syscall"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// writeRights are the file-system rights the sandbox handles: every way of
// changing a file or directory. Reading and executing stay unrestricted, as do
// the network and signals.
const writeRights = ll.AccessFSWriteFile | ll.AccessFSRemoveDir | ll.AccessFSRemoveFile |
	ll.AccessFSMakeChar | ll.AccessFSMakeDir | ll.AccessFSMakeReg | ll.AccessFSMakeSock |
	ll.AccessFSMakeFifo | ll.AccessFSMakeBlock | ll.AccessFSMakeSym | ll.AccessFSRefer |
	ll.AccessFSTruncate

// fileWriteRights are the write rights that apply to a single file.
const fileWriteRights = ll.AccessFSWriteFile | ll.AccessFSTruncate

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

// runHelper restricts this process to writing inside the given directories and
// replaces it with the command; it returns only on failure, and then the
// command has not run.
func runHelper(args []string) error {
	writable, command, err := splitHelperArgs(args)
	if err != nil {
		return fmt.Errorf("bad helper arguments: %w", err)
	}
	cfg := landlock.Config{HandledAccessFS: writeRights}.BestEffort()
	err = cfg.RestrictPaths(
		landlock.PathAccess(writeRights, writable...).IgnoreIfMissing(),
		landlock.PathAccess(fileWriteRights, writableDevices...).IgnoreIfMissing(),
	)
	if err != nil {
		return fmt.Errorf("restrict writes with Landlock: %w; rerun the command with dangerouslyDisableSandbox", err)
	}
	return fmt.Errorf("run %s: %w", command[0], syscall.Exec(command[0], command[1:], os.Environ()))
}

package shell

import (
	"errors"
	"fmt"
	"runtime"
	"syscall"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
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

func lockThread() { runtime.LockOSThread() }

// restrictThread restricts the calling OS thread alone (no TSYNC) to writing
// inside writable and the harmless devices, with no_new_privs, which Landlock
// requires and which keeps setuid programs from lifting the restriction.
func restrictThread(writable []string) error {
	cfg := landlock.Config{HandledAccessFS: writeRights}.BestEffort()
	fd, _, err := cfg.NewRulesetFD(
		landlock.PathAccess(writeRights, writable...).IgnoreIfMissing(),
		landlock.PathAccess(fileWriteRights, writableDevices...).IgnoreIfMissing(),
	)
	if err != nil {
		return fmt.Errorf("build the Landlock rules: %w", err)
	}
	if fd < 0 {
		return errors.New("Landlock has nothing to enforce on this kernel")
	}
	defer syscall.Close(fd)
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("set no_new_privs: %w", err)
	}
	if err := ll.LandlockRestrictSelf(fd, 0); err != nil {
		return fmt.Errorf("restrict the launcher thread: %w", err)
	}
	return nil
}

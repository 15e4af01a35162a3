// Package atomicfile updates small files that several processes may change at
// once (settings, the trust record): under an exclusive lock, each update
// reads the file as it is and replaces it whole, so no writer's change is lost
// and no reader sees a half-written file.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// ErrUnchanged, returned by an update function, leaves the file as it is.
var ErrUnchanged = errors.New("unchanged")

// Update locks path (through path+".lock"), reads it (nil when it does not
// exist) and replaces it with what change returns, creating its folder when
// needed. When change returns ErrUnchanged the file is not written and Update
// returns nil; any other error is returned as it is.
func Update(path string, perm fs.FileMode, change func(old []byte) ([]byte, error)) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	lock, err := os.OpenFile(path+".lock", os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return fmt.Errorf("lock %s: %w", path, err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return fmt.Errorf("lock %s: %w", path, err)
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("read %s: %w", path, err)
	}
	data, err := change(old)
	if errors.Is(err, ErrUnchanged) {
		return nil
	}
	if err != nil {
		return err
	}
	return Replace(path, data, perm)
}

// Replace replaces path with data through a temporary file in the same
// folder and a rename, so a reader or a crash sees the old content or the
// new, never a mix. The file gets perm; its folder must exist.
func Replace(path string, data []byte, perm fs.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+"-*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(perm); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

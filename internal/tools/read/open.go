package read

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// openRegular opens path for reading and checks, on the open file, that it is
// a regular file, so nothing that blocks or never ends is read.
func openRegular(path string) (*os.File, os.FileInfo, error) {
	f, err := os.OpenFile(path, openFlags, 0)
	switch {
	case errors.Is(err, fs.ErrPermission):
		return nil, nil, fmt.Errorf("cannot read %s: permission denied. Check its owner and mode with Bash (ls -l), or ask the user for access", path)
	case err != nil:
		return nil, nil, fmt.Errorf("open %s: %w", path, err)
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("stat %s: %w", path, err)
	}
	if !info.Mode().IsRegular() {
		f.Close()
		return nil, nil, notRegularError(path, info.Mode())
	}
	return f, info, nil
}

// notRegularError refuses a path that is neither a file nor a folder.
func notRegularError(path string, mode os.FileMode) error {
	kind := "not a regular file"
	switch {
	case mode&os.ModeNamedPipe != 0:
		kind = "a named pipe (FIFO)"
	case mode&os.ModeSocket != 0:
		kind = "a socket"
	case mode&os.ModeDevice != 0:
		kind = "a device"
	}
	return fmt.Errorf("cannot read %s: it is %s, which may block or never end. Read a regular file instead", path, kind)
}

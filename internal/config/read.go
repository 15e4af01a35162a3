package config

import (
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
)

// MaxFileBytes bounds a configuration file a folder may hold (settings,
// .mcp.json, agent types): far above any real one.
const MaxFileBytes = 1 << 20

// ErrNotRegular is the error of ReadSmallFile for a path that is not a
// regular file, such as a named pipe, a device or a folder.
var ErrNotRegular = errors.New("not a regular file")

// ReadSmallFile reads a configuration file that may be a folder's: only a
// regular file (a FIFO or a device is refused at once, never waited on or
// read without end) and at most MaxFileBytes. The caller names the file in
// its errors; a missing one wraps fs.ErrNotExist, one that is not a regular
// file ErrNotRegular.
func ReadSmallFile(path string) ([]byte, error) {
	// Stat first: a device is refused without being opened, since opening
	// some (a tape, a watchdog) does something.
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if err := regular(info); err != nil {
		return nil, err
	}
	// O_NONBLOCK: a path swapped for a FIFO since the Stat opens at once
	// rather than waiting for a writer, and is refused below.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if info, err = f.Stat(); err != nil {
		return nil, err
	}
	if err := regular(info); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFileBytes {
		return nil, fmt.Errorf("larger than %d bytes; it is not read", MaxFileBytes)
	}
	return data, nil
}

// regular returns the error of ReadSmallFile for a file that is not a
// regular one, nil for one that is.
func regular(info os.FileInfo) error {
	if info.Mode().IsRegular() {
		return nil
	}
	return fmt.Errorf("%w but %s; it is not read", ErrNotRegular, kindOf(info.Mode()))
}

// kindOf names a file that is not a regular one.
func kindOf(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&os.ModeNamedPipe != 0:
		return "a named pipe"
	case m&(os.ModeDevice|os.ModeCharDevice) != 0:
		return "a device"
	case m&os.ModeSocket != 0:
		return "a socket"
	}
	return "a special file"
}

package config

import (
	"fmt"
	"io"
	"os"
	"syscall"
)

// MaxFileBytes bounds a configuration file a folder may hold (settings,
// .mcp.json, agent types): far above any real one.
const MaxFileBytes = 1 << 20

// ReadSmallFile reads a configuration file that may be a folder's: only a
// regular file (a FIFO or a device is refused at once, never waited on or
// read without end) and at most MaxFileBytes. The caller names the file in
// its errors; a missing one wraps fs.ErrNotExist.
func ReadSmallFile(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("not a regular file but %s; it is not read", kindOf(info.Mode()))
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

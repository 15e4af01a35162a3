package prompt

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// errNotRegular is returned for paths that are not regular files: opening a
// FIFO would block, and directories have no contents to read.
var errNotRegular = errors.New("not a regular file")

// openRegular opens the file at path if it is a regular file, following
// symlinks. Errors from os already name the operation and the path and are
// returned as they are: most paths probed do not exist, and wrapping them all
// would be a large part of Build's cost.
func openRegular(path string) (*os.File, os.FileInfo, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, nil, fmt.Errorf("%s: %w", path, errNotRegular)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	return f, info, nil
}

// readAtMost reads at most limit bytes from f and closes it.
func readAtMost(f *os.File, limit int64) ([]byte, error) {
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", f.Name(), err)
	}
	return data, nil
}

// readRegular reads at most limit bytes of the regular file at path.
func readRegular(path string, limit int64) ([]byte, error) {
	f, _, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	return readAtMost(f, limit)
}

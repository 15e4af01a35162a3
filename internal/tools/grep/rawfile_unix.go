//go:build unix

package grep

import (
	"io"
	"syscall"
)

// rawFile reads a file through its descriptor alone. An *os.File costs a
// finalizer and, on Linux, a failed registration with the network poller for
// every regular file; across tens of thousands of files that is measurable.
type rawFile int

func openFile(path string) (rawFile, error) {
	for {
		fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err == syscall.EINTR {
			continue
		}
		return rawFile(fd), err
	}
}

func (f rawFile) Read(b []byte) (int, error) {
	for {
		n, err := syscall.Read(int(f), b)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return 0, err
		case n == 0 && len(b) > 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

func (f rawFile) Seek(offset int64, whence int) (int64, error) {
	return syscall.Seek(int(f), offset, whence)
}

func (f rawFile) Close() error {
	return syscall.Close(int(f))
}

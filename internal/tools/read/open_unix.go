//go:build unix

package read

import (
	"os"
	"syscall"
)

// openFlags opens without blocking, so a path that became a FIFO after it was
// checked cannot hang the call; a regular file reads the same either way.
const openFlags = os.O_RDONLY | syscall.O_NONBLOCK

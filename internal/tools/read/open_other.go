//go:build !unix

package read

import "os"

// openFlags opens for reading; this platform has no non-blocking open.
const openFlags = os.O_RDONLY

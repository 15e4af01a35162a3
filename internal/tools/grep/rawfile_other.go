//go:build !unix

package grep

import "os"

func openFile(path string) (*os.File, error) {
	return os.Open(path)
}

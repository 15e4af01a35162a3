//go:build !linux

package filewalk

import (
	"os"
	"time"
)

// listDir reads the entries of the directory at path into entries.
func listDir(path string, _ []byte, entries []dirent) ([]dirent, error) {
	list, err := os.ReadDir(path)
	for _, e := range list {
		entries = append(entries, dirent{name: e.Name(), typ: e.Type()})
	}
	return entries, err
}

// ModTime is the file's modification time.
func (f File) ModTime() (time.Time, error) {
	info, err := f.Info()
	if err != nil {
		return time.Time{}, err
	}
	return info.ModTime(), nil
}

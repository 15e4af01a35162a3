//go:build !linux

package grep

import (
	"os"
	"time"
)

// mtimeMs is a modification time as JavaScript's Stats.mtimeMs gives it.
func mtimeMs(t time.Time) float64 {
	return float64(t.Unix())*1e3 + float64(t.Nanosecond())/1e6
}

// openedModTime is the modification time of the file at path, in
// milliseconds; 0 when it cannot be read.
func openedModTime[F any](_ F, path string) float64 {
	info, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return mtimeMs(info.ModTime())
}

// pathModTime is the modification time of the file at path, in milliseconds;
// 0 when it cannot be read.
func pathModTime(path string) float64 {
	info, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return mtimeMs(info.ModTime())
}

package prompt

import (
	"os"
	"strings"
)

// osVersion returns the kernel name and release, as `uname -sr` prints them,
// or "" if the release cannot be read.
func osVersion() string {
	data, err := os.ReadFile("/proc/sys/kernel/osrelease")
	if err != nil {
		return ""
	}
	release := strings.TrimSpace(string(data))
	if release == "" {
		return ""
	}
	return "Linux " + release
}

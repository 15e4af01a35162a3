//go:build darwin || dragonfly || freebsd || netbsd || openbsd

package prompt

import "syscall"

// osVersion returns the kernel name and release, as `uname -sr` prints them,
// or "" if sysctl does not tell.
func osVersion() string {
	name, err := syscall.Sysctl("kern.ostype")
	if err != nil {
		return ""
	}
	release, err := syscall.Sysctl("kern.osrelease")
	if err != nil {
		return ""
	}
	return name + " " + release
}

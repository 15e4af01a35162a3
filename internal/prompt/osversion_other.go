//go:build !linux && !darwin && !dragonfly && !freebsd && !netbsd && !openbsd

package prompt

// osVersion returns "" where the release cannot be read without running a program.
func osVersion() string { return "" }

// Package rss measures the resident memory of a process tree for the bench
// programs, from /proc.
package rss

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// SampleTree sums the resident set of pid's process tree every 5 ms until
// the returned function is called, which gives the largest sum seen in KB;
// without self, pid itself is left out (a driver whose children are what is
// measured).
func SampleTree(pid int, self bool) func() int64 {
	done := make(chan struct{})
	result := make(chan int64, 1)
	go func() {
		var peak int64
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			sum := TreeKB(pid)
			if !self {
				sum -= KB(pid)
			}
			peak = max(peak, sum)
			select {
			case <-done:
				result <- peak
				return
			case <-tick.C:
			}
		}
	}()
	return func() int64 {
		close(done)
		return <-result
	}
}

// TreeKB is the sum of VmRSS over pid and its descendants, found through
// /proc/PID/task/TID/children; a process gone counts 0.
func TreeKB(pid int) int64 {
	total := KB(pid)
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	for _, f := range tasks {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, field := range strings.Fields(string(data)) {
			if child, err := strconv.Atoi(field); err == nil {
				total += TreeKB(child)
			}
		}
	}
	return total
}

// KB is pid's VmRSS in KB, 0 when it is gone.
func KB(pid int) int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(data)) {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb
		}
	}
	return 0
}

// Package stats holds the figures the bench programs compute and print:
// medians, milliseconds and the machine's load average.
package stats

import (
	"cmp"
	"os"
	"slices"
	"strings"
	"time"
)

// Median is the middle of values (the upper one of an even count), or
// zero when there are none.
func Median[T cmp.Ordered](values []T) T {
	if len(values) == 0 {
		var zero T
		return zero
	}
	sorted := slices.Clone(values)
	slices.Sort(sorted)
	return sorted[len(sorted)/2]
}

// MS is d in milliseconds, to the microsecond.
func MS(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// LoadAverage is the machine's 1, 5 and 15 minute load averages as
// /proc/loadavg gives them, or "unknown".
func LoadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	fields := strings.Fields(string(data))
	if err != nil || len(fields) < 3 {
		return "unknown"
	}
	return strings.Join(fields[:3], " ")
}

package tui

import (
	"runtime"
	"testing"
)

// BenchmarkSessionHeap reports the live heap the UI holds after a session of
// 10 and of 500 turns (the agent's own history is not in it).
func BenchmarkSessionHeap(b *testing.B) {
	for _, turns := range []int{10, 500} {
		b.Run(map[int]string{10: "turn-10", 500: "turn-500"}[turns], func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				m := sessionOf(b, turns)
				runtime.GC()
				runtime.ReadMemStats(&after)
				b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/(1<<20), "MB-live")
				runtime.KeepAlive(m)
			}
		})
	}
}

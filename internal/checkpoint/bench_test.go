package checkpoint

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// textLines is n bytes of source-like text, lines of varied length.
func textLines(n int, seed uint64) []byte {
	raw := randomBytes(n, seed)
	out := make([]byte, n)
	for i, b := range raw {
		switch {
		case b < 6:
			out[i] = '\n'
		default:
			out[i] = 'a' + b%26
		}
	}
	return out
}

// editLine changes a few bytes of data near at, as an Edit of one line does.
func editLine(data []byte, at int, turn int) []byte {
	out := append([]byte(nil), data...)
	copy(out[at%len(out):], fmt.Sprintf("edit %d", turn))
	return out
}

// BenchmarkSnapshotBeforeEditOf1MB is what the executor adds to an Edit of a
// 1 MB file, in the order it runs: the snapshot before the call, then (not
// timed) the Edit, which changes a line, then the note of the version the
// Edit left. "changed" is a later prompt's edit (an earlier prompt stored the
// file: one chunk to store); "first" the first snapshot of the file, in a
// store just opened (every chunk to store).
func BenchmarkSnapshotBeforeEditOf1MB(b *testing.B) {
	for _, first := range []bool{false, true} {
		name := "changed"
		if first {
			name = "first"
		}
		b.Run(name, func(b *testing.B) {
			dir := b.TempDir()
			path := filepath.Join(dir, "big.txt")
			data := textLines(1<<20, 7)
			os.WriteFile(path, data, 0o644)
			s, _ := Open(filepath.Join(dir, "cp"))
			defer func() { s.Close() }()
			if !first {
				s.Snapshot("earlier", []string{path})
				s.Wrote("earlier", []string{path})
			}
			var cpu time.Duration
			timed := func(record func(string, []string) error, turn string) {
				b.StartTimer()
				started := cpuTime()
				if err := record(turn, []string{path}); err != nil {
					b.Fatal(err)
				}
				cpu += cpuTime() - started
				b.StopTimer()
			}
			b.ResetTimer()
			b.StopTimer()
			for i := range b.N {
				if first {
					s.Close()
					os.RemoveAll(filepath.Join(dir, "cp"))
					s, _ = Open(filepath.Join(dir, "cp"))
				}
				turn := fmt.Sprint("p", i)
				timed(s.Snapshot, turn)
				data = editLine(data, i*7919, i)
				os.WriteFile(path, data, 0o644)
				timed(s.Wrote, turn)
			}
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
		})
	}
}

// BenchmarkSession500Turns runs 500 prompts over a project of 20 files
// (1 KB to 1 MB), each prompt editing one line of two files, and reports how
// much the store holds: "store-B" against "edited-B", the bytes the edits
// wrote, and "whole-B", what keeping every version whole would take.
func BenchmarkSession500Turns(b *testing.B) {
	for range b.N {
		dir := b.TempDir()
		var paths []string
		var contents [][]byte
		for i := range 20 {
			size := 1 << (10 + i%11) // 1 KB … 1 MB
			path := filepath.Join(dir, fmt.Sprintf("f%02d.txt", i))
			contents = append(contents, textLines(size, uint64(i)))
			os.WriteFile(path, contents[i], 0o644)
			paths = append(paths, path)
		}
		s, _ := Open(filepath.Join(dir, "cp"))
		edited, whole := 0, 0
		for turn := range 500 {
			id := fmt.Sprint("p", turn)
			for _, f := range []int{turn % 20, (turn*7 + 3) % 20} {
				s.Snapshot(id, paths[f:f+1])
				whole += len(contents[f])
				contents[f] = editLine(contents[f], turn*104729, turn)
				edited += len(fmt.Sprintf("edit %d", turn))
				os.WriteFile(paths[f], contents[f], 0o644)
				s.Wrote(id, paths[f:f+1])
			}
		}
		s.Close()
		b.ReportMetric(float64(dirSize(b, filepath.Join(dir, "cp"))), "store-B")
		b.ReportMetric(float64(edited), "edited-B")
		b.ReportMetric(float64(whole), "whole-B")
	}
}

// cpuTime is the CPU time the process has used, user and system: on a
// shared machine, what the work costs whatever the wait for a core.
func cpuTime() time.Duration {
	var u syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &u)
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// dirSize sums the sizes of the files under dir.
func dirSize(tb testing.TB, dir string) int64 {
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		n += info.Size()
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
	return n
}

// TestStoreGrowsWithTheChangesNotTheFiles edits one line of a 1 MB file in
// each of 100 prompts: the store keeps the file once and then about a chunk
// per edit, never a copy of the file per prompt.
func TestStoreGrowsWithTheChangesNotTheFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "big.txt")
	data := textLines(1<<20, 11)
	os.WriteFile(path, data, 0o644)
	s, _ := Open(filepath.Join(dir, "cp"))
	defer s.Close()
	const turns = 100
	for turn := range turns {
		id := fmt.Sprint("p", turn)
		s.Snapshot(id, []string{path})
		data = editLine(data, turn*104729, turn)
		os.WriteFile(path, data, 0o644)
		s.Wrote(id, []string{path})
		s.Snapshot(id, []string{path}) // a second edit of the same prompt stores nothing
	}
	size := dirSize(t, filepath.Join(dir, "cp"))
	limit := int64(len(data) + turns*(2*maxChunk+4096))
	if size > limit {
		t.Errorf("the store holds %d bytes after %d one-line edits of a 1 MB file, want at most %d", size, turns, limit)
	}
	t.Logf("store %d bytes for %d edits of a %d-byte file (%.1f%% of whole copies)", size, turns, len(data),
		100*float64(size)/float64(turns*len(data)))
}

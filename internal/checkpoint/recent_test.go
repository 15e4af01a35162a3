package checkpoint

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestUpdateFindsTheDigestOfTheWholeContent checks that reusing the chunks a
// change did not touch gives exactly the digest of the content cut and
// hashed from scratch, whatever the change and wherever it falls.
func TestUpdateFindsTheDigestOfTheWholeContent(t *testing.T) {
	contents := map[string][]byte{
		"text":   textLines(600<<10, 5),
		"random": randomBytes(300<<10, 9),
		"zeros":  make([]byte, 300<<10), // no cut point: every chunk is cut at maxChunk
		"small":  textLines(3000, 2),
	}
	edits := []struct {
		name string
		edit func(data []byte, at int) []byte
	}{
		{"replace a line", func(d []byte, at int) []byte { return editLine(d, at, at) }},
		{"flip a byte", func(d []byte, at int) []byte {
			out := slices.Clone(d)
			if at < len(out) {
				out[at] ^= 1
			}
			return out
		}},
		{"overwrite 200 KB", func(d []byte, at int) []byte {
			out := slices.Clone(d)
			for i := at; i < min(at+200<<10, len(out)); i++ {
				out[i] = 1
			}
			return out
		}},
		{"insert", func(d []byte, at int) []byte { return slices.Concat(d[:at], []byte("inserted\n"), d[at:]) }},
		{"insert a chunk's worth", func(d []byte, at int) []byte { return slices.Concat(d[:at], randomBytes(70<<10, 1), d[at:]) }},
		{"delete", func(d []byte, at int) []byte { return slices.Concat(d[:at], d[min(at+5000, len(d)):]) }},
		{"truncate", func(d []byte, at int) []byte { return slices.Clone(d[:at]) }},
		{"append", func(d []byte, at int) []byte { return slices.Concat(d, d[:at]) }},
		{"empty", func(d []byte, at int) []byte { return nil }},
		{"same", func(d []byte, at int) []byte { return slices.Clone(d) }},
		{"repeat", func(d []byte, at int) []byte { return slices.Concat(d[:at], d[:at]) }},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for name, data := range contents {
		old := fingerprint(data)
		for _, e := range edits {
			at := []int{0, 1, len(data) / 2, len(data) - 1, len(data), rng.IntN(len(data)), rng.IntN(len(data))}
			if n := len(old.ends); n > 2 { // the last byte of a chunk, the first of the next
				at = append(at, old.ends[1]-1, old.ends[1], old.ends[n-2]-1, old.ends[n-2])
			}
			for _, at := range at {
				t.Run(fmt.Sprintf("%s/%s at %d", name, e.name, at), func(t *testing.T) {
					changed := e.edit(data, at)
					got, want := update(data, old, changed), fingerprint(changed)
					if got.id != want.id || !slices.Equal(got.ends, want.ends) || !slices.Equal(got.sums, want.sums) {
						t.Errorf("update gives %d chunks, id %s; cut from scratch %d chunks, id %s",
							len(got.ends), got.id[:8], len(want.ends), want.id[:8])
					}
				})
			}
		}
	}
}

// TestRecentReadsStayWithinTheirBudget checks that the store forgets the
// content of the files it read least lately rather than hold more than
// recentBudget, and that a file larger than the budget is not kept at all.
func TestRecentReadsStayWithinTheirBudget(t *testing.T) {
	var r recent
	part := recentBudget / 4
	for i := range 6 {
		data := make([]byte, part)
		r.keep(fmt.Sprint("f", i), data, fingerprint(data))
	}
	if r.size > recentBudget || len(r.files) != 4 || r.files["f0"] != nil || r.files["f5"] == nil {
		t.Errorf("kept %d files, %d bytes; want the last 4 within %d bytes", len(r.files), r.size, recentBudget)
	}
	huge := make([]byte, recentBudget+1)
	r.keep("huge", huge, digest{})
	if r.files["huge"] != nil {
		t.Error("a file larger than the budget was kept")
	}
	r.clear()
	if r.size != 0 || len(r.files) != 0 {
		t.Errorf("after clear, %d files and %d bytes are kept", len(r.files), r.size)
	}
}

// TestAFileChangedBetweenReadsIsHashedAnew checks that what the store read
// before is only a help: a file changed behind its back, even keeping its
// size, gets the address of its new content.
func TestAFileChangedBetweenReadsIsHashedAnew(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "big.txt")
	data := textLines(1<<20, 4)
	os.WriteFile(path, data, 0o644)
	s, _ := Open(filepath.Join(dir, "cp"))
	defer s.Close()
	s.Snapshot("p1", []string{path})
	changed := bytes.Clone(data)
	changed[len(changed)/2] ^= 1
	os.WriteFile(path, changed, 0o644)
	s.Wrote("p1", []string{path})
	if got, want := s.wrote[path].ID, fingerprint(changed).id; got != want {
		t.Errorf("the version noted is %s, want %s", got[:8], want[:8])
	}
}

// TestEveryVersionOfALargeFileComesBack edits a 1 MB file in five prompts,
// each changing it in two distant places, inserting, cutting, or repeating a
// part of it (so that its new chunks are apart in the file, or one chunk
// appears twice), and then, in a store opened again as a resumed session
// does, goes back before each prompt in turn, the last first: each time the
// file is the exact bytes that prompt found.
func TestEveryVersionOfALargeFileComesBack(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "big.bin")
	versions := [][]byte{randomBytes(1<<20, 8)}
	changes := []func(d []byte) []byte{
		func(d []byte) []byte { return editLine(editLine(d, 1000, 1), 900<<10, 2) },
		func(d []byte) []byte { return slices.Concat(d[:300<<10], []byte("inserted"), d[300<<10:]) },
		func(d []byte) []byte { return slices.Concat(d[:100<<10], d[200<<10:]) },
		func(d []byte) []byte { return slices.Concat(d, d[:200<<10]) },
		func(d []byte) []byte { return editLine(d[:len(d)-5], 0, 5) },
	}
	os.WriteFile(path, versions[0], 0o644)
	s, _ := Open(filepath.Join(dir, "cp"))
	for i, change := range changes {
		versions = append(versions, change(versions[i]))
		edit(t, s, fmt.Sprint("p", i+1), path, versions[i+1])
	}
	s.Close()
	s, _ = Open(filepath.Join(dir, "cp"))
	defer s.Close()
	for i := len(changes); i >= 1; i-- {
		plan, err := s.Plan(fmt.Sprint("p", i))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Restore(plan, false); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(path); !bytes.Equal(got, versions[i-1]) {
			t.Fatalf("before p%d the file is %d bytes, want the %d it was", i, len(got), len(versions[i-1]))
		}
	}
}

// TestCutsAreWhereTheGearHashSaysSo checks chunkEnd, which hashes two bytes
// a step, against the gear hash taken a byte at a time, on contents with
// cuts, without any (zeros) and of odd lengths.
func TestCutsAreWhereTheGearHashSaysSo(t *testing.T) {
	byteAtATime := func(data []byte) int {
		if len(data) <= minChunk {
			return len(data)
		}
		var h uint64
		for i := minChunk; i < min(len(data), maxChunk); i++ {
			if h = h<<1 + gear[data[i]]; h&cutMask == 0 {
				return i + 1
			}
		}
		return min(len(data), maxChunk)
	}
	for name, data := range map[string][]byte{
		"text":   textLines(1<<20, 7),
		"random": randomBytes(1<<20+1, 3),
		"zeros":  make([]byte, 200<<10+3),
		"small":  randomBytes(minChunk+1, 1),
	} {
		for at := 0; at < len(data); {
			got, want := chunkEnd(data[at:]), byteAtATime(data[at:])
			if got != want {
				t.Fatalf("%s: the chunk at %d is %d bytes, want %d", name, at, got, want)
			}
			at += got
		}
	}
}

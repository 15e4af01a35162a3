package checkpoint

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// write puts content in a file of dir with mode, returning its path.
func write(t *testing.T, path string, content []byte, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, content, mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

// edit is what a file tool does within turn: snapshot, write, note.
func edit(t *testing.T, s *Store, turn, path string, content []byte) {
	t.Helper()
	if err := s.Snapshot(turn, []string{path}); err != nil {
		t.Fatal(err)
	}
	if content == nil {
		os.Remove(path)
	} else if err := os.WriteFile(path, content, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := s.Wrote(turn, []string{path}); err != nil {
		t.Fatal(err)
	}
}

func randomBytes(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, seed))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

func TestRestorePutsBackTheExactBytesAndMode(t *testing.T) {
	tests := []struct {
		name     string
		original []byte // nil: the turn creates the file
		mode     os.FileMode
	}{
		{"CRLF line endings", []byte("one\r\ntwo\r\n"), 0o644},
		{"no newline at the end", []byte("alpha\nbeta"), 0o644},
		{"binary", append([]byte{0, 0xff, 0xfe, 0x80, '\r'}, randomBytes(300, 1)...), 0o600},
		{"executable", []byte("#!/bin/sh\necho hi\n"), 0o755},
		{"empty", []byte{}, 0o644},
		{"large, in chunks", randomBytes(700<<10, 2), 0o640},
		{"created by the turn", nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "f")
			if tt.original != nil {
				write(t, path, tt.original, tt.mode)
			}
			s, err := Open(filepath.Join(dir, "cp"))
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			edit(t, s, "p1", path, []byte("changed\n"))
			plan, err := s.Plan("p1")
			if err != nil || len(plan.Changes) != 1 || len(plan.Outside()) != 0 {
				t.Fatalf("plan %+v, %v; want one change made by mini-claude", plan, err)
			}
			res, err := s.Restore(plan, false)
			if err != nil {
				t.Fatal(err)
			}
			got, readErr := os.ReadFile(path)
			if tt.original == nil {
				if !os.IsNotExist(readErr) || !slices.Equal(res.Deleted, []string{path}) {
					t.Fatalf("the created file is still there (%v), result %+v", readErr, res)
				}
				return
			}
			if !bytes.Equal(got, tt.original) {
				t.Fatalf("restored %d bytes %.40q, want %d bytes %.40q", len(got), got, len(tt.original), tt.original)
			}
			if info, _ := os.Stat(path); info.Mode().Perm() != tt.mode {
				t.Errorf("mode %v, want %v", info.Mode().Perm(), tt.mode)
			}
			if after, _ := s.Plan("p1"); len(after.Changes) != 0 {
				t.Errorf("after the restore the plan still has %+v", after.Changes)
			}
		})
	}
}

// TestPlanGoesBackToBeforeTheEarliestTurn edits one file in three turns:
// going back before a turn gives the version that turn found.
func TestPlanGoesBackToBeforeTheEarliestTurn(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.txt")
	write(t, path, []byte("v0"), 0o644)
	s, _ := Open(filepath.Join(dir, "cp"))
	defer s.Close()
	edit(t, s, "p1", path, []byte("v1"))
	edit(t, s, "p1", path, []byte("v1b"))
	s.Begin("p2")
	s.Begin("p2b") // a prompt that changed no file: its start still counts
	edit(t, s, "p2", path, []byte("v2"))
	edit(t, s, "p3", path, []byte("v3"))
	tests := []struct {
		turn string
		want string
	}{
		{"p1", "v0"},
		{"p2", "v1b"},
		{"p3", "v2"},
		{"p2b", "v1b"},
	}
	for _, tt := range tests {
		plan, err := s.Plan(tt.turn)
		if err != nil || len(plan.Changes) != 1 {
			t.Fatalf("plan %+v %v", plan, err)
		}
		data, err := s.pack.load(plan.Changes[0].To.chunkSums())
		if err != nil || string(data) != tt.want {
			t.Errorf("before %s: %q %v, want %q", tt.turn, data, err, tt.want)
		}
	}
	if got := s.Changed("p1"); !slices.Equal(got, []string{path}) {
		t.Errorf("Changed(p1) = %v", got)
	}
	if plan, _ := s.Plan("p4"); len(plan.Changes) != 0 {
		t.Errorf("a turn the store never saw plans %+v", plan.Changes)
	}
}

// TestRestoreKeepsFilesChangedOutside changes a file after mini-claude wrote
// it: the plan says so, and only an explicit overwrite restores it.
func TestRestoreKeepsFilesChangedOutside(t *testing.T) {
	dir := t.TempDir()
	mine, theirs := filepath.Join(dir, "mine.txt"), filepath.Join(dir, "theirs.txt")
	write(t, mine, []byte("m0"), 0o644)
	write(t, theirs, []byte("t0"), 0o644)
	s, _ := Open(filepath.Join(dir, "cp"))
	defer s.Close()
	edit(t, s, "p1", mine, []byte("m1"))
	edit(t, s, "p1", theirs, []byte("t1"))
	write(t, theirs, []byte("edited in the editor"), 0o644)

	plan, err := s.Plan("p1")
	if err != nil {
		t.Fatal(err)
	}
	if got := plan.Outside(); !slices.Equal(got, []string{theirs}) {
		t.Fatalf("outside %v, want %v", got, theirs)
	}
	res, err := s.Restore(plan, false)
	if err != nil || !slices.Equal(res.Kept, []string{theirs}) || !slices.Equal(res.Restored, []string{mine}) {
		t.Fatalf("result %+v %v", res, err)
	}
	if data, _ := os.ReadFile(theirs); string(data) != "edited in the editor" {
		t.Fatalf("the outside change was clobbered: %q", data)
	}
	if data, _ := os.ReadFile(mine); string(data) != "m0" {
		t.Fatalf("mine.txt holds %q", data)
	}
	plan, _ = s.Plan("p1")
	if _, err := s.Restore(plan, true); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(theirs); string(data) != "t0" {
		t.Errorf("overwrite left %q", data)
	}
}

// TestCheckpointsOutliveTheProcess reopens the store as a resumed session
// does: its snapshots and what mini-claude wrote are read back.
func TestCheckpointsOutliveTheProcess(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.txt")
	write(t, path, []byte("before\r\n"), 0o644)
	s, _ := Open(filepath.Join(dir, "cp"))
	edit(t, s, "p1", path, []byte("after"))
	s.Close()
	f, _ := os.OpenFile(filepath.Join(dir, "cp", indexName), os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(`{"turn":"p2","path":"/torn`)
	f.Close()

	again, err := Open(filepath.Join(dir, "cp"))
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	plan, err := again.Plan("p1")
	if err != nil || len(plan.Changes) != 1 || plan.Changes[0].Outside {
		t.Fatalf("plan after reopening %+v %v", plan, err)
	}
	if _, err := again.Restore(plan, false); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path); string(data) != "before\r\n" {
		t.Errorf("restored %q", data)
	}
}

func TestSnapshotSkipsWhatIsNotAFileAndKeepsTheFirstVersion(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.txt")
	write(t, path, []byte("v0"), 0o644)
	s, _ := Open(filepath.Join(dir, "cp"))
	defer s.Close()
	if err := s.Snapshot("p1", []string{dir, path}); err != nil {
		t.Fatal(err)
	}
	write(t, path, []byte("v1"), 0o644)
	s.Snapshot("p1", []string{path})
	if len(s.entries) != 1 || s.entries[0].Path != path {
		t.Fatalf("entries %+v, want one for the file, taken once per turn", s.entries)
	}
}

func TestRestoreReportsADamagedBlob(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.txt")
	write(t, path, []byte("v0"), 0o644)
	s, _ := Open(filepath.Join(dir, "cp"))
	defer s.Close()
	edit(t, s, "p1", path, []byte("v1"))
	plan, _ := s.Plan("p1")
	os.WriteFile(filepath.Join(dir, "cp", packName), []byte("rot"), 0o600)
	res, err := s.Restore(plan, false)
	if err == nil || !slices.Equal(res.Failed, []string{path}) {
		t.Fatalf("result %+v, error %v; want the file reported as failed", res, err)
	}
	if data, _ := os.ReadFile(path); string(data) != "v1" {
		t.Errorf("a failed restore changed the file to %q", data)
	}
}

// TestChunksSurviveAnInsertion checks the point of content-defined chunks:
// bytes inserted near the start of a large file leave the later chunks as
// they were.
func TestChunksSurviveAnInsertion(t *testing.T) {
	data := randomBytes(1<<20, 3)
	changed := slices.Concat(data[:100<<10], []byte("inserted line\n"), data[100<<10:])
	before, after := map[string]bool{}, 0
	for _, sum := range fingerprint(data).sums {
		before[sum] = true
	}
	d := fingerprint(changed)
	parts := d.parts(changed)
	for _, sum := range d.sums {
		if !before[sum] {
			after++
		}
	}
	if after > 2 || len(parts) < 8 {
		t.Errorf("%d of %d chunks are new after a 14-byte insertion, want at most 2", after, len(parts))
	}
	if !bytes.Equal(bytes.Join(parts, nil), changed) {
		t.Error("the chunks do not join back into the content")
	}
}

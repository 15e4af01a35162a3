// Package checkpoint keeps what the files were before each prompt changed
// them, so that /rewind can put them back. Before a file tool (Write, Edit,
// NotebookEdit) first writes a file during a prompt, the file's content and
// mode are stored (or its absence, for a file the prompt creates), in
// content-addressed, deduplicated blobs in the session's folder; after each
// such call, the version the tool left is noted, so that a restore can tell
// a file changed since by someone else. An index of these entries, one JSON
// line each, is appended beside the blobs, so the checkpoints outlive the
// process and serve a resumed session.
package checkpoint

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
)

// Version is one state of a file: absent, or a content (by its address) with a mode.
type Version struct {
	// Absent says there was no file.
	Absent bool `json:"absent,omitempty"`
	// ID is the content's address (see digest).
	ID string `json:"sha256,omitempty"`
	// Chunks are the addresses of the content's chunks, in order, when it
	// is stored and has more than one; a stored content of one chunk is the chunk ID.
	Chunks []string    `json:"chunks,omitempty"`
	Size   int64       `json:"size,omitempty"`
	Mode   fs.FileMode `json:"mode,omitempty"`
}

// chunkSums returns the addresses of the chunks of a stored version.
func (v Version) chunkSums() []string {
	if len(v.Chunks) > 0 {
		return v.Chunks
	}
	return []string{v.ID}
}

// same reports whether v and w are the same content, or both absent.
func (v Version) same(w Version) bool {
	return v.Absent == w.Absent && v.ID == w.ID
}

// entry is one line of the index: the start of the prompt Turn, the version
// of Path before Turn first changed it, or the version a call of Turn left;
// Added are the chunks the snapshot appended to the pack.
type entry struct {
	Turn   string   `json:"turn,omitempty"`
	Begin  bool     `json:"begin,omitempty"`
	Path   string   `json:"path,omitempty"`
	Before *Version `json:"before,omitempty"`
	After  *Version `json:"after,omitempty"`
	Added  []span   `json:"added,omitempty"`
}

// The files of a store's folder.
const (
	indexName = "index.jsonl"
	packName  = "chunks.pack"
)

// Store is the checkpoints of one session, safe for concurrent use: the
// calls of parallel tools and of sub-agents record into the same store.
type Store struct {
	dir string

	mu      sync.Mutex
	pack    pack
	entries []entry
	// saved marks the files whose version before a turn is stored, by turn and path.
	saved map[[2]string]bool
	// wrote is the last version a file tool left, by path.
	wrote map[string]Version
	// recent is what the store last read of the files it looked at lately.
	recent recent
	index  *os.File
}

// Open returns the store in dir, reading the index its earlier runs left;
// the folder is created on the first snapshot. Lines of the index that cannot
// be read (the last one, cut off by a crash) are skipped.
func Open(dir string) (*Store, error) {
	s := &Store{dir: dir, pack: pack{path: filepath.Join(dir, packName), at: map[string]span{}},
		saved: map[[2]string]bool{}, wrote: map[string]Version{}}
	data, err := os.ReadFile(filepath.Join(dir, indexName))
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the checkpoints: %w", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var e entry
		if json.Unmarshal(sc.Bytes(), &e) == nil && (e.Begin || e.Path != "" && (e.Before != nil || e.After != nil)) {
			s.add(e)
		}
	}
	return s, nil
}

// Dir returns the store's folder.
func (s *Store) Dir() string { return s.dir }

// add takes an entry into the store's memory; s.mu is held or not yet shared.
func (s *Store) add(e entry) {
	s.entries = append(s.entries, e)
	for _, sp := range e.Added {
		s.pack.at[sp.Sum] = sp
	}
	if e.Before != nil {
		s.saved[[2]string{e.Turn, e.Path}] = true
	}
	if e.After != nil {
		s.wrote[e.Path] = *e.After
	}
}

// Begin marks the start of the prompt turn, before any of its calls: a
// restore to before it undoes what every later prompt changed, those of the
// conversation and those a rewind of the conversation alone left out of it.
func (s *Store) Begin(turn string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.append(entry{Turn: turn, Begin: true})
}

// Snapshot stores the current version of each of paths (absolute, symlinks
// followed) that turn has not stored yet: called before a file tool writes
// them, so that the first change of a prompt to a file can be undone. A path
// that is not a regular file (a folder, a device) is left out.
func (s *Store) Snapshot(turn string, paths []string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, path := range paths {
		if s.saved[[2]string{turn, path}] {
			continue
		}
		v, added, ok, err := s.current(path, true)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		if err := s.append(entry{Turn: turn, Path: path, Before: &v, Added: added}); err != nil {
			return err
		}
	}
	return nil
}

// Wrote notes the version of each of paths a file tool of turn has just
// left, whether it wrote or failed: what a restore compares a file to, to
// tell a change made since by someone else.
func (s *Store) Wrote(turn string, paths []string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, path := range paths {
		v, _, ok, err := s.current(path, false)
		if err != nil {
			return err
		}
		if !ok || s.wrote[path].same(v) && s.wrote[path].Mode == v.Mode {
			continue
		}
		if err := s.append(entry{Turn: turn, Path: path, After: &v}); err != nil {
			return err
		}
	}
	return nil
}

// current returns the version of the file at path; with keep, its content
// is stored, and added are the chunks that took. ok is false for a path that
// is not a regular file.
func (s *Store) current(path string, keep bool) (v Version, added []span, ok bool, err error) {
	info, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Version{Absent: true}, nil, true, nil
	}
	if err != nil {
		return Version{}, nil, false, fmt.Errorf("checkpoint %s: %w", path, err)
	}
	if !info.Mode().IsRegular() {
		return Version{}, nil, false, nil
	}
	data, err := readInto(path, getBuffer(), info.Size())
	if err != nil {
		putBuffer(data)
		return Version{}, nil, false, fmt.Errorf("checkpoint %s: %w", path, err)
	}
	d := s.recent.digest(path, data)
	v = Version{ID: d.id, Size: int64(len(data)), Mode: info.Mode().Perm()}
	if keep {
		if len(d.sums) > 1 {
			v.Chunks = d.sums
		}
		added, err = s.pack.add(data, d)
	}
	s.recent.keep(path, data, d)
	if err != nil {
		return Version{}, nil, false, fmt.Errorf("checkpoint %s: %w", path, err)
	}
	return v, added, true, nil
}

// append writes an entry to the index, opening it on first use, and keeps it.
func (s *Store) append(e entry) error {
	if s.index == nil {
		if err := os.MkdirAll(s.dir, 0o700); err != nil {
			return fmt.Errorf("create the checkpoint folder: %w", err)
		}
		f, err := os.OpenFile(filepath.Join(s.dir, indexName), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
		if err != nil {
			return fmt.Errorf("open the checkpoint index: %w", err)
		}
		s.index = f
	}
	line, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("record a checkpoint: %w", err)
	}
	if _, err := s.index.Write(append(line, '\n')); err != nil {
		return fmt.Errorf("record a checkpoint: %w", err)
	}
	s.add(e)
	return nil
}

// Changed returns the files the calls of turn changed, in the order they
// were first written: those whose version before the turn differs from the
// last one its calls left.
func (s *Store) Changed(turn string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var paths []string
	before := map[string]Version{}
	after := map[string]Version{}
	for _, e := range s.entries {
		switch {
		case e.Turn != turn:
		case e.Before != nil:
			before[e.Path] = *e.Before
			paths = append(paths, e.Path)
		case e.After != nil:
			after[e.Path] = *e.After
		}
	}
	return slices.DeleteFunc(paths, func(p string) bool {
		a, ok := after[p]
		return !ok || a.same(before[p])
	})
}

// Close closes the index.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.recent.clear()
	errs := []error{s.pack.close()}
	if s.index != nil {
		errs = append(errs, s.index.Close())
		s.index = nil
	}
	return errors.Join(errs...)
}

package fileaccess

import (
	"crypto/sha256"
	"fmt"
	"maps"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/mini-claude/mini-claude/internal/tool"
)

// Record is what the session knows of a file it read or wrote.
type Record struct {
	// Hash is the SHA-256 of the whole content; it is known only when Full.
	Hash    [sha256.Size]byte
	ModTime time.Time
	// Full says the whole file was read, not a range of lines.
	Full bool
}

// State is the session's record of the files it has read or written, by
// absolute path; Write and Edit use it to refuse to clobber a file the model
// has not seen, or that changed on disk since.
type State struct {
	mu      sync.Mutex
	records map[string]Record
}

type stateKey struct{}

// StateOf returns the file state of the call's session.
func StateOf(env *tool.Env) *State {
	return tool.Value(env.Session, stateKey{}, func() *State { return &State{records: map[string]Record{}} })
}

// RememberFull records that the session has seen the whole content of the file
// at path, as of modTime (after a full Read, or its own Write or Edit).
func (s *State) RememberFull(path string, content []byte, modTime time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.records[path] = Record{Hash: sha256.Sum256(content), ModTime: modTime, Full: true}
}

// RememberPart records that the session has seen part of the file at path, as
// of modTime. It does not downgrade a full record of the same version.
func (s *State) RememberPart(path string, modTime time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if old, ok := s.records[path]; ok && old.Full && old.ModTime.Equal(modTime) {
		return
	}
	s.records[path] = Record{ModTime: modTime}
}

// Lookup returns the record of path, if the session has one.
func (s *State) Lookup(path string) (Record, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.records[path]
	return r, ok
}

// Changed reports whether the file at path differs from the version in r: its
// mtime moved (to the nanosecond) and, when the whole content is known, the
// content differs too (a touch alone is not a change).
func Changed(path string, r Record) (bool, error) {
	info, err := os.Stat(path)
	if err != nil {
		return false, fmt.Errorf("stat %s: %w", path, err)
	}
	if info.ModTime().Equal(r.ModTime) {
		return false, nil
	}
	if !r.Full {
		return true, nil
	}
	content, err := os.ReadFile(path)
	if err != nil {
		return false, fmt.Errorf("read %s: %w", path, err)
	}
	return sha256.Sum256(content) != r.Hash, nil
}

// Inherit returns a copy of the state for a sub-agent's session, so that it
// can edit the files its parent read, as Claude Code's sub-agents can.
func (s *State) Inherit() any { return &State{records: s.Records()} }

// Records returns a copy of every record, by path, so a transcript can keep
// what the session knew of its files and a resumed session get it back.
func (s *State) Records() map[string]Record {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.records)
}

// Restore puts back a record kept from an earlier run of the session and
// reports whether the file is still the version it describes. The record of a
// file changed since stays as it was, so Write and Edit see the change and ask
// for a new Read, as they would had the session never stopped.
func (s *State) Restore(path string, r Record) bool {
	current := false
	if info, err := os.Stat(path); err == nil {
		if changed, err := Changed(path, r); err == nil && !changed {
			r.ModTime, current = info.ModTime(), true
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.records[path] = r
	return current
}

// Paths returns the absolute paths the session has read or written, sorted.
func (s *State) Paths() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	paths := make([]string, 0, len(s.records))
	for path := range s.records {
		paths = append(paths, path)
	}
	slices.Sort(paths)
	return paths
}

// maxCarried caps the files read that a compaction carries over.
const maxCarried = 100

// Carry lists the files the session has read but not edited, sorted, as a
// compaction carries them over: at most maxCarried, with a count of the rest.
func (s *State) Carry(edited []string) tool.Section {
	var read []string
	for _, path := range s.Paths() {
		if !slices.Contains(edited, path) {
			read = append(read, path)
		}
	}
	if len(read) > maxCarried {
		read = append(read[:maxCarried], fmt.Sprintf("(and %d more)", len(read)-maxCarried))
	}
	return tool.Section{Tag: "files-read", Lines: read}
}

// StateCurrentNote follows the first sentence of a successful Edit or Write,
// as in Claude Code 2.1.332: the model need not read the file back (unless it
// had changed on disk, which an Edit says instead).
const StateCurrentNote = " (file state is current in your context — no need to Read it back)"

package checkpoint

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/mini-claude/mini-claude/internal/atomicfile"
)

// Change is a file a restore puts back.
type Change struct {
	Path string
	// To is the version the file goes back to; an absent one deletes the
	// file, which a later prompt created.
	To Version
	// Outside says the file is no longer what mini-claude's file tools left:
	// someone (an editor, a command) changed it since, and restoring it would
	// lose that change.
	Outside bool
}

// Plan is what a restore would change, a file per Change, in the order the
// files were first changed.
type Plan struct {
	Changes []Change
}

// Outside returns the files of the plan changed by someone else since
// mini-claude last wrote them.
func (p Plan) Outside() []string {
	var paths []string
	for _, c := range p.Changes {
		if c.Outside {
			paths = append(paths, c.Path)
		}
	}
	return paths
}

// Paths returns every file of the plan.
func (p Plan) Paths() []string {
	paths := make([]string, len(p.Changes))
	for i, c := range p.Changes {
		paths[i] = c.Path
	}
	return paths
}

// Plan returns what putting the files back as they were before the prompt
// turn would change: each file changed since the prompt began, by it or a
// later prompt, goes back to the version stored before its first change. A
// file that is already that version is left out; a prompt the store has no
// record of plans nothing.
func (s *Store) Plan(turn string) (Plan, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	start := slices.IndexFunc(s.entries, func(e entry) bool { return e.Turn == turn && e.Begin })
	if start < 0 {
		start = slices.IndexFunc(s.entries, func(e entry) bool { return e.Turn == turn })
	}
	if start < 0 {
		return Plan{}, nil
	}
	targets := map[string]Version{}
	var order []string
	for _, e := range s.entries[start:] {
		if e.Before == nil {
			continue
		}
		if _, seen := targets[e.Path]; !seen {
			targets[e.Path] = *e.Before
			order = append(order, e.Path)
		}
	}
	var plan Plan
	for _, path := range order {
		to := targets[path]
		now, _, regular, err := s.current(path, false)
		if err != nil {
			return Plan{}, err
		}
		if regular && now.same(to) && (to.Absent || now.Mode == to.Mode) {
			continue
		}
		last, known := s.wrote[path]
		plan.Changes = append(plan.Changes, Change{Path: path, To: to, Outside: !regular || !known || !last.same(now)})
	}
	return plan, nil
}

// Result says what a restore did, file by file.
type Result struct {
	// Restored are the files written back; Deleted those removed, which a
	// later prompt had created.
	Restored, Deleted []string
	// Kept are the files changed by someone else that were left as they are.
	Kept []string
	// Failed are the files that could not be restored; the error says why.
	Failed []string
}

// Restore carries out plan: each file gets back the exact bytes and the
// mode of its version, or is deleted when it did not exist. Files changed by
// someone else since mini-claude wrote them are restored only when
// overwrite is set, and otherwise kept. A file that cannot be restored does
// not stop the others; the error names every one that failed.
func (s *Store) Restore(plan Plan, overwrite bool) (Result, error) {
	var res Result
	var errs []error
	for _, c := range plan.Changes {
		if c.Outside && !overwrite {
			res.Kept = append(res.Kept, c.Path)
			continue
		}
		deleted, err := s.restoreOne(c)
		switch {
		case err != nil:
			res.Failed = append(res.Failed, c.Path)
			errs = append(errs, err)
		case deleted:
			res.Deleted = append(res.Deleted, c.Path)
		default:
			res.Restored = append(res.Restored, c.Path)
		}
	}
	if err := s.Wrote("", slices.Concat(res.Restored, res.Deleted)); err != nil {
		errs = append(errs, err)
	}
	return res, errors.Join(errs...)
}

// restoreOne puts one file back and reports whether that deleted it.
func (s *Store) restoreOne(c Change) (deleted bool, err error) {
	if c.To.Absent {
		if err := os.Remove(c.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return false, fmt.Errorf("delete %s: %w", c.Path, err)
		}
		return true, nil
	}
	s.mu.Lock()
	data, err := s.pack.load(c.To.chunkSums())
	s.mu.Unlock()
	if err != nil {
		return false, fmt.Errorf("restore %s: %w", c.Path, err)
	}
	if err := os.MkdirAll(filepath.Dir(c.Path), 0o755); err != nil {
		return false, fmt.Errorf("restore %s: %w", c.Path, err)
	}
	if err := atomicfile.Replace(c.Path, data, c.To.Mode); err != nil {
		return false, fmt.Errorf("restore %s: %w", c.Path, err)
	}
	return false, nil
}

package trust

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mini-claude/mini-claude/internal/atomicfile"
)

// FileName is the trust record's file in the user's mini-claude folder.
const FileName = "trust.json"

// The states of a folder in the record.
const (
	// Unknown: the user has not answered for this folder or a parent.
	Unknown State = iota
	// Trusted: the folder's own definitions take effect.
	Trusted
	// Refused: the user said no; the folder is treated as untrusted without asking again.
	Refused
)

// State is what the user answered for a folder.
type State int

// Store is the trust record, a JSON file in the user's own config folder.
type Store struct {
	path string
}

// Open returns the record kept in home, the user's mini-claude folder; with
// home empty nothing is trusted and nothing can be saved.
func Open(home string) *Store {
	if home == "" {
		return &Store{}
	}
	return &Store{path: filepath.Join(home, FileName)}
}

// Path is the record's file.
func (s *Store) Path() string {
	return s.path
}

// record is the file's content.
type record struct {
	Folders map[string]*folder `json:"folders"`
}

// folder is what the user decided for one folder.
type folder struct {
	// Trusted is nil when the entry only holds server approvals.
	Trusted *bool  `json:"trusted,omitempty"`
	At      string `json:"at,omitempty"`
	// Servers maps an approved project MCP server's name to the fingerprint
	// of the configuration the user saw.
	Servers map[string]string `json:"mcpServers,omitempty"`
}

// Entry is one folder's decision, as `mini-claude trust --list` shows it.
type Entry struct {
	Dir     string
	State   State
	At      string
	Servers []string
}

// Canonical is the form a folder is recorded under: absolute, cleaned, with
// symlinks resolved when it exists.
func Canonical(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return filepath.Clean(dir)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real
	}
	return abs
}

// Broad reports whether trusting dir would trust far more than a project:
// the root, the user's home folder, or a folder above it. Trust in such a
// folder would cover every repository the user ever clones.
func Broad(dir, home string) bool {
	dir = Canonical(dir)
	if dir == string(filepath.Separator) {
		return true
	}
	if home == "" {
		return false
	}
	home = Canonical(home)
	return home == dir || strings.HasPrefix(home, dir+string(filepath.Separator))
}

// Folder returns the state of dir: the decision recorded for it or, failing
// that, for its nearest parent with one, so trusting a folder trusts what is
// inside it. A record that cannot be read trusts nothing, and says why.
func (s *Store) Folder(dir string) (State, error) {
	rec, err := s.read()
	if err != nil {
		return Unknown, err
	}
	_, f := rec.decider(dir)
	switch {
	case f == nil:
		return Unknown, nil
	case *f.Trusted:
		return Trusted, nil
	}
	return Refused, nil
}

// DecidedBy returns the folder whose recorded answer decides dir's state:
// dir itself or its nearest parent with an answer; "" when none has one.
func (s *Store) DecidedBy(dir string) string {
	rec, err := s.read()
	if err != nil {
		return ""
	}
	by, _ := rec.decider(dir)
	return by
}

// decider finds the nearest folder, dir or a parent, with a recorded answer.
func (rec *record) decider(dir string) (string, *folder) {
	for d := Canonical(dir); ; d = filepath.Dir(d) {
		if f := rec.Folders[d]; f != nil && f.Trusted != nil {
			return d, f
		}
		if filepath.Dir(d) == d {
			return "", nil
		}
	}
}

// Decide records the user's answer for dir.
func (s *Store) Decide(dir string, trusted bool) error {
	return s.update(func(rec *record) bool {
		f := rec.entry(Canonical(dir))
		f.Trusted = &trusted
		f.At = time.Now().UTC().Format(time.RFC3339)
		return true
	})
}

// Revoke forgets dir: its trust and its approved servers. It reports whether
// the record held anything for it.
func (s *Store) Revoke(dir string) (bool, error) {
	found := false
	err := s.update(func(rec *record) bool {
		key := Canonical(dir)
		_, found = rec.Folders[key]
		delete(rec.Folders, key)
		return found
	})
	return found, err
}

// List returns every recorded folder, sorted by path.
func (s *Store) List() ([]Entry, error) {
	rec, err := s.read()
	if err != nil {
		return nil, err
	}
	var entries []Entry
	for dir, f := range rec.Folders {
		e := Entry{Dir: dir, At: f.At}
		if f.Trusted != nil {
			e.State = Refused
			if *f.Trusted {
				e.State = Trusted
			}
		}
		for name := range f.Servers {
			e.Servers = append(e.Servers, name)
		}
		slices.Sort(e.Servers)
		entries = append(entries, e)
	}
	slices.SortFunc(entries, func(a, b Entry) int { return strings.Compare(a.Dir, b.Dir) })
	return entries, nil
}

// The answers ServerApproval gives.
const (
	// Unapproved: the user never approved a server of that name here.
	Unapproved Approval = iota
	// Approved: the user approved this very configuration.
	Approved
	// Changed: the user approved the server, but its configuration has
	// changed since; it needs approval again.
	Changed
)

// Approval says whether a project MCP server may start.
type Approval int

// ServerApproval reports whether the user approved the project server name of
// dir with the configuration whose fingerprint is given.
func (s *Store) ServerApproval(dir, name, fingerprint string) (Approval, error) {
	rec, err := s.read()
	if err != nil {
		return Unapproved, err
	}
	f := rec.Folders[Canonical(dir)]
	if f == nil {
		return Unapproved, nil
	}
	switch seen, ok := f.Servers[name]; {
	case !ok:
		return Unapproved, nil
	case seen == fingerprint:
		return Approved, nil
	}
	return Changed, nil
}

// ApproveServer records the user's approval of the project server name of dir,
// in the configuration whose fingerprint is given.
func (s *Store) ApproveServer(dir, name, fingerprint string) error {
	return s.update(func(rec *record) bool {
		f := rec.entry(Canonical(dir))
		if f.Servers == nil {
			f.Servers = map[string]string{}
		}
		f.Servers[name] = fingerprint
		return true
	})
}

func (rec *record) entry(dir string) *folder {
	if rec.Folders == nil {
		rec.Folders = map[string]*folder{}
	}
	if rec.Folders[dir] == nil {
		rec.Folders[dir] = &folder{}
	}
	return rec.Folders[dir]
}

func (s *Store) read() (*record, error) {
	rec := &record{}
	if s.path == "" {
		return rec, nil
	}
	data, err := os.ReadFile(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return rec, nil
	}
	if err != nil {
		return rec, fmt.Errorf("read the trust record %s: %w; no folder is trusted", s.path, err)
	}
	if err := json.Unmarshal(data, rec); err != nil {
		return &record{}, fmt.Errorf("the trust record %s is not valid JSON (%v); no folder is trusted until it is mended or removed", s.path, err)
	}
	return rec, nil
}

// update changes the record under its lock; change reports whether it changed anything.
func (s *Store) update(change func(*record) bool) error {
	if s.path == "" {
		return errors.New("no user folder to keep the trust record in: set HOME or MINI_CLAUDE_HOME")
	}
	return atomicfile.Update(s.path, 0o600, func(old []byte) ([]byte, error) {
		rec := &record{}
		if old != nil {
			if err := json.Unmarshal(old, rec); err != nil {
				return nil, fmt.Errorf("the trust record %s is not valid JSON (%v), so it was not changed", s.path, err)
			}
		}
		if !change(rec) {
			return nil, atomicfile.ErrUnchanged
		}
		out, err := json.MarshalIndent(rec, "", "  ")
		if err != nil {
			return nil, err
		}
		return append(out, '\n'), nil
	})
}

// Fingerprint identifies a server's configuration as written: the SHA-256 of
// its JSON with keys sorted and spaces dropped, so reformatting the file keeps
// an approval and any change of command, argument, URL or variable ends it.
func Fingerprint(raw json.RawMessage) string {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return fmt.Sprintf("%x", sha256.Sum256(raw))
	}
	canonical, _ := json.Marshal(v)
	return fmt.Sprintf("%x", sha256.Sum256(canonical))
}

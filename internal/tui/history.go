package tui

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
)

// maxHistory is how many prompts a project's history keeps.
const maxHistory = 500

// history is the project's past prompts, newest last, browsed with up and
// down and appended to a file (one JSON string a line) as they are sent.
type history struct {
	path    string
	entries []string
	// pos is the entry shown while browsing; len(entries) when not browsing.
	pos int
	// draft is the input as it was before browsing began.
	draft string
}

func loadHistory(path string) *history {
	h := &history{path: path}
	if path != "" {
		if f, err := os.Open(path); err == nil {
			sc := bufio.NewScanner(f)
			sc.Buffer(make([]byte, 64*1024), 4<<20)
			for sc.Scan() {
				var s string
				if json.Unmarshal(sc.Bytes(), &s) == nil {
					h.entries = append(h.entries, s)
				}
			}
			f.Close()
		}
	}
	if len(h.entries) > maxHistory {
		h.entries = h.entries[len(h.entries)-maxHistory:]
	}
	h.pos = len(h.entries)
	return h
}

// add records a sent prompt, in memory and in the file; a failure to write
// the file only loses the history.
func (h *history) add(s string) {
	if len(h.entries) == 0 || h.entries[len(h.entries)-1] != s {
		h.entries = append(h.entries, s)
		h.save(s)
	}
	h.pos, h.draft = len(h.entries), ""
}

func (h *history) save(s string) {
	if h.path == "" {
		return
	}
	if err := os.MkdirAll(filepath.Dir(h.path), 0o700); err != nil {
		return
	}
	f, err := os.OpenFile(h.path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	line, _ := json.Marshal(s)
	_, _ = f.Write(append(line, '\n'))
}

// previous returns the entry before the one shown; current is the input,
// kept as the draft when browsing starts.
func (h *history) previous(current string) string {
	if h.pos == len(h.entries) {
		h.draft = current
	}
	if h.pos > 0 {
		h.pos--
	}
	if h.pos == len(h.entries) {
		return current
	}
	return h.entries[h.pos]
}

// next returns the entry after the one shown, or the draft past the newest;
// false when not browsing.
func (h *history) next() (string, bool) {
	if h.pos == len(h.entries) {
		return "", false
	}
	h.pos++
	if h.pos == len(h.entries) {
		return h.draft, true
	}
	return h.entries[h.pos], true
}

package fleet

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/google/uuid"
)

// Task is one unit of work: a prompt run headless in a directory or in a
// fresh clone of a repository. It carries no credentials: a worker's runs
// use the worker's own environment and settings.
type Task struct {
	// ID names the task: it deduplicates submissions, keys its state and
	// result, and derives its session id.
	ID     string `json:"id"`
	Prompt string `json:"prompt"`
	// Repo is a repository the worker clones for the task (a URL or a path
	// git clone accepts); Dir is a directory on the worker's machine to run
	// in instead. Exactly one is set.
	Repo string `json:"repo,omitempty"`
	Dir  string `json:"dir,omitempty"`
	// Model is the model of the run; empty is the worker's default.
	Model string `json:"model,omitempty"`
	// AllowedTools are permission rules that allow tools without asking, as
	// --allowedTools takes them.
	AllowedTools []string `json:"allowedTools,omitempty"`
	// MaxTurns stops the run after this many model turns; 0 is no limit.
	MaxTurns int `json:"maxTurns,omitempty"`
	// MaxBudgetUSD stops the run once it has cost this much; 0 is no limit.
	MaxBudgetUSD float64 `json:"maxBudgetUsd,omitempty"`
}

// validID says whether id has the form of a task id, a key of the fleet's
// buckets: 1 to 128 of A-Z, a-z, 0-9, "_", "-" and ".", not starting with
// ".". A loop rather than a package-level regexp: its {0,127} compiled to
// 0.4 ms of initialisation in every run of the binary.
func validID(id string) bool {
	if id == "" || len(id) > 128 || id[0] == '.' {
		return false
	}
	for _, c := range []byte(id) {
		ok := 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '_' || c == '-' || c == '.'
		if !ok {
			return false
		}
	}
	return true
}

// Validate reports what is wrong with a task, or nil.
func (t Task) Validate() error {
	switch {
	case t.ID == "":
		return errors.New(`"id" is required`)
	case !validID(t.ID) || strings.HasSuffix(t.ID, "."):
		return fmt.Errorf(`"id" %q: use up to 128 letters, digits, '-', '_' or '.', not starting or ending with '.'`, t.ID)
	case strings.TrimSpace(t.Prompt) == "":
		return errors.New(`"prompt" is required`)
	case t.Repo == "" && t.Dir == "":
		return errors.New(`set "repo" (a repository to clone) or "dir" (a directory on the worker)`)
	case t.Repo != "" && t.Dir != "":
		return errors.New(`set "repo" or "dir", not both`)
	case t.MaxTurns < 0:
		return fmt.Errorf(`"maxTurns" must be 0 (no limit) or more, not %d`, t.MaxTurns)
	case t.MaxBudgetUSD < 0:
		return fmt.Errorf(`"maxBudgetUsd" must be 0 (no limit) or more, not %g`, t.MaxBudgetUSD)
	}
	return nil
}

// ParseTasks reads tasks, one JSON object a line; blank lines are skipped.
// An error names the line and what is wrong with it: bad JSON, an unknown
// field, a missing or invalid field, or an id used twice.
func ParseTasks(r io.Reader) ([]Task, error) {
	var tasks []Task
	seen := map[string]int{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		var t Task
		if err := dec.Decode(&t); err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		if dec.More() {
			return nil, fmt.Errorf("line %d: one task a line: text follows the JSON object", n)
		}
		if err := t.Validate(); err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		if first, ok := seen[t.ID]; ok {
			return nil, fmt.Errorf("line %d: id %q is used on line %d too", n, t.ID, first)
		}
		seen[t.ID] = n
		tasks = append(tasks, t)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read tasks: %w", err)
	}
	if len(tasks) == 0 {
		return nil, errors.New("no tasks: write one JSON object a line")
	}
	return tasks, nil
}

// sessionNamespace is the UUID namespace of the session ids derived from task ids.
var sessionNamespace = uuid.NewSHA1(uuid.NameSpaceURL, []byte("https://github.com/mini-claude/mini-claude/fleet"))

// SessionID returns the session id of a task's runs: a UUID v5 of its id,
// the same on every worker, so a redelivered task resumes its transcript.
func SessionID(taskID string) string {
	return uuid.NewSHA1(sessionNamespace, []byte(taskID)).String()
}

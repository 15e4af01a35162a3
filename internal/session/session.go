// Package session keeps each session's transcript: an append-only JSONL file
// at <per-user folder>/projects/<project slug>/<session id>.jsonl with one line
// per user message, assistant message, tool results and system event, each
// written before the agent takes its next step, so a crash loses at most the
// message in flight, and fsync'd in the background right after, off the path
// of the requests. Load reads a transcript back into a
// conversation the API accepts again (a torn last line skipped, calls left
// without a result answered as interrupted), with the session's file state;
// List finds a project's sessions for --continue, --resume and a picker; Costs
// tallies usage and cost per model.
package session

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/resultstore"
)

// Errors a caller tells apart.
var (
	// ErrNotFound is the cause of a failed lookup of a session.
	ErrNotFound = errors.New("no such session")
	// ErrExists is the cause of a failed Create of a session that has a transcript.
	ErrExists = errors.New("session exists")
)

// Dir returns the folder of a project's transcripts, project being the
// directory the sessions started in; it is the folder of their stored tool results too.
func Dir(project string) string {
	return filepath.Join(resultstore.Root(), resultstore.ProjectSlug(project))
}

// Path returns the transcript of session id of a project.
func Path(project, id string) string {
	return filepath.Join(Dir(project), id+".jsonl")
}

// NewID returns a fresh session id.
func NewID() string { return uuid.NewString() }

// ValidID reports whether id is a session id: a UUID in its canonical form.
func ValidID(id string) error {
	parsed, err := uuid.Parse(id)
	if err != nil || parsed.String() != strings.ToLower(id) || len(id) != 36 {
		return fmt.Errorf("%q is not a session id; a session id is a UUID such as %s", id, uuid.Nil)
	}
	return nil
}

// Info describes a session of a project, for a picker and for --continue.
type Info struct {
	ID   string
	Path string
	// FirstPrompt is the text of the first prompt, on one line.
	FirstPrompt string
	Modified    time.Time
	// MessageCount counts the user and assistant lines.
	MessageCount int
}

// List returns the sessions of a project, the most recently modified first; a
// project without any returns none and no error.
func List(project string) ([]Info, error) {
	dir := Dir(project)
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list the sessions of %s: %w", project, err)
	}
	var infos []Info
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".jsonl")
		if !ok || e.IsDir() || ValidID(id) != nil {
			continue
		}
		info, err := describe(filepath.Join(dir, e.Name()), id)
		if err != nil {
			continue
		}
		infos = append(infos, info)
	}
	slices.SortFunc(infos, func(a, b Info) int { return b.Modified.Compare(a.Modified) })
	return infos, nil
}

// Newest returns the most recently modified session of a project.
func Newest(project string) (Info, error) {
	infos, err := List(project)
	if err != nil {
		return Info{}, err
	}
	if len(infos) == 0 {
		return Info{}, fmt.Errorf("%w: %s has no sessions to continue", ErrNotFound, project)
	}
	return infos[0], nil
}

// Find returns the transcript of session id of a project. When the session
// belongs to another project, the error names that project's directory.
func Find(project, id string) (string, error) {
	if err := ValidID(id); err != nil {
		return "", err
	}
	path := Path(project, id)
	if _, err := os.Stat(path); err == nil {
		return path, nil
	}
	others, _ := filepath.Glob(filepath.Join(resultstore.Root(), "*", id+".jsonl"))
	for _, other := range others {
		if cwd := firstCwd(other); cwd != "" {
			return "", fmt.Errorf("%w: session %s belongs to the project in %s; run from that directory to resume it", ErrNotFound, id, cwd)
		}
	}
	return "", fmt.Errorf("%w: no session %s in %s (list them with `ls %s`)", ErrNotFound, id, project, Dir(project))
}

// describe reads what Info needs from a transcript, decoding only the type
// and content of each line.
func describe(path, id string) (Info, error) {
	f, err := os.Open(path)
	if err != nil {
		return Info{}, err
	}
	defer f.Close()
	stat, err := f.Stat()
	if err != nil {
		return Info{}, err
	}
	info := Info{ID: id, Path: path, Modified: stat.ModTime()}
	err = eachLine(f, func(data []byte, _ bool) {
		var line struct {
			Type    string `json:"type"`
			Message *struct {
				Content json.RawMessage `json:"content"`
			} `json:"message"`
		}
		if json.Unmarshal(data, &line) != nil || line.Message == nil || line.Type != TypeUser && line.Type != TypeAssistant {
			return
		}
		info.MessageCount++
		if line.Type == TypeUser && info.FirstPrompt == "" {
			info.FirstPrompt = promptText(line.Message.Content)
		}
	})
	return info, err
}

// eachLine calls fn with every line of r, without its newline; complete is
// false for a last line that has no newline, cut off mid-write.
func eachLine(r io.Reader, fn func(line []byte, complete bool)) error {
	br := bufio.NewReaderSize(r, 256*1024)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			trimmed, complete := bytes.CutSuffix(line, []byte("\n"))
			fn(trimmed, complete)
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// promptText returns the text of a user message's content on one line, or ""
// when it holds only tool results.
func promptText(raw json.RawMessage) string {
	var text string
	if json.Unmarshal(raw, &text) != nil {
		var blocks []llm.ContentBlock
		if json.Unmarshal(raw, &blocks) != nil {
			return ""
		}
		text = llm.Message{Content: blocks}.PromptText()
	}
	return strings.Join(strings.Fields(text), " ")
}

// firstCwd returns the cwd of the first line of a transcript that has one.
func firstCwd(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	for line := range bytes.Lines(data) {
		var l struct {
			Cwd string `json:"cwd"`
		}
		if json.Unmarshal(line, &l) == nil && l.Cwd != "" {
			return l.Cwd
		}
	}
	return ""
}

package goldenfile

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Recording is what Claude Code 2.1.332 answered to a set of tool calls,
// as e2e/testdata/tooldiff/record writes it under a tool's
// testdata/claude-code: the project's files before, the calls, each result
// and the files after. $CWD in inputs and texts stands for the project.
type Recording struct {
	Name  string         `json:"name"`
	Tool  string         `json:"tool"`
	Dir   string         `json:"dir"`
	Files []RecordedFile `json:"files"`
	Calls []RecordedCall `json:"calls"`
	// Results are the tool results, one per call, in order.
	Results []RecordedResult `json:"results"`
	// After holds the project's files afterwards, but those written with Repeat.
	After map[string]string `json:"files_after"`
}

// RecordedFile is a file of the project: Content repeated Repeat times (once
// when 0), or a symbolic link to Link.
type RecordedFile struct {
	Path    string `json:"path"`
	Content string `json:"content"`
	Repeat  int    `json:"repeat"`
	Link    string `json:"link"`
}

// RecordedCall is one tool_use; Setup marks a call that only prepares the
// one under test.
type RecordedCall struct {
	Tool  string          `json:"tool"`
	Input json.RawMessage `json:"input"`
	Setup bool            `json:"setup"`
}

// RecordedResult is one tool_result. A long text keeps only its two ends;
// Length and SHA256 then describe the whole.
type RecordedResult struct {
	Text    string `json:"text"`
	IsError bool   `json:"is_error"`
	Length  int    `json:"length"`
	SHA256  string `json:"sha256"`
}

// recordingEpoch is the modification time of a recording's first file; each
// later one is a second newer.
var recordingEpoch = time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)

// LoadRecording reads the recording testdata/claude-code/<name>.json.
func LoadRecording(t testing.TB, name string) Recording {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "claude-code", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var r Recording
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatalf("recording %s: %v", name, err)
	}
	if len(r.Results) != len(r.Calls) {
		t.Fatalf("recording %s: %d results for %d calls", name, len(r.Results), len(r.Calls))
	}
	return r
}

// WriteFiles writes the recording's project into dir, with the same order
// of modification times.
func (r Recording) WriteFiles(t testing.TB, dir string) {
	t.Helper()
	for i, f := range r.Files {
		path := filepath.Join(dir, f.Path)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if f.Link != "" {
			if err := os.Symlink(f.Link, path); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(path, []byte(strings.Repeat(f.Content, max(f.Repeat, 1))), 0o644); err != nil {
			t.Fatal(err)
		}
		when := recordingEpoch.Add(time.Duration(i) * time.Second)
		if err := os.Chtimes(path, when, when); err != nil {
			t.Fatal(err)
		}
	}
}

// Input is call i's input with the project at dir.
func (r Recording) Input(i int, dir string) json.RawMessage {
	return json.RawMessage(strings.ReplaceAll(string(r.Calls[i].Input), "$CWD", dir))
}

// Matches reports whether text is the recorded text: equal, or for a long
// one of the same length and SHA-256.
func (res RecordedResult) Matches(text string) bool {
	if res.SHA256 == "" {
		return text == res.Text
	}
	sum := sha256.Sum256([]byte(text))
	return len(text) == res.Length && hex.EncodeToString(sum[:]) == res.SHA256
}

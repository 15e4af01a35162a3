// Command record runs tool calls through the real Claude Code 2.1.332 and
// writes what it answered as golden files under each tool's testdata (see
// e2e/testdata/tooldiff/README.md):
//
//	go run ./e2e/testdata/tooldiff/record [-claude PATH] [-only NAME,…] [-keep]
//
// Each scenario of e2e/testdata/tooldiff/scenarios.json gets a scratch
// project holding its files; the scripted model server of internal/llm/llmtest
// sends the scenario's calls one turn each, and claude -p runs them with
// permissions bypassed. The golden file keeps the scenario, each tool_result
// (its text and is_error) and the project's files afterwards, with the
// scratch paths written as placeholders.
package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/mini-claude/mini-claude/internal/goldenfile/recorder"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

const scenarioFile = "e2e/testdata/tooldiff/scenarios.json"

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "record:", err)
		os.Exit(1)
	}
}

func run() error {
	var f recorder.Flags
	f.Register(flag.CommandLine)
	file := flag.String("scenarios", scenarioFile, "the scenarios to record")
	flag.Parse()
	claude, err := recorder.Check(f.Claude)
	if err != nil {
		return err
	}
	data, err := os.ReadFile(*file)
	if err != nil {
		return fmt.Errorf("run from the repository's root: %w", err)
	}
	var scenarios []Scenario
	if err := json.Unmarshal(data, &scenarios); err != nil {
		return fmt.Errorf("%s: %w", *file, err)
	}
	for _, sc := range scenarios {
		if !f.Wants(sc.Name) {
			continue
		}
		fmt.Fprintf(os.Stderr, "record: %s\n", sc.Name)
		g, err := record(claude, sc, f.Keep)
		if err != nil {
			return fmt.Errorf("%s: %w", sc.Name, err)
		}
		if err := g.write(); err != nil {
			return fmt.Errorf("%s: %w", sc.Name, err)
		}
	}
	return nil
}

// Scenario is one set of tool calls run on a fresh project.
type Scenario struct {
	// Name names the golden file, Tool the package whose testdata holds it.
	Name string `json:"name"`
	Tool string `json:"tool"`
	// Files are written in order, each one second newer than the one before.
	Files []File `json:"files,omitempty"`
	// Calls are sent one a turn; $CWD in their input is the project.
	Calls []Call `json:"calls"`
	// Dir, when set, is the folder of the project Claude Code runs in.
	Dir string `json:"dir,omitempty"`
}

// File is one file of the project: Content repeated Repeat times (once when
// 0), or a symbolic link to Link.
type File struct {
	Path    string `json:"path"`
	Content string `json:"content,omitempty"`
	Repeat  int    `json:"repeat,omitempty"`
	Link    string `json:"link,omitempty"`
}

// Call is one tool_use. A setup call only prepares the one under test (the
// Read an Edit needs first); replays do not compare its result's text.
type Call struct {
	Tool  string          `json:"tool"`
	Input json.RawMessage `json:"input"`
	Setup bool            `json:"setup,omitempty"`
}

// Result is one tool_result as Claude Code sent it to the model. A text
// longer than maxKept keeps only its head and tail around an elision mark,
// with the whole text's length and SHA-256.
type Result struct {
	Text    string `json:"text"`
	IsError bool   `json:"is_error"`
	Length  int    `json:"length,omitempty"`
	SHA256  string `json:"sha256,omitempty"`
}

// maxKept is the longest result text kept whole; keptEnds is how much of each
// end of a longer one is kept.
const (
	maxKept  = 20_000
	keptEnds = 2_000
)

// newResult makes the Result of a tool_result's text.
func newResult(text string, isError bool) Result {
	if len(text) <= maxKept {
		return Result{Text: text, IsError: isError}
	}
	sum := sha256.Sum256([]byte(text))
	return Result{Text: text[:keptEnds] + "\n[…]\n" + text[len(text)-keptEnds:], IsError: isError,
		Length: len(text), SHA256: hex.EncodeToString(sum[:])}
}

// Golden is what the recorder writes for a scenario.
type Golden struct {
	Scenario
	Results []Result          `json:"results"`
	After   map[string]string `json:"files_after"`
}

func (g *Golden) write() error {
	data, err := json.MarshalIndent(g, "", "  ")
	if err != nil {
		return err
	}
	path := filepath.Join("internal", "tools", g.Tool, "testdata", "claude-code", g.Name+".json")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

// epoch is the modification time of a scenario's first file.
var epoch = time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)

func record(claude string, sc Scenario, keep bool) (*Golden, error) {
	s, err := recorder.NewScratch("tooldiff-", sc.Name, keep)
	if err != nil {
		return nil, err
	}
	defer s.Remove()
	dir, proj, home := s.Dir, s.Proj, s.Home
	for i, f := range sc.Files {
		path := filepath.Join(proj, f.Path)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, err
		}
		if f.Link != "" {
			if err := os.Symlink(f.Link, path); err != nil {
				return nil, err
			}
			continue
		}
		if err := os.WriteFile(path, []byte(strings.Repeat(f.Content, max(f.Repeat, 1))), 0o644); err != nil {
			return nil, err
		}
		when := epoch.Add(time.Duration(i) * time.Second)
		if err := os.Chtimes(path, when, when); err != nil {
			return nil, err
		}
	}
	if err := recorder.WriteState(home, filepath.Join(proj, sc.Dir)); err != nil {
		return nil, err
	}

	srv, err := llmtest.Start()
	if err != nil {
		return nil, err
	}
	defer srv.Close()
	srv.ServeFunc(func(req llmtest.Request) llmtest.Turn {
		n := req.AssistantTurns()
		if n >= len(sc.Calls) {
			return llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("Done.")}}
		}
		c := sc.Calls[n]
		input := strings.ReplaceAll(string(c.Input), "$CWD", proj)
		return llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("", c.Tool, input)}}
	})
	runDir := filepath.Join(proj, sc.Dir)
	if err := os.MkdirAll(runDir, 0o755); err != nil {
		return nil, err
	}
	stdout, err := runClaude(claude, runDir, home, srv.URL, sc.tools())
	if keep {
		os.WriteFile(filepath.Join(dir, "stdout.jsonl"), stdout, 0o644)
	}
	if err != nil {
		return nil, err
	}
	recorder.ReportViolations(sc.Name, srv)
	reqs := srv.Requests()
	if len(reqs) == 0 {
		return nil, errors.New("claude sent no request")
	}
	n := newNormalizer(dir, proj, home)
	g := &Golden{Scenario: sc, After: map[string]string{}}
	for _, req := range reqs {
		if r, ok := newestResult(req, len(g.Results)); ok {
			g.Results = append(g.Results, newResult(n.apply(r.text), r.isError))
		}
	}
	if len(g.Results) != len(sc.Calls) {
		return nil, fmt.Errorf("%d tool results for %d calls", len(g.Results), len(sc.Calls))
	}
	err = filepath.WalkDir(proj, func(path string, d os.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		rel, _ := filepath.Rel(proj, path)
		if f, ok := sc.file(rel); ok && f.Repeat > 1 {
			return nil // large generated files are left out
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		g.After[filepath.ToSlash(rel)] = n.apply(string(data))
		return nil
	})
	return g, err
}

// tools are the tools the scenario calls, each once, in order of first use:
// Claude Code is started with exactly these (Glob, for one, is not in its
// default set).
func (sc Scenario) tools() []string {
	var out []string
	for _, c := range sc.Calls {
		if !slices.Contains(out, c.Tool) {
			out = append(out, c.Tool)
		}
	}
	return out
}

// toolResult is the text and flag of a tool_result block.
type toolResult struct {
	text    string
	isError bool
}

// newestResult returns the answer to call number i when req is the request
// that first carries it: the one after the model's i+1th turn. Later requests
// may carry it shortened by Claude Code's context management.
func newestResult(req llmtest.Request, i int) (toolResult, bool) {
	if req.AssistantTurns() != i+1 {
		return toolResult{}, false
	}
	text, isError, ok := recorder.LastToolResult(req)
	return toolResult{text: text, isError: isError}, ok
}

func (sc Scenario) file(rel string) (File, bool) {
	for _, f := range sc.Files {
		if filepath.Clean(f.Path) == rel {
			return f, true
		}
	}
	return File{}, false
}

// runClaude runs claude -p in the project with permissions bypassed and
// returns its stdout (stream-json).
func runClaude(claude, proj, home, url string, tools []string) ([]byte, error) {
	args := []string{"-p", "Do the task.", "--output-format", "stream-json", "--verbose", "--model", recorder.Model,
		"--permission-mode", "bypassPermissions", "--tools", strings.Join(tools, ",")}
	out, err := recorder.Command{Path: claude, Args: args, Dir: proj, Env: recorder.Env(home, url),
		Timeout: 5 * time.Minute}.Run(context.Background())
	if err == nil && out.ExitCode != 0 {
		err = fmt.Errorf("claude exited %d", out.ExitCode)
	}
	if err != nil {
		return out.Stdout, fmt.Errorf("claude: %w: %s", err, out.Stderr)
	}
	return out.Stdout, nil
}

// normalizer writes the scratch paths, and what Claude Code makes up (task
// ids, its background output files), as placeholders, and drops the
// system-reminder blocks Claude Code appends to every tool result (the
// tokens left, nudges to use its task tools), which are not the tool's.
type normalizer struct {
	replacer *strings.Replacer
}

var (
	// reminder is a system-reminder block at the end of a tool result.
	reminder = regexp.MustCompile(`(?s)\n*<system-reminder>\n.*?\n</system-reminder>\s*$`)
	// taskID is a background task's id as a result names it.
	taskID = regexp.MustCompile(`ID: ([a-z0-9]+)`)
	// outputFile is a background task's output file.
	outputFile = regexp.MustCompile(`/tmp/claude-\d+/\S*?/tasks/[a-z0-9]+\.output`)
)

func newNormalizer(dir, proj, home string) *normalizer {
	return &normalizer{replacer: strings.NewReplacer(proj, "$CWD", home, "$HOME", dir, "$TMP")}
}

func (n *normalizer) apply(s string) string {
	for {
		cut := reminder.ReplaceAllString(s, "")
		if cut == s {
			break
		}
		s = cut
	}
	s = outputFile.ReplaceAllString(s, "$$OUTPUT_FILE")
	for _, m := range taskID.FindAllStringSubmatch(s, -1) {
		s = strings.ReplaceAll(s, m[1], "$TASK_ID")
	}
	return n.replacer.Replace(s)
}

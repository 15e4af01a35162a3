// Package glob is the Glob tool: file paths matching a doublestar pattern,
// oldest first, in Claude Code's output format.
package glob

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools/filewalk"
	"github.com/mini-claude/mini-claude/internal/workspace"
)

// MaxResults is how many paths one call lists; the rest are counted.
const MaxResults = 100

// Input is what the model sends.
type Input struct {
	Pattern string `json:"pattern" jsonschema_description:"The glob pattern to match files against, such as **/*.go or src/**/*.ts"`
	Path    string `json:"path,omitempty" jsonschema_description:"The directory to search in. Omit it to search the current working directory; do not send \"undefined\" or \"null\". Must be an existing directory when given."`
}

// Output is the result, in the shape Claude Code reports it.
type Output struct {
	Filenames       []string `json:"filenames"`
	DurationMs      int64    `json:"durationMs"`
	NumFiles        int      `json:"numFiles"`
	Truncated       bool     `json:"truncated"`
	TotalMatches    int      `json:"totalMatches"`
	CountIsComplete bool     `json:"countIsComplete"`
}

const description = `Finds files by name pattern, fast on codebases of any size.
- Supports glob patterns such as "**/*.js" or "src/**/*.ts"; a pattern without a slash matches at any depth ("*.txt" finds a/b/c.txt)
- Returns the matching file paths sorted by modification time, oldest first, at most 100 of them
- Includes hidden files and files ignored by .gitignore; skips version-control folders such as .git
- Use it when you need to find files by name; to search file contents use Grep`

// Tool is the Glob tool.
var Tool = tool.MustBuild(tool.Def[Input, Output]{
	Name:               "Glob",
	SearchHint:         "find files by name pattern or wildcard",
	Description:        description,
	MaxResultSizeChars: 100_000,
	IsReadOnly:         tool.Always[Input],
	IsConcurrencySafe:  tool.Always[Input],
	ValidateInput:      validate,
	Accesses:           accesses,
	Call:               run,
	MapResult:          resultText,
	RenderUse:          renderUse,
	RenderResult:       renderResult,
})

// search is where a call looks and what it matches: the pattern relative to
// root, and whether it is anchored there (it had a slash) or matches file names
// at any depth.
type search struct {
	root     string
	pattern  string
	anchored bool
}

// locate turns the input into a search. A pattern with a slash has its literal
// leading directories moved into the root, so "src/**/*.go" walks only src and
// an absolute pattern searches where it points.
func locate(in Input, env *tool.Env) search {
	s := search{root: env.Cwd, pattern: in.Pattern}
	if in.Path != "" {
		s.root = workspace.Resolve(env, in.Path)
	}
	for strings.HasPrefix(s.pattern, "./") {
		s.pattern = s.pattern[2:]
	}
	if !strings.Contains(s.pattern, "/") {
		return s
	}
	s.anchored = true
	base, rest := doublestar.SplitPattern(s.pattern)
	s.pattern = rest
	if filepath.IsAbs(base) {
		s.root = filepath.Clean(base)
		return s
	}
	joined := filepath.Join(s.root, base)
	if !isDir(joined) {
		if trimmed, ok := dropRepeatedRoot(s.root, base); ok {
			joined = trimmed
		}
	}
	s.root = joined
	return s
}

// dropRepeatedRoot handles a pattern that starts with the last directories of
// the root itself ("proj/src/*.go" run in /work/proj): when that folder does
// not exist, the repeated part is dropped.
func dropRepeatedRoot(root, base string) (string, bool) {
	parts := strings.Split(base, "/")
	rootParts := strings.Split(filepath.ToSlash(root), "/")
	for n := len(parts); n > 0; n-- {
		if n > len(rootParts) || !slices.Equal(parts[:n], rootParts[len(rootParts)-n:]) {
			continue
		}
		candidate := filepath.Join(append([]string{root}, parts[n:]...)...)
		if isDir(candidate) {
			return candidate, true
		}
	}
	return "", false
}

func isDir(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.IsDir()
}

func validate(_ context.Context, in Input, env *tool.Env) error {
	if in.Pattern == "" {
		return errors.New("the pattern is empty: give a glob such as **/*.go or src/*.ts")
	}
	if !doublestar.ValidatePattern(in.Pattern) {
		return fmt.Errorf("the pattern %q is not a valid glob (an unclosed [ or {, or a trailing \\): fix or escape it", in.Pattern)
	}
	if in.Path == "" {
		return nil
	}
	info, err := os.Stat(workspace.Resolve(env, in.Path))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("Directory does not exist: %s. Note: your current working directory is %s. Give an existing directory, or omit path to search the working directory.", in.Path, env.Cwd)
	case err != nil:
		return fmt.Errorf("cannot search %s: %w", in.Path, err)
	case !info.IsDir():
		return fmt.Errorf("Path is not a directory: %s. Give the directory that holds it as path, and its name in the pattern.", in.Path)
	}
	return nil
}

// accesses reports the searched directory as a read, for the permission rules.
func accesses(_ context.Context, in Input, env *tool.Env) tool.Access {
	return tool.Access{Reads: []string{workspace.RealPath(locate(in, env).root)}}
}

// found is one matching file.
type found struct {
	rel     string
	modTime time.Time
}

func run(ctx context.Context, in Input, env *tool.Env, _ tool.Progress) (Output, error) {
	started := time.Now()
	s := locate(in, env)
	files, err := s.find(ctx)
	if err != nil {
		return Output{}, err
	}
	if env.ReadDenied != nil {
		files = slices.DeleteFunc(files, func(f found) bool { return env.ReadDenied(filepath.Join(s.root, f.rel)) })
	}
	slices.SortFunc(files, func(a, b found) int {
		return cmp.Or(a.modTime.Compare(b.modTime), strings.Compare(a.rel, b.rel))
	})
	out := Output{TotalMatches: len(files), CountIsComplete: true, Filenames: []string{}}
	if len(files) > MaxResults {
		files, out.Truncated = files[:MaxResults], true
	}
	for _, f := range files {
		out.Filenames = append(out.Filenames, filewalk.Display(env.Cwd, filepath.Join(s.root, f.rel)))
	}
	out.NumFiles = len(out.Filenames)
	out.DurationMs = time.Since(started).Milliseconds()
	return out, nil
}

// find walks the root in parallel and returns every file the pattern matches,
// with its modification time. A root that does not exist holds no files.
func (s search) find(ctx context.Context) ([]found, error) {
	if !isDir(s.root) {
		return nil, nil
	}
	w, err := filewalk.New(filewalk.Options{Root: s.root, Globs: filewalk.VCSGlobs})
	if err != nil {
		return nil, err
	}
	perWorker := make([][]found, w.Workers())
	err = w.Walk(ctx, func(worker int, f filewalk.File) error {
		subject := f.Rel
		if !s.anchored {
			subject = f.Name
		}
		if !doublestar.MatchUnvalidated(s.pattern, subject) {
			return nil
		}
		modTime, err := f.ModTime()
		if err != nil {
			return nil
		}
		perWorker[worker] = append(perWorker[worker], found{rel: f.Rel, modTime: modTime})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("glob %s in %s: %w", s.pattern, s.root, err)
	}
	return slices.Concat(perWorker...), nil
}

// resultText is Claude Code's text: the paths, one per line, and a last line
// saying how many more matched when the list was cut.
func resultText(out Output) []llm.ContentBlock {
	if len(out.Filenames) == 0 {
		return []llm.ContentBlock{llm.TextBlock("No files found")}
	}
	lines := slices.Clone(out.Filenames)
	if out.Truncated {
		lines = append(lines, fmt.Sprintf("(Showing %d of %d matching files; %d more are not listed. Narrow the pattern or path to see the rest.)",
			out.NumFiles, out.TotalMatches, out.TotalMatches-out.NumFiles))
	}
	return []llm.ContentBlock{llm.TextBlock(strings.Join(lines, "\n"))}
}

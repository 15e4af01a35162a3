package grep

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"strings"

	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools/filewalk"
	"github.com/mini-claude/mini-claude/internal/workspace"
)

// The output modes.
const (
	modeContent = "content"
	modeFiles   = "files_with_matches"
	modeCount   = "count"
)

// defaultHeadLimit is how many lines or files a search shows when the model
// does not say.
const defaultHeadLimit = 250

// maxContext bounds -A, -B, -C and context.
const maxContext = 100_000

// query is an Input checked and resolved: what to search, where, and how to show it.
type query struct {
	pattern                             string
	mode                                string
	before, after                       int
	contextBreaks                       bool
	lineNumbers                         bool
	ignoreCase, onlyMatching, multiline bool
	fileType                            string
	globs                               []string
	page                                page
	// cwd is the session's working directory, target the absolute path
	// searched, and isDir whether it is a directory.
	cwd, target string
	isDir       bool
}

// wholeNumber checks one of the numeric inputs: a whole number from 0 to limit.
func wholeNumber(name string, v *float64, limit float64, hint string) error {
	if v == nil {
		return nil
	}
	if *v < 0 || *v != math.Trunc(*v) || math.IsInf(*v, 0) {
		return fmt.Errorf("%s must be a whole number of 0 or more, got %v.%s", name, *v, hint)
	}
	if *v > limit {
		return fmt.Errorf("%s is %v, more than the %v allowed; use a smaller number", name, *v, limit)
	}
	return nil
}

func intOr(v *float64, fallback int) int {
	if v == nil {
		return fallback
	}
	return int(*v)
}

// newQuery checks in and resolves it against the session. The checks are the
// cheap ones: the search itself reports a bad pattern.
func newQuery(in Input, env *tool.Env) (*query, error) {
	for _, n := range []struct {
		name  string
		value *float64
		limit float64
		hint  string
	}{
		{"head_limit", in.HeadLimit, math.MaxInt32, " Pass 0 for unlimited."},
		{"offset", in.Offset, math.MaxInt32, ""},
		{"-A", in.After, maxContext, ""},
		{"-B", in.Before, maxContext, ""},
		{"-C", in.ContextC, maxContext, ""},
		{"context", in.Context, maxContext, ""},
	} {
		if err := wholeNumber(n.name, n.value, n.limit, n.hint); err != nil {
			return nil, err
		}
	}
	if in.Type != "" && !filewalk.KnownType(in.Type) {
		return nil, fmt.Errorf("unknown file type %q: use one of ripgrep's types, such as go, js, ts, py, rust, java, c or cpp, or filter by file name with glob instead", in.Type)
	}
	q := &query{
		pattern: in.Pattern, mode: in.OutputMode, lineNumbers: in.LineNumbers == nil || *in.LineNumbers,
		ignoreCase: in.IgnoreCase, onlyMatching: in.OnlyMatching && in.OutputMode == modeContent, multiline: in.Multiline,
		fileType: in.Type, globs: splitGlobs(in.Glob), cwd: env.Cwd, target: env.Cwd,
		page: page{limit: intOr(in.HeadLimit, defaultHeadLimit), offset: intOr(in.Offset, 0)},
	}
	if q.mode == "" {
		q.mode = modeFiles
	}
	if q.mode == modeContent {
		q.setContext(in)
	}
	if in.Path != "" {
		q.target = workspace.Resolve(env, in.Path)
	}
	info, err := os.Stat(q.target)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("Path does not exist: %s. Note: your current working directory is %s. Give an existing file or directory, or omit path to search the working directory.", in.Path, env.Cwd)
	case err != nil:
		return nil, fmt.Errorf("cannot search %s: %w", in.Path, err)
	case !info.IsDir() && !info.Mode().IsRegular():
		return nil, fmt.Errorf("cannot search %s: it is not a regular file or a directory (a device, pipe or socket); give a file or a directory", in.Path)
	}
	q.isDir = info.IsDir()
	return q, nil
}

// setContext follows Claude Code: context wins over -C unless it is 0; -B
// and -A count only when neither gives a positive number; "--" separates
// groups when any of the four is positive.
func (q *query) setContext(in Input) {
	around := in.Context
	if around == nil || *around == 0 {
		if in.ContextC != nil {
			around = in.ContextC
		}
	}
	if around != nil && *around > 0 {
		q.before, q.after = int(*around), int(*around)
	} else {
		q.before, q.after = intOr(in.Before, 0), intOr(in.After, 0)
	}
	for _, v := range []*float64{in.Context, in.ContextC, in.Before, in.After} {
		if v != nil && *v > 0 {
			q.contextBreaks = true
		}
	}
}

// splitGlobs splits the glob input as Claude Code does: on white space, and on
// commas outside a {...} group.
func splitGlobs(glob string) []string {
	var globs []string
	for _, part := range strings.Fields(glob) {
		if strings.Contains(part, "{") && strings.Contains(part, "}") {
			globs = append(globs, part)
			continue
		}
		for _, g := range strings.Split(part, ",") {
			if g != "" {
				globs = append(globs, g)
			}
		}
	}
	return globs
}

// absolute is the path of a result file.
func (q *query) absolute(rel string) string {
	if !q.isDir {
		return q.target
	}
	return q.target + "/" + rel
}

// display is how the output names a result file.
func (q *query) display(rel string) string {
	return decodeUTF8([]byte(filewalk.Display(q.cwd, q.absolute(rel))))
}

// walkGlobs are the --glob patterns of a directory search.
func (q *query) walkGlobs() []string {
	return append(append([]string{}, filewalk.VCSGlobs...), q.globs...)
}

func (q *query) types() []string {
	if q.fileType == "" {
		return nil
	}
	return []string{q.fileType}
}

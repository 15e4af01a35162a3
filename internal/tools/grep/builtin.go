package grep

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/mini-claude/mini-claude/internal/tools/filewalk"
)

// searchBuiltin is the search without ripgrep: the same files (filewalk
// applies ripgrep's filters), the same line semantics (scanner and
// searchWhole), and results in the shape rg's output parses into.
func searchBuiltin(ctx context.Context, q *query) ([]fileResult, error) {
	m, err := compile(q.pattern, q.ignoreCase, q.multiline)
	if errors.Is(err, errNewlineInPattern) {
		return nil, err
	}
	if err != nil {
		return nil, invalidPattern(q.pattern, err.Error())
	}
	set := settings{mode: q.mode, before: q.before, after: q.after, onlyMatching: q.onlyMatching}
	if !q.isDir {
		res := fileResult{}
		if err := newFileSearcher(ctx, m, set).searchFile(q.target, true, &res); err != nil {
			return nil, fmt.Errorf("search %s: %w", q.target, err)
		}
		if res.count == 0 {
			return nil, nil
		}
		return []fileResult{res}, nil
	}
	w, err := filewalk.New(filewalk.Options{Root: q.target, Ignore: true, Globs: q.walkGlobs(), Types: q.types()})
	if err != nil {
		return nil, err
	}
	searchers := make([]*fileSearcher, w.Workers())
	found := make([][]fileResult, w.Workers())
	err = w.Walk(ctx, func(worker int, f filewalk.File) error {
		if searchers[worker] == nil {
			searchers[worker] = newFileSearcher(ctx, m, set)
		}
		res := fileResult{path: f.Rel}
		if err := searchers[worker].searchFile(f.Path(), false, &res); err != nil || res.count == 0 {
			return nil
		}
		found[worker] = append(found[worker], res)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("search %s: %w", q.target, err)
	}
	return slices.Concat(found...), nil
}

// invalidPattern is the error for a pattern the regex engine refused.
func invalidPattern(pattern, detail string) error {
	return fmt.Errorf("the pattern %q is not a valid regular expression: %s\nEscape characters that have a meaning in regular expressions, such as ( [ { . * + ? |, with a backslash to match them literally, or fix the syntax", pattern, detail)
}

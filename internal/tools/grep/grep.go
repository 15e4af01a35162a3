// Package grep is the Grep tool: a regular-expression search of file contents
// in Claude Code's input schema and output formats. It runs ripgrep when rg is
// on PATH, and otherwise a built-in search that gives the same output for the
// same files: ripgrep's file filters (internal/tools/filewalk), its line
// semantics (binary files, byte-order marks, multiline blocks) and Claude
// Code's rendering of rg's JSON.
//
// Set MINI_CLAUDE_GREP_ENGINE=builtin to use the built-in search even when rg
// is installed, or =rg to require rg.
package grep

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/workspace"
)

// EngineEnv names the environment variable that picks the search engine.
const EngineEnv = "MINI_CLAUDE_GREP_ENGINE"

// Input is what the model sends; the names are Claude Code's.
type Input struct {
	Pattern      string   `json:"pattern" jsonschema_description:"The regular expression to search for in file contents (ripgrep syntax)"`
	Path         string   `json:"path,omitempty" jsonschema_description:"File or directory to search in. Defaults to the current working directory."`
	Glob         string   `json:"glob,omitempty" jsonschema_description:"Glob pattern that filters the files searched, such as \"*.js\" or \"*.{ts,tsx}\" (rg --glob)"`
	OutputMode   string   `json:"output_mode,omitempty" jsonschema:"enum=content,enum=files_with_matches,enum=count" jsonschema_description:"\"content\" shows matching lines (with -A/-B/-C context, -n line numbers, head_limit), \"files_with_matches\" lists file paths, \"count\" shows match counts per file. Defaults to \"files_with_matches\"."`
	Before       *float64 `json:"-B,omitempty" jsonschema_description:"Lines to show before each match (rg -B). Content mode only."`
	After        *float64 `json:"-A,omitempty" jsonschema_description:"Lines to show after each match (rg -A). Content mode only."`
	ContextC     *float64 `json:"-C,omitempty" jsonschema_description:"Same as context."`
	Context      *float64 `json:"context,omitempty" jsonschema_description:"Lines to show before and after each match (rg -C). Content mode only."`
	LineNumbers  *bool    `json:"-n,omitempty" jsonschema_description:"Show line numbers (rg -n). Content mode only. Defaults to true."`
	IgnoreCase   bool     `json:"-i,omitempty" jsonschema_description:"Case-insensitive search (rg -i)"`
	OnlyMatching bool     `json:"-o,omitempty" jsonschema_description:"Print only the matched parts of each matching line, one match per output line (rg -o). Content mode only. Defaults to false."`
	Type         string   `json:"type,omitempty" jsonschema_description:"File type to search (rg --type), such as js, py, rust, go or java. Faster than glob for standard file types."`
	HeadLimit    *float64 `json:"head_limit,omitempty" jsonschema_description:"Show only the first N lines or entries, like \"| head -N\", in every output mode. Defaults to 250; 0 means unlimited (use sparingly: large results waste context)."`
	Offset       *float64 `json:"offset,omitempty" jsonschema_description:"Skip the first N lines or entries before head_limit applies, like \"| tail -n +N | head -N\". Defaults to 0."`
	Multiline    bool     `json:"multiline,omitempty" jsonschema_description:"Let patterns span lines, with . matching line breaks (rg -U --multiline-dotall). Defaults to false."`
}

const description = `A fast content search built on ripgrep.

Usage:
- Use Grep for every search of file contents; do not run grep or rg through Bash. It applies the session's file permissions.
- Full regular-expression syntax, for example "log.*Error" or "function\s+\w+"; literal braces need escaping (interface\{\} finds interface{})
- Narrow the files with glob ("*.js", "**/*.tsx") or type ("js", "py", "rust")
- output_mode: "files_with_matches" (default) lists files newest first, "content" shows matching lines, "count" shows counts per file
- Patterns match within one line; for patterns across lines, such as struct \{[\s\S]*?field, set multiline: true
- Results stop at head_limit (250 by default); use offset to page through more`

// Tool is the Grep tool.
var Tool = tool.MustBuild(tool.Def[Input, Output]{
	Name:               "Grep",
	SearchHint:         "search file contents with regex (ripgrep)",
	Description:        description,
	MaxResultSizeChars: 20_000,
	IsReadOnly:         tool.Always[Input],
	IsConcurrencySafe:  tool.Always[Input],
	ValidateInput: func(_ context.Context, in Input, env *tool.Env) error {
		_, err := newQuery(in, env)
		return err
	},
	Accesses: func(_ context.Context, in Input, env *tool.Env) tool.Access {
		target := env.Cwd
		if in.Path != "" {
			target = workspace.Resolve(env, in.Path)
		}
		return tool.Access{Reads: []string{workspace.RealPath(target)}}
	},
	Call:         run,
	MapResult:    resultText,
	RenderUse:    renderUse,
	RenderResult: renderResult,
})

func run(ctx context.Context, in Input, env *tool.Env, _ tool.Progress) (Output, error) {
	q, err := newQuery(in, env)
	if err != nil {
		return Output{}, err
	}
	rg, err := ripgrep(os.Getenv)
	if err != nil {
		return Output{}, err
	}
	files, err := search(ctx, rg, q)
	if err != nil {
		return Output{}, err
	}
	if env.ReadDenied != nil {
		// Files the rules forbid reading never show, by name or content,
		// even when the search itself was allowed.
		files = slices.DeleteFunc(files, func(f fileResult) bool { return env.ReadDenied(q.absolute(f.path)) })
	}
	return report(files, q), nil
}

// search runs rg when rg is given, and the built-in search otherwise.
func search(ctx context.Context, rg string, q *query) ([]fileResult, error) {
	if rg != "" {
		return searchRipgrep(ctx, rg, q)
	}
	return searchBuiltin(ctx, q)
}

func report(files []fileResult, q *query) Output {
	switch q.mode {
	case modeContent:
		return reportContent(files, q)
	case modeCount:
		return reportCount(files, q)
	}
	return reportFiles(files, q)
}

// resultText is Claude Code's text for each mode, with the pagination note when
// head_limit or offset shaped the result.
func resultText(out Output) []llm.ContentBlock {
	note := describe(out.AppliedLimit, out.AppliedOffset)
	var text string
	switch out.Mode {
	case modeContent:
		text = out.Content
		if text == "" {
			text = "No matches found"
			if out.AppliedOffset != nil && out.TotalLines > 0 {
				text = "No entries at this offset"
			}
		}
		if note != "" {
			text += "\n\n[Showing results with pagination = " + note + "]"
		}
	case modeCount:
		text = out.Content
		if text == "" {
			text = "No matches found"
			if out.NumMatches > 0 {
				text = "No entries at this offset"
			}
		}
		text += fmt.Sprintf("\n\nFound %d total %s across %d %s.", out.NumMatches, plural(out.NumMatches, "occurrence"), out.NumFiles, plural(out.NumFiles, "file"))
		if note != "" {
			text += " with pagination = " + note
		}
	default:
		switch {
		case out.NumFiles == 0 && out.AppliedOffset != nil && out.TotalFiles > 0:
			text = "No entries at this offset. [Showing results with pagination = " + note + "]"
		case out.NumFiles == 0:
			text = "No files found"
		default:
			text = fmt.Sprintf("Found %d %s", out.NumFiles, plural(out.NumFiles, "file"))
			if note != "" {
				text += " " + note
			}
			text += "\n" + strings.Join(out.Filenames, "\n")
		}
	}
	return []llm.ContentBlock{llm.TextBlock(text)}
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

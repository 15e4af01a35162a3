// Package wordcount is the worked example of a custom tool: a typed input struct
// that is also the JSON schema, a validation hook, explicit safety flags and a
// Call that does the work. Register it by passing wordcount.Tool to the pool as
// an extra tool.
package wordcount

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"unicode"

	"github.com/mini-claude/mini-claude/internal/tool"
)

// Input is what the model sends: the file to count.
type Input struct {
	FilePath string `json:"file_path" jsonschema_description:"Path of the file to count, absolute or relative to the working directory"`
}

// Output is the counts; the default result mapping sends it to the model as JSON.
type Output struct {
	Lines int `json:"lines"`
	Words int `json:"words"`
	Bytes int `json:"bytes"`
}

// Tool counts the lines, words and bytes of a text file, like wc.
var Tool = tool.MustBuild(tool.Def[Input, Output]{
	Name:               "WordCount",
	SearchHint:         "count lines words bytes of a file",
	Description:        "Counts the lines, words and bytes of a text file, like wc. Returns JSON: {\"lines\", \"words\", \"bytes\"}.",
	MaxResultSizeChars: 1000,
	IsReadOnly:         tool.Always[Input],
	IsConcurrencySafe:  tool.Always[Input],
	ValidateInput:      validate,
	Call:               count,
})

func resolve(path string, env *tool.Env) string {
	if filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(env.Cwd, path)
}

func validate(_ context.Context, in Input, env *tool.Env) error {
	info, err := os.Stat(resolve(in.FilePath, env))
	switch {
	case errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("file %s does not exist (the working directory is %s); check the path with a directory listing", in.FilePath, env.Cwd)
	case err != nil:
		return fmt.Errorf("cannot read %s: %w", in.FilePath, err)
	case info.IsDir():
		return fmt.Errorf("%s is a directory; give the path of a file inside it", in.FilePath)
	}
	return nil
}

func count(ctx context.Context, in Input, env *tool.Env, _ tool.Progress) (Output, error) {
	f, err := os.Open(resolve(in.FilePath, env))
	if err != nil {
		return Output{}, fmt.Errorf("open %s: %w", in.FilePath, err)
	}
	defer f.Close()
	var out Output
	inWord := false
	r := bufio.NewReader(f)
	for {
		if out.Bytes%(1<<20) == 0 && ctx.Err() != nil {
			return Output{}, ctx.Err()
		}
		c, size, err := r.ReadRune()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return Output{}, fmt.Errorf("read %s: %w", in.FilePath, err)
		}
		out.Bytes += size
		if c == '\n' {
			out.Lines++
		}
		space := unicode.IsSpace(c)
		if !space && !inWord {
			out.Words++
		}
		inWord = !space
	}
}

// Package read is the Read tool: it shows the model a file from the local
// filesystem. Text comes back numbered line by line, as cat -n does; images as
// image blocks scaled to the model's budget; Jupyter notebooks as cells with
// their outputs; PDFs as text, page by page. Every read is bounded, so huge
// files are read in parts with offset and limit, in constant memory.
package read

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools/fileaccess"
	"github.com/mini-claude/mini-claude/internal/workspace"
)

// Input is what the model sends; the shared fields match Claude Code's Read.
type Input struct {
	FilePath   string `json:"file_path" jsonschema_description:"The absolute path to the file to read"`
	Offset     *int   `json:"offset,omitempty" jsonschema:"minimum=0,maximum=9007199254740991" jsonschema_description:"The line number to start reading from. Only provide if the file is too large to read at once"`
	Limit      *int   `json:"limit,omitempty" jsonschema:"exclusiveMinimum=0,maximum=9007199254740991" jsonschema_description:"The number of lines to read. Only provide if the file is too large to read at once."`
	Pages      string `json:"pages,omitempty" jsonschema_description:"Page range for PDF files (e.g., \"1-5\", \"3\", \"10-20\"). Only applicable to PDF files. Maximum 20 pages per request."`
	AllowLarge bool   `json:"allow_large,omitempty" jsonschema_description:"Set to true to read a text file, or a line range of one, that is over the usual size limits, up to what still fits in your context. Only use this when you genuinely need all of it or the user asked for the whole file; otherwise read it in parts with offset and limit, or search it."`
}

const description = `Reads a file from the local filesystem and returns its content.

- file_path should be an absolute path; a relative one is taken from the current working directory.
- Text comes back as numbered lines, "N<TAB>line", numbering from 1. A final newline shows as one last, empty, numbered line.
- A text file over 256 KB must be read in parts with offset (the first line number to return) and limit (how many lines), or searched with Grep. One read returns at most about 25,000 tokens; when a file is longer, the result says which offset to continue from.
- When you already know which part of the file you need, read only that part.
- Images (PNG, JPEG, GIF, WebP) come back as images, scaled down when they are large. Jupyter notebooks (.ipynb) come back as their cells with outputs. PDFs come back as text, page by page; a PDF of more than 20 pages needs the pages parameter (e.g. "1-5"), at most 20 pages per call.
- Binary files, folders, devices and missing files are errors; an empty file, or an offset past the end, returns a note instead of content.
- You can read several files at once by calling Read for each in the same message.
- Do not re-read a file you just edited to check it: Edit and Write fail when a change does not apply, and the session keeps track of what you have read.`

// Tool is the Read tool.
var Tool = tool.MustBuild(tool.Def[Input, Output]{
	Name:               "Read",
	SearchHint:         "view file contents with line numbers, images, PDFs, notebooks",
	Description:        description,
	MaxResultSizeChars: tool.Unlimited,
	IsReadOnly:         tool.Always[Input],
	IsConcurrencySafe:  tool.Always[Input],
	ValidateInput:      validate,
	CheckPermissions:   checkPermissions,
	Accesses:           accesses,
	Call:               read,
	MapResult:          toBlocks,
	RenderUse:          renderUse,
	RenderResult:       renderResult,
})

// validate checks the input without touching the filesystem: the numbers, the
// page range, and paths that are refused whatever they hold.
func validate(_ context.Context, in Input, env *tool.Env) error {
	in = normalized(in)
	if strings.TrimSpace(in.FilePath) == "" {
		return errors.New("file_path is empty: give the absolute path of the file to read")
	}
	if in.Limit != nil && *in.Limit < 0 {
		return fmt.Errorf("limit cannot be negative, but it is %d: give the number of lines to read, or leave limit out to read to the end", *in.Limit)
	}
	abs := workspace.Resolve(env, in.FilePath)
	if in.Pages != "" && isPDF(abs) {
		if _, err := parsePages(in.Pages); err != nil {
			return err
		}
	}
	if err := deviceError(abs); err != nil {
		return err
	}
	return binaryExtensionError(abs)
}

// checkPermissions vouches for reading the session's own stored tool results,
// which the model is told to Read; every other path is left to the rules.
func checkPermissions(_ context.Context, in Input, env *tool.Env) tool.PermissionResult {
	if inSessionToolResults(env, workspace.Resolve(env, in.FilePath)) {
		return tool.PermissionResult{Behavior: tool.Allow}
	}
	return tool.PermissionResult{Behavior: tool.Passthrough}
}

// accesses reports the file read, except the session's own stored tool
// results, which checkPermissions allows.
func accesses(_ context.Context, in Input, env *tool.Env) tool.Access {
	if inSessionToolResults(env, workspace.Resolve(env, in.FilePath)) {
		return tool.Access{}
	}
	return fileaccess.ReadAccess(env, in.FilePath)
}

// read follows the path to a regular file and reads it with the reader for
// its type.
// normalized reads offset 0 and limit 0 as not given, as Claude Code does:
// the read starts at the first line, and with limit 0 goes on to the end.
func normalized(in Input) Input {
	if in.Offset != nil && *in.Offset == 0 {
		in.Offset = nil
	}
	if in.Limit != nil && *in.Limit == 0 {
		in.Limit = nil
	}
	return in
}

func read(ctx context.Context, in Input, env *tool.Env, _ tool.Progress) (Output, error) {
	in = normalized(in)
	abs := workspace.Resolve(env, in.FilePath)
	real, err := statFile(env, abs)
	if err != nil {
		return Output{}, err
	}
	if err := binaryExtensionError(real); err != nil {
		return Output{}, err
	}
	ext := strings.ToLower(filepath.Ext(abs))
	switch {
	case imageExtensions[ext]:
		return readImage(ctx, env, abs, real)
	case ext == ".ipynb":
		return readNotebook(ctx, env, abs, real, in)
	case ext == ".pdf":
		return readPDF(ctx, env, abs, real, in)
	}
	return readText(ctx, env, abs, real, in)
}

func isPDF(path string) bool {
	return strings.EqualFold(filepath.Ext(path), ".pdf")
}

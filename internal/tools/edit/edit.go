// Package edit is the Edit tool: it replaces an exact string in a file the
// model has read, forgiving only what is safe to forgive (CRLF against LF,
// curly against straight quotes), and explains a miss with the closest lines.
package edit

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/patch"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools/fileaccess"
	"github.com/mini-claude/mini-claude/internal/workspace"
)

// Input is what the model sends; the schema is Claude Code's.
type Input struct {
	FilePath   string `json:"file_path" jsonschema_description:"The absolute path to the file to modify"`
	OldString  string `json:"old_string" jsonschema_description:"The text to replace"`
	NewString  string `json:"new_string" jsonschema_description:"The text to replace it with (must be different from old_string)"`
	ReplaceAll bool   `json:"replace_all,omitempty" jsonschema:"default=false" jsonschema_description:"Replace all occurrences of old_string (default false)"`
}

// Output is what Edit returns, in the shape Claude Code reports as an Edit's
// tool_use_result.
type Output struct {
	FilePath  string `json:"filePath"`
	OldString string `json:"oldString"`
	NewString string `json:"newString"`
	// OriginalFile is the whole content before the edit with its line breaks
	// made LF, as Claude Code sends it; "" for a file the edit created.
	OriginalFile string `json:"originalFile"`
	// StructuredPatch is the change the edit made, in LF form.
	StructuredPatch []patch.Hunk `json:"structuredPatch"`
	// UserModified is whether the user changed new_string before it was
	// applied, which this tool never offers.
	UserModified bool `json:"userModified"`
	ReplaceAll   bool `json:"replaceAll"`
	// ContentNotInModelContext says the model has read only part of the file.
	ContentNotInModelContext bool `json:"contentNotInModelContext,omitempty"`
	// Message is the text the model reads; Claude Code's object does not carry it.
	Message string `json:"-"`
}

// maxFileSize is the largest file Edit reads; larger ones are refused before reading.
const maxFileSize = 1 << 30

// Slim drops the original file, which the result hooks do not draw: they
// draw the structured patch.
func (o Output) Slim() any {
	o.OriginalFile = ""
	return o
}

// ForStorage drops the original file, as Claude Code does on resume.
func (o Output) ForStorage() any { return o.Slim() }

const description = `Replaces exact text in a file.

- Read the file in this conversation before editing it (a part of it is enough), or the call fails.
- old_string must match the file exactly, indentation and trailing spaces included, and match only one place; add surrounding lines to make it unique, or set replace_all to replace every match. Leave out the line-number prefix Read shows (the number and the tab).
- Trailing white space on new_string's lines is dropped, except in Markdown files (.md, .mdx).
- Line endings and quote styles are forgiven: an LF old_string matches a CRLF file, curly and straight quotes match each other, and new_string is written in the file's style.
- An empty old_string creates a new file, or fills an empty one, with new_string.
- Prefer Edit over Write for changing existing files. Use NotebookEdit for Jupyter notebooks (.ipynb).`

// Tool is the Edit tool.
var Tool = tool.MustBuild(tool.Def[Input, Output]{
	Name:               "Edit",
	SearchHint:         "modify file contents in place",
	Description:        description,
	MaxResultSizeChars: 100_000,
	IsReadOnly:         tool.Never[Input],
	IsConcurrencySafe:  tool.Never[Input],
	ValidateInput:      validate,
	Accesses:           accesses,
	Call:               edit,
	MapResult:          func(out Output) []llm.ContentBlock { return []llm.ContentBlock{llm.TextBlock(out.Message)} },
	RenderUse:          renderUse,
	RenderQueued:       renderQueued,
	RenderResult:       renderResult,
})

func accesses(_ context.Context, in Input, env *tool.Env) tool.Access {
	return fileaccess.WriteAccess(env, in.FilePath)
}

// normalized is the input as the edit applies it: into an existing file,
// new_string loses the white space at the end of its lines unless the file is
// Markdown (fileaccess.TrimLineEnds), as Claude Code applies it.
func normalized(env *tool.Env, in Input) Input {
	abs := workspace.Resolve(env, in.FilePath)
	if info, err := os.Stat(abs); err == nil && info.Mode().IsRegular() {
		in.NewString = fileaccess.TrimLineEnds(abs, in.NewString)
	}
	return in
}

func validate(_ context.Context, in Input, env *tool.Env) error {
	in = normalized(env, in)
	if in.OldString == in.NewString {
		return errors.New("no changes to make: old_string and new_string are exactly the same. Put the text that should replace old_string in new_string")
	}
	abs := workspace.Resolve(env, in.FilePath)
	if strings.EqualFold(filepath.Ext(abs), ".ipynb") {
		return fmt.Errorf("%s is a Jupyter notebook; edit its cells with the NotebookEdit tool instead", abs)
	}
	_, err := inspect(env, abs, in.OldString)
	return err
}

// target is the file an edit applies to, as the session knows it.
type target struct {
	exists bool
	record fileaccess.Record
}

// inspect checks that the file at abs can be edited: a regular file under the
// size limit that the session has read, or a missing file old == "" creates.
func inspect(env *tool.Env, abs, old string) (target, error) {
	info, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist) && old == "":
		return target{}, nil
	case errors.Is(err, fs.ErrNotExist):
		return target{}, fmt.Errorf("%s does not exist (the working directory is %s). Check the path; to create a new file, use Write or an Edit with an empty old_string", abs, env.Cwd)
	case err != nil:
		return target{}, fmt.Errorf("cannot check %s: %w", abs, err)
	case info.IsDir():
		return target{}, fmt.Errorf("%s is a directory. Give the path of a file inside it", abs)
	case !info.Mode().IsRegular():
		return target{}, fmt.Errorf("%s is not a regular file (it is a device, socket or pipe); Edit changes regular text files only", abs)
	case info.Size() > maxFileSize:
		return target{}, fmt.Errorf("%s is %d bytes, more than Edit handles (1 GiB). Change it with a streaming command through Bash, such as sed", abs, info.Size())
	}
	rec, ok := fileaccess.StateOf(env).Lookup(abs)
	if !ok {
		return target{}, fmt.Errorf("%s has not been read in this conversation. Read it first (the part you want to change is enough), then Edit it", abs)
	}
	return target{exists: true, record: rec}, nil
}

func edit(ctx context.Context, in Input, env *tool.Env, _ tool.Progress) (Output, error) {
	in = normalized(env, in)
	abs := workspace.Resolve(env, in.FilePath)
	t, err := inspect(env, abs, in.OldString)
	if err != nil {
		return Output{}, err
	}
	out := Output{FilePath: abs, OldString: in.OldString, NewString: in.NewString, ReplaceAll: in.ReplaceAll,
		Message: fmt.Sprintf("The file %s has been updated successfully.", abs)}
	if !t.exists {
		out.Message += fileaccess.StateCurrentNote
		out.StructuredPatch = patch.Compute("", fileaccess.ConvertLineEndings(in.NewString, fileaccess.LF))
		return out, save(ctx, env, abs, in.NewString, true)
	}
	raw, err := fileaccess.ReadText(ctx, env, abs)
	if err != nil {
		return Output{}, fmt.Errorf("cannot read %s: %w", abs, err)
	}
	if !utf8.Valid(raw) {
		return Output{}, fmt.Errorf("%s is not UTF-8 text (it is binary or in another encoding); Edit would corrupt it. Change it with a Bash command that understands its encoding", abs)
	}
	changed, err := fileaccess.Changed(abs, t.record)
	if err != nil {
		return Output{}, fmt.Errorf("cannot tell whether %s changed since it was read: %w", abs, err)
	}
	original := string(raw)
	content, restyled, err := apply(abs, original, in, changed)
	if err != nil {
		return Output{}, err
	}
	if err := save(ctx, env, abs, content, t.record.Full && !changed); err != nil {
		return Output{}, err
	}
	out.OriginalFile = fileaccess.ConvertLineEndings(original, fileaccess.LF)
	out.StructuredPatch = patch.Compute(out.OriginalFile, fileaccess.ConvertLineEndings(content, fileaccess.LF))
	out.ContentNotInModelContext = !t.record.Full
	if in.ReplaceAll {
		out.Message = fmt.Sprintf("The file %s has been updated. All occurrences were successfully replaced.", abs)
	}
	if !changed {
		out.Message += fileaccess.StateCurrentNote
	}
	if restyled {
		out.Message += " Note: old_string matched with curly and straight quotes treated alike, and new_string was written with the file's quotes."
	}
	if changed {
		out.Message += fmt.Sprintf(" Note: %s had changed on disk since you read it (the user or another program modified it); "+
			"the edit was applied because old_string matched exactly one place. Read the file again before relying on the rest of it.", abs)
	}
	return out, nil
}

// apply returns content with the edit made. A file that changed since it was
// read is edited only where old_string matches one place.
func apply(abs, content string, in Input, changed bool) (string, bool, error) {
	eol := fileaccess.LineEnding([]byte(content))
	if in.OldString == "" {
		if strings.TrimSpace(content) != "" {
			return "", false, fmt.Errorf("old_string is empty, which creates a new file or fills an empty one, but %s already has content. "+
				"Put the text to replace in old_string, or use Write to replace the whole file", abs)
		}
		return fileaccess.ConvertLineEndings(in.NewString, eol), false, nil
	}
	spans, g := findMatches(content, in.OldString)
	if in.NewString == "" && strings.Trim(in.OldString, "\r\n") == in.OldString {
		// Deleting a line's text takes its line break too, as in Claude Code.
		if withBreak, gb := findMatches(content, in.OldString+"\n"); len(withBreak) == len(spans) {
			spans, g = withBreak, gb
		}
	}
	switch {
	case len(spans) == 0:
		return "", false, notFound(abs, content, in.OldString, changed)
	case changed && len(spans) > 1:
		return "", false, fmt.Errorf("%s has changed on disk since you read it, and old_string now matches %d places. Read the file again, then make the edit against its current content", abs, len(spans))
	case len(spans) > 1 && !in.ReplaceAll:
		return "", false, tooMany(abs, content, in.OldString, spans)
	}
	result, restyled := replace(content, spans, in.OldString, in.NewString, g, eol)
	return result, restyled, nil
}

// save writes content to abs atomically and records what the session now
// knows of the file: all of it when it knew all of it before.
func save(ctx context.Context, env *tool.Env, abs, content string, full bool) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := fileaccess.WriteText(ctx, env, abs, []byte(content), 0o644); err != nil {
		return fmt.Errorf("could not write %s: %w. Check that its directory is writable", abs, err)
	}
	info, err := os.Stat(abs)
	if err != nil {
		return fmt.Errorf("wrote %s but cannot stat it: %w", abs, err)
	}
	if full {
		fileaccess.StateOf(env).RememberFull(abs, []byte(content), info.ModTime())
	} else {
		fileaccess.StateOf(env).RememberPart(abs, info.ModTime())
	}
	return nil
}

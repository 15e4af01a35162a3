// Package write is the Write tool: it creates a file or replaces one the model
// has read whole, keeping the file's line endings and never clobbering content
// the model has not seen.
package write

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"unicode/utf8"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/patch"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools/fileaccess"
	"github.com/mini-claude/mini-claude/internal/workspace"
)

// Input is what the model sends; the schema is Claude Code's.
type Input struct {
	FilePath string `json:"file_path" jsonschema_description:"The absolute path to the file to write (must be absolute, not relative)"`
	Content  string `json:"content" jsonschema_description:"The content to write to the file"`
}

// The kinds of write, as Output.Type.
const (
	KindCreate = "create"
	KindUpdate = "update"
)

// Output is what Write returns, in the shape Claude Code reports as a Write's
// tool_use_result.
type Output struct {
	// Type is KindCreate for a new file and KindUpdate for a replaced one.
	Type     string `json:"type"`
	FilePath string `json:"filePath"`
	// Content is the content as the model sent it, without trailing white
	// space (fileaccess.TrimLineEnds), before the file's line endings were
	// applied.
	Content string `json:"content"`
	// StructuredPatch is the change from OriginalFile to Content, empty for a new file.
	StructuredPatch []patch.Hunk `json:"structuredPatch"`
	// OriginalFile is the whole former content of a replaced file with its
	// line breaks made LF, as Claude Code sends it; nil for a new file.
	OriginalFile *string `json:"originalFile"`
	// UserModified is whether the user changed the content before it was
	// written, which this tool never offers.
	UserModified bool `json:"userModified"`
}

// Slim drops what the result hooks do not draw: the former content, and the
// new content of a replaced file, which they draw from the structured patch.
func (o Output) Slim() any {
	o.OriginalFile = nil
	if o.Type == KindUpdate {
		o.Content = ""
	}
	return o
}

// ForStorage drops a replaced file's former and new content, as Claude
// Code does on resume.
func (o Output) ForStorage() any { return o.Slim() }

const description = `Writes a file to the local filesystem, creating missing parent directories. An existing file is replaced.

- Use it for new files and for complete rewrites. For a change to part of a file, use Edit: it sends only the change.
- To replace an existing file you must have Read the whole file in this conversation, and it must not have changed on disk since; otherwise the call fails and asks you to Read it.
- The file keeps its line endings: content written into a CRLF file gets CRLF line breaks.
- Trailing white space on content's lines is dropped, except in Markdown files (.md, .mdx).
- file_path must be absolute.
- Do not create documentation or README files unless the user asks for them.`

// Tool is the Write tool.
var Tool = tool.MustBuild(tool.Def[Input, Output]{
	Name:               "Write",
	SearchHint:         "create or overwrite a file with new content",
	Description:        description,
	MaxResultSizeChars: 100_000,
	IsReadOnly:         tool.Never[Input],
	IsConcurrencySafe:  tool.Never[Input],
	ValidateInput:      validate,
	Accesses:           accesses,
	Call:               write,
	MapResult:          toBlocks,
	RenderUse:          renderUse,
	RenderQueued:       renderQueued,
	RenderResult:       renderResult,
})

func accesses(_ context.Context, in Input, env *tool.Env) tool.Access {
	return fileaccess.WriteAccess(env, in.FilePath)
}

func validate(ctx context.Context, in Input, env *tool.Env) error {
	_, _, err := existing(ctx, env, workspace.Resolve(env, in.FilePath))
	return err
}

func write(ctx context.Context, in Input, env *tool.Env, _ tool.Progress) (Output, error) {
	abs := workspace.Resolve(env, in.FilePath)
	in.Content = fileaccess.TrimLineEnds(abs, in.Content)
	old, exists, err := existing(ctx, env, abs)
	if err != nil {
		return Output{}, err
	}
	data := in.Content
	if exists {
		data = fileaccess.ConvertLineEndings(data, fileaccess.LineEnding(old))
	}
	if err := ctx.Err(); err != nil {
		return Output{}, err
	}
	if err := fileaccess.WriteText(ctx, env, abs, []byte(data), 0o644); err != nil {
		return Output{}, fmt.Errorf("could not write %s: %w. Check that the path is right and its directory is writable", abs, err)
	}
	info, err := os.Stat(abs)
	if err != nil {
		return Output{}, fmt.Errorf("wrote %s but cannot stat it: %w", abs, err)
	}
	fileaccess.StateOf(env).RememberFull(abs, []byte(data), info.ModTime())
	if !exists {
		return Output{Type: KindCreate, FilePath: abs, Content: in.Content, StructuredPatch: []patch.Hunk{}}, nil
	}
	original := fileaccess.ConvertLineEndings(string(old), fileaccess.LF)
	return Output{Type: KindUpdate, FilePath: abs, Content: in.Content,
		StructuredPatch: patch.Compute(original, in.Content), OriginalFile: &original}, nil
}

// toBlocks is the text the model reads for a write.
func toBlocks(out Output) []llm.ContentBlock {
	if out.Type == KindUpdate {
		return []llm.ContentBlock{llm.TextBlock(fmt.Sprintf("The file %s has been updated successfully.%s", out.FilePath, fileaccess.StateCurrentNote))}
	}
	return []llm.ContentBlock{llm.TextBlock("File created successfully at: " + out.FilePath + fileaccess.StateCurrentNote)}
}

// existing returns the current content of the file at abs when there is one
// (the editor's, when the session has one),
// after checking that the session may replace it: a regular UTF-8 file, read
// whole in this session and unchanged on disk since.
func existing(ctx context.Context, env *tool.Env, abs string) ([]byte, bool, error) {
	info, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, false, nil
	case err != nil:
		return nil, false, fmt.Errorf("cannot check %s: %w", abs, err)
	case info.IsDir():
		return nil, false, fmt.Errorf("%s is a directory. Give the path of a file, such as %s/<name>", abs, abs)
	case !info.Mode().IsRegular():
		return nil, false, fmt.Errorf("%s is not a regular file (it is a device, socket or pipe); Write only creates and replaces regular files", abs)
	}
	if err := checkSeen(env, abs); err != nil {
		return nil, false, err
	}
	content, err := fileaccess.ReadText(ctx, env, abs)
	if err != nil {
		return nil, false, fmt.Errorf("cannot read %s to keep its line endings: %w", abs, err)
	}
	if !utf8.Valid(content) {
		return nil, false, fmt.Errorf("%s is not UTF-8 text (it is binary or in another encoding), and writing over it would destroy that encoding. "+
			"Convert or replace it with a Bash command if that is really intended", abs)
	}
	return content, true, nil
}

// checkSeen refuses to replace a file the session has not read whole, or that
// changed on disk after it was read.
func checkSeen(env *tool.Env, abs string) error {
	rec, ok := fileaccess.StateOf(env).Lookup(abs)
	if !ok {
		return fmt.Errorf("%s already exists and has not been read in this conversation. "+
			"Read the whole file first so no content is lost unseen, then Write it; to change only part of it, use Edit", abs)
	}
	if !rec.Full {
		return fmt.Errorf("only part of %s has been read (with offset/limit). "+
			"Read the whole file before replacing it, or use Edit to change the part you have seen", abs)
	}
	changed, err := fileaccess.Changed(abs, rec)
	if err != nil {
		return fmt.Errorf("cannot tell whether %s changed since it was read: %w", abs, err)
	}
	if changed {
		return fmt.Errorf("%s has changed on disk since it was read (the user, a formatter or another program modified it). "+
			"Read it again to see the current content, then Write", abs)
	}
	return nil
}

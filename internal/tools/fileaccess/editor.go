package fileaccess

import (
	"context"
	"fmt"
	"io/fs"
	"os"

	"github.com/mini-claude/mini-claude/internal/tool"
)

// Editor reads and writes text files through the editor a session runs in
// (the Agent Client Protocol's fs methods), so that the file tools see the
// user's unsaved changes and their own changes land in the editor's buffers.
type Editor interface {
	// ReadTextFile returns the text of the file at the absolute path, as the
	// editor has it.
	ReadTextFile(ctx context.Context, path string) (string, error)
	// WriteTextFile replaces the text of the file at the absolute path,
	// creating it when it does not exist.
	WriteTextFile(ctx context.Context, path, content string) error
}

// editorKey keeps a session's Editor.
type editorKey struct{}

// attachedEditor holds the editor in the session; sub-agents' sessions
// inherit it, as they work in the same editor.
type attachedEditor struct{ Editor }

// Inherit gives a sub-agent's session the same editor.
func (e attachedEditor) Inherit() any { return e }

// AttachEditor makes the text reads and writes of the session's file tools go
// through e. The tools still check on disk what the file is (it exists, its
// size, a regular file): the editor holds its content, not its metadata.
func AttachEditor(s *tool.Session, e Editor) {
	tool.Value(s, editorKey{}, func() attachedEditor { return attachedEditor{e} })
}

// editorOf returns the session's editor, nil when none was attached.
func editorOf(env *tool.Env) Editor {
	if env.Session == nil {
		return nil
	}
	return tool.Value(env.Session, editorKey{}, func() attachedEditor { return attachedEditor{} }).Editor
}

// ReadText returns the content of the text file at abs: from the session's
// editor when it has one, else from disk.
func ReadText(ctx context.Context, env *tool.Env, abs string) ([]byte, error) {
	e := editorOf(env)
	if e == nil {
		return os.ReadFile(abs)
	}
	text, err := e.ReadTextFile(ctx, abs)
	if err != nil {
		return nil, fmt.Errorf("the editor could not read %s: %w", abs, err)
	}
	return []byte(text), nil
}

// WriteText replaces the text file at abs with data: through the session's
// editor when it has one, else atomically on disk (WriteAtomic).
func WriteText(ctx context.Context, env *tool.Env, abs string, data []byte, perm fs.FileMode) error {
	e := editorOf(env)
	if e == nil {
		return WriteAtomic(abs, data, perm)
	}
	if err := e.WriteTextFile(ctx, abs, string(data)); err != nil {
		return fmt.Errorf("the editor could not write %s: %w", abs, err)
	}
	return nil
}

// HasEditor reports whether the session's text files go through an editor.
func HasEditor(env *tool.Env) bool { return editorOf(env) != nil }

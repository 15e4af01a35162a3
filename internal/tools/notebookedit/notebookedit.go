// Package notebookedit is the NotebookEdit tool: it replaces, inserts or
// deletes one cell of a Jupyter notebook the model has read, keeping the rest
// of the file (layout, key order, metadata, other cells) as it was.
package notebookedit

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools/fileaccess"
	"github.com/mini-claude/mini-claude/internal/workspace"
)

// Input is what the model sends; the schema is Claude Code's.
type Input struct {
	NotebookPath string `json:"notebook_path" jsonschema_description:"The absolute path to the Jupyter notebook file to edit (must be absolute, not relative)"`
	CellID       string `json:"cell_id,omitempty" jsonschema_description:"The ID of the cell to edit. When inserting a new cell, the new cell will be inserted after the cell with this ID, or at the beginning if not specified."`
	NewSource    string `json:"new_source" jsonschema_description:"The new source for the cell"`
	CellType     string `json:"cell_type,omitempty" jsonschema:"enum=code,enum=markdown" jsonschema_description:"The type of the cell (code or markdown). If not specified, it defaults to the current cell type. If using edit_mode=insert, this is required."`
	EditMode     string `json:"edit_mode,omitempty" jsonschema:"enum=replace,enum=insert,enum=delete" jsonschema_description:"The type of edit to make (replace, insert, delete). Defaults to replace."`
}

const description = `Replaces, inserts or deletes one cell of a Jupyter notebook (.ipynb file).

- Read the notebook in this conversation first, or the call fails.
- cell_id is the id Read shows in <cell id="...">; cells without an id are named cell-0, cell-1, … by position.
- edit_mode replace (the default) sets the cell's source, and its type when cell_type is given; a replaced code cell loses its outputs.
- edit_mode insert adds a cell after cell_id, or at the start without one; cell_type is required.
- edit_mode delete removes the cell named by cell_id.
- notebook_path must be absolute. Use Edit for files that are not notebooks.`

// Tool is the NotebookEdit tool.
var Tool = tool.MustBuild(tool.Def[Input, string]{
	Name:               "NotebookEdit",
	SearchHint:         "edit jupyter notebook cells",
	Description:        description,
	MaxResultSizeChars: 100_000,
	IsReadOnly:         tool.Never[Input],
	IsConcurrencySafe:  tool.Never[Input],
	ValidateInput:      validate,
	Accesses:           accesses,
	Call:               editNotebook,
	RenderUse:          renderUse,
	RenderQueued:       renderQueued,
	RenderResult:       renderResult,
})

func accesses(_ context.Context, in Input, env *tool.Env) tool.Access {
	return fileaccess.WriteAccess(env, in.NotebookPath)
}

func mode(in Input) string {
	if in.EditMode == "" {
		return "replace"
	}
	return in.EditMode
}

func validate(_ context.Context, in Input, env *tool.Env) error {
	abs := workspace.Resolve(env, in.NotebookPath)
	switch {
	case !strings.EqualFold(filepath.Ext(abs), ".ipynb"):
		return fmt.Errorf("%s is not a Jupyter notebook (.ipynb); edit it with the Edit tool", abs)
	case mode(in) == "insert" && in.CellType == "":
		return errors.New("cell_type is required when edit_mode is insert: say whether the new cell is code or markdown")
	case mode(in) != "insert" && in.CellID == "":
		return fmt.Errorf("cell_id is required to %s a cell: give the id Read shows in <cell id=\"...\">, or use edit_mode insert to add a cell", mode(in))
	}
	_, err := inspect(env, abs)
	return err
}

// inspect checks that the notebook exists, is a file, and was read in this
// session without changing since, and returns what the session knows of it.
func inspect(env *tool.Env, abs string) (fileaccess.Record, error) {
	info, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fileaccess.Record{}, fmt.Errorf("%s does not exist (the working directory is %s). Check the path; to create a notebook, Write its JSON", abs, env.Cwd)
	case err != nil:
		return fileaccess.Record{}, fmt.Errorf("cannot check %s: %w", abs, err)
	case !info.Mode().IsRegular():
		return fileaccess.Record{}, fmt.Errorf("%s is not a regular file; give the path of a .ipynb file", abs)
	}
	rec, ok := fileaccess.StateOf(env).Lookup(abs)
	if !ok {
		return rec, fmt.Errorf("%s has not been read in this conversation. Read it first to see its cells and their ids, then edit it", abs)
	}
	changed, err := fileaccess.Changed(abs, rec)
	if err != nil {
		return rec, fmt.Errorf("cannot tell whether %s changed since it was read: %w", abs, err)
	}
	if changed {
		return rec, fmt.Errorf("%s has changed on disk since it was read (the user, Jupyter or another program saved it). Read it again, then edit it", abs)
	}
	return rec, nil
}

func editNotebook(ctx context.Context, in Input, env *tool.Env, _ tool.Progress) (string, error) {
	abs := workspace.Resolve(env, in.NotebookPath)
	rec, err := inspect(env, abs)
	if err != nil {
		return "", err
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		return "", fmt.Errorf("cannot read %s: %w", abs, err)
	}
	nb, err := parseNotebook(data)
	if err != nil {
		return "", fmt.Errorf("%s is not a valid notebook: %w. Read it to see its content; Write can replace it whole", abs, err)
	}
	result, err := apply(nb, abs, in)
	if err != nil {
		return "", err
	}
	if err := ctx.Err(); err != nil {
		return "", err
	}
	out := nb.bytes()
	if err := fileaccess.WriteAtomic(abs, out, 0o644); err != nil {
		return "", fmt.Errorf("could not write %s: %w. Check that its directory is writable", abs, err)
	}
	info, err := os.Stat(abs)
	if err != nil {
		return "", fmt.Errorf("wrote %s but cannot stat it: %w", abs, err)
	}
	if rec.Full {
		fileaccess.StateOf(env).RememberFull(abs, out, info.ModTime())
	} else {
		fileaccess.StateOf(env).RememberPart(abs, info.ModTime())
	}
	return result, nil
}

// apply makes the edit in nb and returns the result for the model, in Claude Code's words.
func apply(nb *notebook, abs string, in Input) (string, error) {
	at := -1
	if in.CellID != "" {
		i, ok := nb.find(in.CellID)
		if !ok {
			return "", fmt.Errorf("cell %q was not found in %s: %s. Use one of those ids (Read the notebook again if it changed)", in.CellID, abs, nb.names())
		}
		at = i
	}
	if at < 0 && mode(in) != "insert" {
		return "", fmt.Errorf("cell_id is required to %s a cell: give the id Read shows in <cell id=\"...\">", mode(in))
	}
	switch mode(in) {
	case "insert":
		id, err := nb.insert(at+1, in.NewSource, in.CellType)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("Inserted cell %s with %s", id, in.NewSource), nil
	case "delete":
		nb.delete(at)
		return "Deleted cell " + in.CellID, nil
	}
	if err := nb.replace(at, in.NewSource, in.CellType); err != nil {
		return "", err
	}
	return fmt.Sprintf("Updated cell %s with %s", in.CellID, in.NewSource), nil
}

package notebookedit

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/goldenfile"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools/fileaccess"
	"github.com/mini-claude/mini-claude/internal/workspace"
)

func TestMain(m *testing.M) {
	flag.Parse()
	next := 0
	newCellID = func() string {
		next++
		return fmt.Sprintf("new%05d", next)
	}
	os.Exit(m.Run())
}

// call runs one NotebookEdit call the way the executor does: parse, validate, run.
func call(t *testing.T, env *tool.Env, in Input) (string, error) {
	t.Helper()
	raw, _ := json.Marshal(in)
	res, err := tool.Exec(context.Background(), Tool, env, raw, nil)
	if err != nil {
		return "", err
	}
	return res.Content[0].Text, nil
}

// golden compares got, with the test's directory written as $DIR, to testdata/name.
// byteOffset is where encoding/json says a syntax error is: its count
// differs between Go releases, so golden files hold "at byte N".
var byteOffset = regexp.MustCompile(`at byte \d+`)

func golden(t *testing.T, name, dir, got string) {
	t.Helper()
	got = byteOffset.ReplaceAllString(strings.ReplaceAll(got, dir, "$DIR"), "at byte N")
	path := filepath.Join("testdata", name)
	goldenfile.Check(t, path, got)
}

// setup copies testdata/fixture into a fresh session's cwd as nb.ipynb and,
// when read, records it as read whole.
func setup(t *testing.T, fixture string, read bool) (*tool.Env, string) {
	t.Helper()
	dir := t.TempDir()
	env := &tool.Env{Cwd: dir, Session: tool.NewSession(dir), PermissionMode: "default"}
	data, err := os.ReadFile(filepath.Join("testdata", fixture))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "nb.ipynb")
	os.WriteFile(path, data, 0o644)
	if read {
		info, _ := os.Stat(path)
		fileaccess.StateOf(env).RememberFull(path, data, info.ModTime())
	}
	return env, path
}

func TestNotebookEdit(t *testing.T) {
	tests := []struct {
		name, fixture string
		in            Input
		// notebook says the edited notebook is compared with testdata/<name>.ipynb.golden.
		notebook bool
	}{
		{"replace_code", "jupyter.ipynb", Input{CellID: "calc", NewSource: "y = 3\nprint(y)"}, true},
		{"replace_markdown", "jupyter.ipynb", Input{CellID: "intro", NewSource: "# Results\n"}, true},
		{"replace_code_with_markdown", "jupyter.ipynb", Input{CellID: "calc", NewSource: "*gone*", CellType: "markdown"}, true},
		{"replace_markdown_with_code", "jupyter.ipynb", Input{CellID: "intro", NewSource: "pass", CellType: "code", EditMode: "replace"}, true},
		{"insert_after", "jupyter.ipynb", Input{CellID: "intro", NewSource: "## Setup", CellType: "markdown", EditMode: "insert"}, true},
		{"insert_at_start", "jupyter.ipynb", Input{NewSource: "import math\n", CellType: "code", EditMode: "insert"}, true},
		{"delete", "jupyter.ipynb", Input{CellID: "calc", NewSource: "", EditMode: "delete"}, true},
		{"by_position", "no_ids.ipynb", Input{CellID: "cell-1", NewSource: "All done."}, true},
		{"insert_without_ids", "no_ids.ipynb", Input{CellID: "cell-0", NewSource: "x = 1", CellType: "code", EditMode: "insert"}, true},
		{"two_space_layout", "two_space.ipynb", Input{CellID: "a1", NewSource: "print('b')\nprint('c')"}, true},
		{"compact_layout", "compact.ipynb", Input{NewSource: "1+1", CellType: "code", EditMode: "insert"}, true},
		{"unknown_cell", "jupyter.ipynb", Input{CellID: "nope", NewSource: "x"}, false},
		{"insert_without_type", "jupyter.ipynb", Input{CellID: "calc", NewSource: "x", EditMode: "insert"}, false},
		{"replace_without_id", "jupyter.ipynb", Input{NewSource: "x"}, false},
		{"invalid_json", "broken.ipynb", Input{CellID: "cell-0", NewSource: "x"}, false},
		{"no_cells", "no_cells.ipynb", Input{CellID: "cell-0", NewSource: "x"}, false},
		{"nbformat_3", "v3.ipynb", Input{CellID: "cell-0", NewSource: "x"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env, path := setup(t, tt.fixture, true)
			before, _ := os.ReadFile(path)
			tt.in.NotebookPath = path
			got, err := call(t, env, tt.in)
			if err != nil {
				got = "error: " + err.Error()
			}
			golden(t, tt.name+".golden", env.Cwd, got)
			after, _ := os.ReadFile(path)
			if tt.notebook {
				golden(t, tt.name+".ipynb.golden", env.Cwd, string(after))
				var v any
				if err := json.Unmarshal(after, &v); err != nil {
					t.Errorf("the edited notebook is not valid JSON: %v", err)
				}
			} else if string(after) != string(before) {
				t.Error("a failed edit changed the notebook")
			}
		})
	}
}

// TestUnchangedNotebookWritesBackByteForByte proves the layout is kept: a
// notebook parsed and written back without an edit is the same file.
func TestUnchangedNotebookWritesBackByteForByte(t *testing.T) {
	for _, fixture := range []string{"jupyter.ipynb", "no_ids.ipynb", "two_space.ipynb", "compact.ipynb"} {
		data, _ := os.ReadFile(filepath.Join("testdata", fixture))
		nb, err := parseNotebook(data)
		if err != nil {
			t.Fatalf("%s: %v", fixture, err)
		}
		for i := range nb.cells {
			cell, _ := parseObject(nb.cells[i])
			nb.cells[i] = nb.layout.object(cell, cellDepth)
		}
		if got := nb.bytes(); string(got) != string(data) {
			t.Errorf("%s written back differs:\n%s", fixture, got)
		}
	}
}

func TestNotebookEditNeedsAnUnchangedRead(t *testing.T) {
	env, path := setup(t, "jupyter.ipynb", false)
	_, err := call(t, env, Input{NotebookPath: path, CellID: "calc", NewSource: "x"})
	golden(t, "not_read.golden", env.Cwd, "error: "+fmt.Sprint(err))

	env, path = setup(t, "jupyter.ipynb", true)
	later := time.Now().Add(2 * time.Second)
	os.WriteFile(path, []byte(strings.Replace(mustRead(t, path), "Analysis", "Analyses", 1)), 0o644)
	os.Chtimes(path, later, later)
	_, err = call(t, env, Input{NotebookPath: path, CellID: "calc", NewSource: "x"})
	golden(t, "changed.golden", env.Cwd, "error: "+fmt.Sprint(err))

	env, _ = setup(t, "jupyter.ipynb", true)
	_, err = call(t, env, Input{NotebookPath: filepath.Join(env.Cwd, "script.py"), CellID: "calc", NewSource: "x"})
	golden(t, "not_notebook.golden", env.Cwd, "error: "+fmt.Sprint(err))
}

func TestNotebookEditsFollowEachOther(t *testing.T) {
	env, path := setup(t, "jupyter.ipynb", true)
	steps := []Input{
		{CellID: "calc", NewSource: "a = 1"},
		{CellID: "calc", NewSource: "b = 2", CellType: "code", EditMode: "insert"},
		{CellID: "notes", EditMode: "delete"},
	}
	for _, step := range steps {
		step.NotebookPath = path
		if _, err := call(t, env, step); err != nil {
			t.Fatalf("%+v: %v", step, err)
		}
	}
	rec, _ := fileaccess.StateOf(env).Lookup(path)
	if changed, _ := fileaccess.Changed(path, rec); !rec.Full || changed {
		t.Errorf("record %+v changed %v, want the edited notebook known whole", rec, changed)
	}
}

func TestNotebookEditPermissionsAndSchema(t *testing.T) {
	env, _ := setup(t, "jupyter.ipynb", true)
	for path, want := range map[string]string{"nb.ipynb": filepath.Join(workspace.RealPath(env.Cwd), "nb.ipynb"), "/etc/nb.ipynb": "/etc/nb.ipynb"} {
		raw, _ := json.Marshal(Input{NotebookPath: path, CellID: "calc", NewSource: "x"})
		c, _ := Tool.Parse(raw)
		if access := c.Accesses(context.Background(), env); len(access.Writes) != 1 || access.Writes[0] != want {
			t.Errorf("%s: access %+v, want one write of %s", path, access, want)
		}
		if c.IsReadOnly() || c.IsConcurrencySafe() {
			t.Error("NotebookEdit must be neither read-only nor concurrency-safe")
		}
	}
	var want, got map[string]any
	data, _ := os.ReadFile(filepath.Join("testdata", "claude_code_schema.json"))
	json.Unmarshal(data, &want)
	delete(want, "$schema")
	json.Unmarshal(Tool.InputSchema(), &got)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("schema\n got %s\nwant %s", Tool.InputSchema(), data)
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestCRLFNotebookStaysCRLF(t *testing.T) {
	env, path := setup(t, "jupyter.ipynb", false)
	data := []byte(strings.ReplaceAll(mustRead(t, path), "\n", "\r\n"))
	os.WriteFile(path, data, 0o644)
	info, _ := os.Stat(path)
	fileaccess.StateOf(env).RememberFull(path, data, info.ModTime())
	if _, err := call(t, env, Input{NotebookPath: path, CellID: "intro", NewSource: "new\ntext", CellType: "code"}); err != nil {
		t.Fatal(err)
	}
	after := mustRead(t, path)
	if strings.Count(after, "\n") != strings.Count(after, "\r\n") {
		t.Errorf("bare line feeds in a CRLF notebook:\n%q", after)
	}
	var v any
	if err := json.Unmarshal([]byte(after), &v); err != nil {
		t.Errorf("not JSON after the edit: %v", err)
	}
	want := strings.ReplaceAll(mustRead(t, filepath.Join("testdata", "replace_markdown_with_code.ipynb.golden")), "\n", "\r\n")
	if after != strings.Replace(want, `"pass"`, "\"new\\n\",\r\n    \"text\"", 1) {
		t.Errorf("CRLF edit differs from the LF one:\n%s", after)
	}
}

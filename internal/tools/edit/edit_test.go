package edit

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/goldenfile"
	"github.com/mini-claude/mini-claude/internal/render/rendertest"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools/fileaccess"
	"github.com/mini-claude/mini-claude/internal/workspace"
)

// call runs one Edit call the way the executor does: parse, validate, run.
func call(t *testing.T, env *tool.Env, in Input) (string, error) {
	t.Helper()
	raw, _ := json.Marshal(in)
	res, err := tool.Exec(context.Background(), Tool, env, raw, nil)
	if err != nil {
		return "", err
	}
	return res.Content[0].Text, nil
}

// golden compares got, with the test's directory written as $DIR, to testdata/name.golden.
func golden(t *testing.T, name, dir, got string) {
	t.Helper()
	got = strings.ReplaceAll(got, dir, "$DIR")
	path := filepath.Join("testdata", name+".golden")
	goldenfile.Check(t, path, got)
}

func newEnv(t *testing.T) *tool.Env {
	dir := t.TempDir()
	return &tool.Env{Cwd: dir, Session: tool.NewSession(dir), PermissionMode: "default"}
}

// How a test's file was read before the edit.
const (
	readFull = iota
	readPart
	readNone
)

// laterChange rewrites the file after it was read, with a clearly newer mtime.
func laterChange(content string) func(path string) {
	return func(path string) {
		os.WriteFile(path, []byte(content), 0o644)
		later := time.Now().Add(2 * time.Second)
		os.Chtimes(path, later, later)
	}
}

func TestEdit(t *testing.T) {
	const code = "func main() {\n\tfmt.Println(\"hi\")\n\treturn\n}\n"
	tests := []struct {
		name string
		// file is the content before the read; nil means no file.
		file  *string
		read  int
		after func(path string)
		in    Input
		// golden names the expected result text; want is the file afterwards.
		golden string
		want   *string
	}{
		{"exact unique match", ptr(code), readFull, nil,
			Input{OldString: "\tfmt.Println(\"hi\")", NewString: "\tfmt.Println(\"hello\")"},
			"updated", ptr("func main() {\n\tfmt.Println(\"hello\")\n\treturn\n}\n")},
		{"tabs are kept as they are", ptr("a\n\t\tb\n"), readFull, nil,
			Input{OldString: "\t\tb", NewString: "\t\tc\n\t\td"},
			"updated", ptr("a\n\t\tc\n\t\td\n")},
		{"a partial read is enough", ptr("one\ntwo\n"), readPart, nil,
			Input{OldString: "two", NewString: "2"}, "updated", ptr("one\n2\n")},
		{"not found and nothing alike", ptr(code), readFull, nil,
			Input{OldString: "nowhere to be seen", NewString: "x"}, "not_found", ptr(code)},
		{"trailing whitespace is not forgiven", ptr("x := 1   \ny := 2\n"), readFull, nil,
			Input{OldString: "x := 1\ny := 2", NewString: "z := 3"}, "not_found_whitespace", ptr("x := 1   \ny := 2\n")},
		{"indentation is not forgiven", ptr(code), readFull, nil,
			Input{OldString: "    fmt.Println(\"hi\")", NewString: "x"}, "not_found_indent", ptr(code)},
		{"closest lines of a multi-line miss", ptr(code), readFull, nil,
			Input{OldString: "func main() {\n\tfmt.Println(\"bye\")\n\treturn", NewString: "x"}, "not_found_closest", ptr(code)},
		{"a line a few characters off", ptr(code), readFull, nil,
			Input{OldString: "fmt.Println(\"ho\")", NewString: "x"}, "not_found_similar", ptr(code)},
		{"line numbers copied from Read", ptr(code), readFull, nil,
			Input{OldString: "2\tfmt.Println(\"hi\")\n3\treturn", NewString: "x"}, "not_found_read_prefix", ptr(code)},
		{"several matches without replace_all", ptr("a\nb\na\nc\na\n"), readFull, nil,
			Input{OldString: "a", NewString: "z"}, "too_many", ptr("a\nb\na\nc\na\n")},
		{"replace_all", ptr("a\nb\na\nc\na\n"), readFull, nil,
			Input{OldString: "a", NewString: "z", ReplaceAll: true}, "replaced_all", ptr("z\nb\nz\nc\nz\n")},
		{"old equals new", ptr(code), readFull, nil,
			Input{OldString: "return", NewString: "return"}, "same", ptr(code)},
		{"empty old_string creates a file", nil, readNone, nil,
			Input{FilePath: "new/dir/f.txt", OldString: "", NewString: "fresh\n"}, "created", ptr("fresh\n")},
		{"empty old_string fills an empty file", ptr(""), readFull, nil,
			Input{OldString: "", NewString: "filled\n"}, "updated", ptr("filled\n")},
		{"empty old_string on a file with content", ptr("text\n"), readFull, nil,
			Input{OldString: "", NewString: "x"}, "empty_old_on_content", ptr("text\n")},
		{"straight old_string matches curly quotes and new_string turns curly", ptr("He said “hi” and it’s fine.\n"), readFull, nil,
			Input{OldString: `said "hi" and it's`, NewString: `said "bye" and it's`},
			"quotes_restyled", ptr("He said “bye” and it’s fine.\n")},
		{"curly old_string matches straight quotes and new_string turns straight", ptr("msg := \"don't\"\n"), readFull, nil,
			Input{OldString: "“don’t”", NewString: "“won’t”"},
			"quotes_restyled", ptr("msg := \"won't\"\n")},
		{"LF old_string matches a CRLF file, which stays CRLF", ptr("one\r\ntwo\r\nthree\r\n"), readFull, nil,
			Input{OldString: "one\ntwo\n", NewString: "1\n2\nextra\n"}, "updated", ptr("1\r\n2\r\nextra\r\nthree\r\n")},
		{"new lines in a CRLF file get CRLF", ptr("one\r\ntwo\r\n"), readFull, nil,
			Input{OldString: "two", NewString: "two\nthree"}, "updated", ptr("one\r\ntwo\r\nthree\r\n")},
		{"deleting a line takes its line break", ptr("keep\ndrop me\nkeep too\n"), readFull, nil,
			Input{OldString: "drop me", NewString: ""}, "updated", ptr("keep\nkeep too\n")},
		{"removing a line break in a CRLF file leaves no CR behind", ptr("a\r\nb\r\nc\r\n"), readFull, nil,
			Input{OldString: "\nb", NewString: ""}, "updated", ptr("a\r\nc\r\n")},
		{"not read", ptr(code), readNone, nil,
			Input{OldString: "return", NewString: "x"}, "not_read", ptr(code)},
		{"missing file", nil, readNone, nil,
			Input{FilePath: "missing.go", OldString: "a", NewString: "b"}, "missing", nil},
		{"changed since read, unique match still applies", ptr("v1\nline\n"), readFull, laterChange("v2\nline\n"),
			Input{OldString: "line", NewString: "LINE"}, "changed_applied", ptr("v2\nLINE\n")},
		{"changed since read, several matches refused", ptr("x\n"), readFull, laterChange("x\nx\n"),
			Input{OldString: "x", NewString: "y", ReplaceAll: true}, "changed_ambiguous", ptr("x\nx\n")},
		{"changed since read, gone", ptr("old line\n"), readFull, laterChange("rewritten\n"),
			Input{OldString: "old line", NewString: "x"}, "changed_not_found", ptr("rewritten\n")},
		{"notebook", ptr("{}"), readFull, nil,
			Input{FilePath: "nb.ipynb", OldString: "{}", NewString: "[]"}, "notebook", ptr("{}")},
		{"new_string equal to old_string once its trailing spaces go", ptr("a = 1\n"), readFull, nil,
			Input{FilePath: "a.py", OldString: "a = 1", NewString: "a = 1  "}, "same", ptr("a = 1\n")},
		{"not UTF-8", ptr("caf\xe9\n"), readFull, nil,
			Input{OldString: "caf", NewString: "tea"}, "not_utf8", ptr("caf\xe9\n")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newEnv(t)
			if tt.in.FilePath == "" {
				tt.in.FilePath = "file.txt"
			}
			path := workspace.Resolve(env, tt.in.FilePath)
			if tt.file != nil {
				os.WriteFile(path, []byte(*tt.file), 0o644)
				info, _ := os.Stat(path)
				switch tt.read {
				case readFull:
					fileaccess.StateOf(env).RememberFull(path, []byte(*tt.file), info.ModTime())
				case readPart:
					fileaccess.StateOf(env).RememberPart(path, info.ModTime())
				}
			}
			if tt.after != nil {
				tt.after(path)
			}
			got, err := call(t, env, tt.in)
			if err != nil {
				got = "error: " + err.Error()
			}
			golden(t, tt.golden, env.Cwd, got)
			if tt.want != nil {
				if data, _ := os.ReadFile(path); string(data) != *tt.want {
					t.Errorf("file holds %q, want %q", data, *tt.want)
				}
			}
		})
	}
}

func ptr(s string) *string { return &s }

func TestEditRefusesHugeFilesBeforeReading(t *testing.T) {
	env := newEnv(t)
	path := filepath.Join(env.Cwd, "huge.log")
	f, _ := os.Create(path)
	f.Truncate(maxFileSize + 1) // sparse: no disk used
	f.Close()
	fileaccess.StateOf(env).RememberPart(path, time.Now())
	_, err := call(t, env, Input{FilePath: path, OldString: "a", NewString: "b"})
	if err == nil {
		t.Fatal("a file over 1 GiB was edited")
	}
	golden(t, "too_large", env.Cwd, "error: "+err.Error())
}

func TestEditKeepsModeAndLeavesNoTempFiles(t *testing.T) {
	env := newEnv(t)
	path := filepath.Join(env.Cwd, "run.sh")
	os.WriteFile(path, []byte("#!/bin/sh\necho a\n"), 0o755)
	info, _ := os.Stat(path)
	fileaccess.StateOf(env).RememberPart(path, info.ModTime())
	if _, err := call(t, env, Input{FilePath: path, OldString: "echo a", NewString: "echo b"}); err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o755 {
		t.Errorf("mode %v, want 0755", info.Mode().Perm())
	}
	if entries, _ := os.ReadDir(env.Cwd); len(entries) != 1 {
		t.Errorf("%d entries in the directory, want only the file", len(entries))
	}
}

// TestEditKeepsWhatTheSessionKnows checks the file state after edits: a file
// read whole stays known whole, so Write may replace it next; a partial read
// stays partial, so Write still refuses.
func TestEditKeepsWhatTheSessionKnows(t *testing.T) {
	for _, full := range []bool{true, false} {
		env := newEnv(t)
		path := filepath.Join(env.Cwd, "f.txt")
		os.WriteFile(path, []byte("a\nb\n"), 0o644)
		info, _ := os.Stat(path)
		if full {
			fileaccess.StateOf(env).RememberFull(path, []byte("a\nb\n"), info.ModTime())
		} else {
			fileaccess.StateOf(env).RememberPart(path, info.ModTime())
		}
		for _, step := range []Input{{OldString: "a", NewString: "A"}, {OldString: "b", NewString: "B"}} {
			step.FilePath = path
			if _, err := call(t, env, step); err != nil {
				t.Fatalf("full=%v: %v", full, err)
			}
		}
		rec, _ := fileaccess.StateOf(env).Lookup(path)
		changed, _ := fileaccess.Changed(path, rec)
		if rec.Full != full || changed {
			t.Errorf("read whole %v: record full %v, changed %v", full, rec.Full, changed)
		}
	}
}

func TestEditReportsItsTargetForPermissions(t *testing.T) {
	env := newEnv(t)
	for path, want := range map[string]string{
		"inside.txt": filepath.Join(workspace.RealPath(env.Cwd), "inside.txt"),
		"/etc/hosts": "/etc/hosts",
	} {
		raw, _ := json.Marshal(Input{FilePath: path, OldString: "a", NewString: "b"})
		c, _ := Tool.Parse(raw)
		if access := c.Accesses(context.Background(), env); len(access.Writes) != 1 || access.Writes[0] != want {
			t.Errorf("%s: access %+v, want one write of %s", path, access, want)
		}
		if c.IsReadOnly() || c.IsConcurrencySafe() {
			t.Error("Edit must be neither read-only nor concurrency-safe")
		}
	}
}

// TestSchemaIsClaudeCodes compares the input schema with the one Claude Code
// sends, captured in testdata/claude_code_schema.json.
func TestSchemaIsClaudeCodes(t *testing.T) {
	var want, got map[string]any
	data, err := os.ReadFile(filepath.Join("testdata", "claude_code_schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	json.Unmarshal(data, &want)
	delete(want, "$schema")
	json.Unmarshal(Tool.InputSchema(), &got)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("schema\n got %s\nwant %s", Tool.InputSchema(), data)
	}
}

func TestEditMissInALargeFilePointsToGrep(t *testing.T) {
	env := newEnv(t)
	path := filepath.Join(env.Cwd, "large.txt")
	os.WriteFile(path, []byte(strings.Repeat("filler line\n", maxHintFileSize/12+1)), 0o644)
	info, _ := os.Stat(path)
	fileaccess.StateOf(env).RememberPart(path, info.ModTime())
	_, err := call(t, env, Input{FilePath: path, OldString: "filler lime", NewString: "x"})
	if err == nil {
		t.Fatal("a missing string was replaced")
	}
	golden(t, "not_found_large", env.Cwd, "error: "+err.Error())
}

// TestEditOutputIsClaudeCodes checks the structured result, shown as
// tool_use_result in stream-json, against the objects Claude Code 2.1.332
// gives for the same edits (as captured in e2e/testdata/file_results).
func TestEditOutputIsClaudeCodes(t *testing.T) {
	tests := []struct {
		name string
		// file is the content before the edit; "" means no file.
		file string
		read int
		in   Input
		want string
	}{
		{"one line", "a\nb\nc\n", readFull, Input{OldString: "b", NewString: "B\nb2"},
			`{"filePath":"$DIR/f.txt","oldString":"b","newString":"B\nb2","originalFile":"a\nb\nc\n","structuredPatch":[{"oldStart":1,"oldLines":3,"newStart":1,"newLines":4,"lines":[" a","-b","+B","+b2"," c"]}],"userModified":false,"replaceAll":false}`},
		{"replace_all", "foo bar\nfoo baz\nqux foo\n", readFull, Input{OldString: "foo", NewString: "FOO", ReplaceAll: true},
			`{"filePath":"$DIR/f.txt","oldString":"foo","newString":"FOO","originalFile":"foo bar\nfoo baz\nqux foo\n","structuredPatch":[{"oldStart":1,"oldLines":3,"newStart":1,"newLines":3,"lines":["-foo bar","-foo baz","-qux foo","+FOO bar","+FOO baz","+qux FOO"]}],"userModified":false,"replaceAll":true}`},
		{"no trailing newline", "a\nb\nc", readFull, Input{OldString: "c", NewString: "C"},
			`{"filePath":"$DIR/f.txt","oldString":"c","newString":"C","originalFile":"a\nb\nc","structuredPatch":[{"oldStart":1,"oldLines":3,"newStart":1,"newLines":3,"lines":[" a"," b","-c","\\ No newline at end of file","+C","\\ No newline at end of file"]}],"userModified":false,"replaceAll":false}`},
		{"CRLF file is reported with LF", "one\r\ntwo\r\nthree\r\n", readFull, Input{OldString: "two\nthree", NewString: "TWO\nTHREE\nfour"},
			`{"filePath":"$DIR/f.txt","oldString":"two\nthree","newString":"TWO\nTHREE\nfour","originalFile":"one\ntwo\nthree\n","structuredPatch":[{"oldStart":1,"oldLines":3,"newStart":1,"newLines":4,"lines":[" one","-two","-three","+TWO","+THREE","+four"]}],"userModified":false,"replaceAll":false}`},
		{"partly read file", "one\ntwo\n", readPart, Input{OldString: "two", NewString: "2"},
			`{"filePath":"$DIR/f.txt","oldString":"two","newString":"2","originalFile":"one\ntwo\n","structuredPatch":[{"oldStart":1,"oldLines":2,"newStart":1,"newLines":2,"lines":[" one","-two","+2"]}],"userModified":false,"replaceAll":false,"contentNotInModelContext":true}`},
		{"created file", "", readNone, Input{OldString: "", NewString: "made by edit\n"},
			`{"filePath":"$DIR/f.txt","oldString":"","newString":"made by edit\n","originalFile":"","structuredPatch":[{"oldStart":1,"oldLines":0,"newStart":1,"newLines":1,"lines":["+made by edit"]}],"userModified":false,"replaceAll":false}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newEnv(t)
			path := filepath.Join(env.Cwd, "f.txt")
			if tt.file != "" {
				os.WriteFile(path, []byte(tt.file), 0o644)
				info, _ := os.Stat(path)
				switch tt.read {
				case readFull:
					fileaccess.StateOf(env).RememberFull(path, []byte(tt.file), info.ModTime())
				case readPart:
					fileaccess.StateOf(env).RememberPart(path, info.ModTime())
				}
			}
			tt.in.FilePath = path
			raw, _ := json.Marshal(tt.in)
			res, err := tool.Exec(context.Background(), Tool, env, raw, nil)
			if err != nil {
				t.Fatal(err)
			}
			rendertest.CheckOutput(t, Tool, raw, res.Output, env.Cwd, tt.want)
		})
	}
}

// runRecording runs a recording's calls on its files in a fresh session: each
// Read as the session remembering the whole file, each Edit through the tool.
// It returns the directory and each Edit's error flag, by call.
func runRecording(t *testing.T, rec goldenfile.Recording) (string, map[int]bool) {
	t.Helper()
	env := newEnv(t)
	rec.WriteFiles(t, env.Cwd)
	failed := map[int]bool{}
	for i, c := range rec.Calls {
		var in Input
		if err := json.Unmarshal(rec.Input(i, env.Cwd), &in); err != nil {
			t.Fatal(err)
		}
		if c.Tool == "Read" {
			data, _ := os.ReadFile(in.FilePath)
			info, _ := os.Stat(in.FilePath)
			fileaccess.StateOf(env).RememberFull(in.FilePath, data, info.ModTime())
			continue
		}
		_, err := call(t, env, in)
		failed[i] = err != nil
	}
	return env.Cwd, failed
}

// TestEditsAsClaudeCode makes the edits recorded from Claude Code
// (testdata/claude-code) and requires the files it left: files in curly
// quotes edited with straight old_strings, and new_strings with trailing
// white space in files of several kinds. One case differs on purpose: a
// curly old_string on a file in straight quotes writes new_string straight,
// where Claude Code writes it curly into the code.
func TestEditsAsClaudeCode(t *testing.T) {
	tests := []struct {
		recording string
		// ours overrides the recorded files where we differ on purpose.
		ours map[string]string
	}{
		{"quotes_curly", nil},
		{"quotes_mixed", nil},
		{"quotes_reverse", map[string]string{"code.txt": "msg := \"won't\"\n"}},
		{"trailing_whitespace", nil},
	}
	for _, tt := range tests {
		t.Run(tt.recording, func(t *testing.T) {
			rec := goldenfile.LoadRecording(t, tt.recording)
			dir, failed := runRecording(t, rec)
			for i, isErr := range failed {
				if isErr != rec.Results[i].IsError {
					t.Errorf("call %d: error %v, Claude Code's is_error %v", i, isErr, rec.Results[i].IsError)
				}
			}
			for name, want := range rec.After {
				if w, ok := tt.ours[name]; ok {
					want = w
				}
				if data, _ := os.ReadFile(filepath.Join(dir, name)); string(data) != want {
					t.Errorf("%s holds %q, want %q", name, data, want)
				}
			}
		})
	}
}

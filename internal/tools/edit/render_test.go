package edit

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/patch"
	"github.com/mini-claude/mini-claude/internal/render"
	"github.com/mini-claude/mini-claude/internal/render/rendertest"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools/fileaccess"
)

func TestRenderHooks(t *testing.T) {
	var old, new string
	for i := 1; i <= 20; i++ {
		old += "\tcall(" + string(rune('a'+i)) + ")\n"
		if i%4 == 0 {
			new += "\tcall(" + string(rune('a'+i)) + ", withAnArgumentLongEnoughToBeClippedAtEightyColumnsInTheDiff)\n"
			continue
		}
		new += "\tcall(" + string(rune('a'+i)) + ")\n"
	}
	const mainGo = "package main\n\nfunc main() {\n\tfmt.Println(\"hi\")\n}\n"
	small := Output{FilePath: "/repo/main.go", OldString: `fmt.Println("hi")`, NewString: "fmt.Println(\"hello\")\nreturn",
		OriginalFile: mainGo, StructuredPatch: patch.Compute(mainGo, strings.Replace(mainGo, `fmt.Println("hi")`, "fmt.Println(\"hello\")\nreturn", 1))}
	long := Output{FilePath: "/repo/calls.go", OldString: old, NewString: new, OriginalFile: old,
		StructuredPatch: patch.Compute(old, new), ReplaceAll: true}
	cases := []rendertest.Case{
		{Name: "edit_small", Input: `{"file_path":"/repo/main.go","old_string":"fmt.Println(\"hi\")","new_string":"fmt.Println(\"hello\")\nreturn"}`,
			Partial: `{"file_path":"/repo/main.go","old_str`, Queued: true, Output: small, Rejected: true},
		{Name: "edit_long", Input: `{"file_path":"/repo/calls.go","replace_all":true,"old_string":` + jsonString(old) + `,"new_string":` + jsonString(new) + `}`,
			Output: long},
		{Name: "edit_error", Input: `{"file_path":"/repo/main.go","old_string":"x","new_string":"y"}`,
			Error: "<tool_use_error>String to replace not found in file.\nString: x</tool_use_error>"},
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) { rendertest.Check(t, Tool, c) })
	}
}

func TestRenderedDiffMarksAddedAndRemovedLines(t *testing.T) {
	text := renderQueued(Input{OldString: "a\nb\n", NewString: "a\nc\n"}, tool.RenderOptions{Width: 80})
	styles := map[string]tool.Style{}
	for _, line := range text[1:] {
		body := line[1:] // after the line number
		styles[strings.TrimSpace(body.String())] = body[len(body)-1].Style
		for _, span := range body {
			if span.Style != body[0].Style {
				t.Errorf("line %q mixes styles %d and %d", line.String(), body[0].Style, span.Style)
			}
		}
	}
	if styles["- b"] != tool.StyleRemoved || styles["+ c"] != tool.StyleAdded || styles["a"] != tool.StylePlain {
		t.Errorf("diff styles = %v, want - b removed, + c added, a plain", styles)
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func TestRenderedDiffIsNumberedFromTheFile(t *testing.T) {
	env := newEnv(t)
	path := filepath.Join(env.Cwd, "f.go")
	os.WriteFile(path, []byte("one\ntwo\nthe 3 of us\nfour\n"), 0o644)
	in := Input{FilePath: path, OldString: "3", NewString: "three"}
	queued := renderQueued(in, tool.RenderOptions{Width: 80}).String()
	info, _ := os.Stat(path)
	fileaccess.StateOf(env).RememberFull(path, []byte("one\ntwo\nthe 3 of us\nfour\n"), info.ModTime())
	raw, _ := json.Marshal(in)
	res, err := tool.Exec(context.Background(), Tool, env, raw, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := render.Of(Tool).RenderResult(raw, res.Output, tool.RenderOptions{Width: 80}).String()
	want := "Updated " + path + " with 1 addition and 1 removal\n    1   one\n    2   two\n    3 - the 3 of us\n    3 + the three of us\n    4   four\n"
	if got != want {
		t.Errorf("result:\n%s\nwant\n%s", got, want)
	}
	if wantQueued := strings.Replace(want, "Updated "+path+" with 1 addition and 1 removal", "Added 1 line, removed 1 line", 1); queued != wantQueued {
		t.Errorf("the diff asked about before the edit:\n%s\nwant the one the edit made:\n%s", queued, wantQueued)
	}
}

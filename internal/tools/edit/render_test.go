package edit

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tool/rendertest"
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
	cases := []rendertest.Case{
		{Name: "edit_small", Input: `{"file_path":"/repo/main.go","old_string":"fmt.Println(\"hi\")","new_string":"fmt.Println(\"hello\")\nreturn"}`,
			Partial: `{"file_path":"/repo/main.go","old_str`, Queued: true, Output: "The file /repo/main.go has been updated.", Rejected: true},
		{Name: "edit_long", Input: `{"file_path":"/repo/calls.go","replace_all":true,"old_string":` + jsonString(old) + `,"new_string":` + jsonString(new) + `}`,
			Output: "The file /repo/calls.go has been updated."},
		{Name: "edit_error", Input: `{"file_path":"/repo/main.go","old_string":"x","new_string":"y"}`,
			Error: "<tool_use_error>String to replace not found in file.\nString: x</tool_use_error>"},
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) { rendertest.Check(t, Tool, c) })
	}
}

func TestRenderedDiffMarksAddedAndRemovedLines(t *testing.T) {
	text := renderChange(Input{OldString: "a\nb\n", NewString: "a\nc\n"}, spot{line: 1}, tool.RenderOptions{Width: 80})
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
	path := filepath.Join(t.TempDir(), "f.go")
	os.WriteFile(path, []byte("one\ntwo\nthe three of us\nfour\n"), 0o644)
	got := renderResult(Input{FilePath: path, OldString: "3", NewString: "three"}, "", tool.RenderOptions{Width: 80}).String()
	if !strings.Contains(got, "    3 + the three of us") || !strings.Contains(got, "    3 - the 3 of us") {
		t.Errorf("diff not numbered from the file:\n%s", got)
	}
}

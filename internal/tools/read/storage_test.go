package read

import (
	"encoding/json"
	"testing"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/render"
	"github.com/mini-claude/mini-claude/internal/tool"
)

// TestAResumedReadKeepsWhatWasReadNotTheContent follows Claude Code's
// stripForStorage for Read, applied on resume: the kind and size of what was
// read stay, the content goes (a notebook's cells become empty cells where
// Claude Code has nulls).
func TestAResumedReadKeepsWhatWasReadNotTheContent(t *testing.T) {
	cases := []struct {
		name string
		out  Output
		want string
	}{
		{"text", Output{Type: KindText, File: File{FilePath: "/a.go", Content: "package a\n\nfunc f() {}", StartLine: 1, NumLines: 3, TotalLines: 3}},
			`{"type":"text","file":{"filePath":"/a.go","content":"","numLines":3,"startLine":1,"totalLines":3}}`},
		{"image", Output{Type: KindImage, File: File{FilePath: "/a.png", Image: &llm.ImageSource{Type: "base64", MediaType: "image/png", Data: "iVBORw0KGgo="}, OriginalSize: 8}},
			`{"type":"image","file":{"filePath":"/a.png","content":"","image":{"type":"base64","media_type":"image/png","data":""},"originalSize":8}}`},
		{"notebook", Output{Type: KindNotebook, File: File{FilePath: "/a.ipynb", Cells: []Cell{{ID: "c1", Type: "code", Source: "x = 1"}, {ID: "c2", Type: "markdown", Source: "# Title"}}}},
			`{"type":"notebook","file":{"filePath":"/a.ipynb","content":"","cells":[{"cellId":"","cellType":"","source":""},{"cellId":"","cellType":"","source":""}]}}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			stored := tool.Stored(c.out)
			got, err := json.Marshal(stored)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != c.want {
				t.Errorf("stored as\n%s\nwant\n%s", got, c.want)
			}
			if summary := render.Of(Tool).RenderResult(nil, stored, tool.RenderOptions{Full: true}); len(summary) != 1 {
				t.Errorf("the stored output draws %q, want only its summary line", summary.String())
			}
		})
	}
	if c := cases[1].out.File.Image.Data; c == "" {
		t.Error("storing the output emptied the caller's image data")
	}
}

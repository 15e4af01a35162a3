package write

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/mini-claude/mini-claude/internal/patch"
	"github.com/mini-claude/mini-claude/internal/render"
	"github.com/mini-claude/mini-claude/internal/render/rendertest"
	"github.com/mini-claude/mini-claude/internal/tool"
)

func TestRenderHooks(t *testing.T) {
	content := ""
	for i := 0; i < 30; i++ {
		content += "line of the new file, long enough to be clipped when the terminal is eighty columns wide\n"
	}
	var original, updated string
	for i := 1; i <= 30; i++ {
		original += fmt.Sprintf("\tline %d of the file\n", i)
		if i%7 == 0 {
			updated += fmt.Sprintf("\tline %d of the file, rewritten with enough words to be clipped at eighty columns\n", i)
			continue
		}
		updated += fmt.Sprintf("\tline %d of the file\n", i)
	}
	cases := []rendertest.Case{
		{Name: "write_new", Input: `{"file_path":"/repo/hello.txt","content":"hello\nworld"}`, Partial: `{"file_path":"/repo/hel`,
			Queued: true, Output: created("/repo/hello.txt", "hello\nworld"), Rejected: true},
		{Name: "write_long", Input: `{"file_path":"/repo/long.txt","content":` + quoteJSON(content) + `}`, Output: created("/repo/long.txt", content)},
		{Name: "write_update", Input: `{"file_path":"/repo/notes.txt","content":` + quoteJSON(updated) + `}`,
			Output: Output{Type: KindUpdate, FilePath: "/repo/notes.txt", Content: updated, StructuredPatch: patch.Compute(original, updated), OriginalFile: &original}},
		{Name: "write_error", Input: `{"file_path":"/repo/x.txt","content":"x"}`, Error: "<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>"},
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) { rendertest.Check(t, Tool, c) })
	}
}

func created(path, content string) Output {
	return Output{Type: KindCreate, FilePath: path, Content: content, StructuredPatch: []patch.Hunk{}}
}

func quoteJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func TestQueuedRewriteIsADiffAgainstTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.txt")
	os.WriteFile(path, []byte("keep\nold line\n"), 0o644)
	in := `{"file_path":` + quoteJSON(path) + `,"content":"keep\nnew line\n"}`
	got := render.Of(Tool).RenderQueued(json.RawMessage(in), tool.RenderOptions{Width: 80}).String()
	want := "Overwrite: added 1 line, removed 1 line\n    1   keep\n    2 - old line\n    2 + new line\n"
	if got != want {
		t.Errorf("queued rewrite:\n%s\nwant\n%s", got, want)
	}
}

// TestOverwritePreviewOfACRLFFileShowsOnlyTheChange: the file keeps its CRLF
// line breaks, so the preview compares content, not line endings, as the
// result's patch does.
func TestOverwritePreviewOfACRLFFileShowsOnlyTheChange(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.txt")
	if err := os.WriteFile(path, []byte("one\r\ntwo\r\nthree\r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got := renderQueued(Input{FilePath: path, Content: "one\nTWO\nthree\n"}, tool.RenderOptions{Width: 80}).String()
	want := "Overwrite: added 1 line, removed 1 line\n    1   one\n    2 - two\n    2 + TWO\n    3   three\n"
	if got != want {
		t.Errorf("preview\n%s\nwant\n%s", got, want)
	}
}

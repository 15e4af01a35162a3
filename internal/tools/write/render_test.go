package write

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tool/rendertest"
)

func TestRenderHooks(t *testing.T) {
	content := ""
	for i := 0; i < 30; i++ {
		content += "line of the new file, long enough to be clipped when the terminal is eighty columns wide\n"
	}
	cases := []rendertest.Case{
		{Name: "write_new", Input: `{"file_path":"/repo/hello.txt","content":"hello\nworld"}`, Partial: `{"file_path":"/repo/hel`,
			Queued: true, Output: "File created successfully at: /repo/hello.txt", Rejected: true},
		{Name: "write_long", Input: `{"file_path":"/repo/long.txt","content":` + quoteJSON(content) + `}`, Output: "File created successfully at: /repo/long.txt"},
		{Name: "write_error", Input: `{"file_path":"/repo/x.txt","content":"x"}`, Error: "<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>"},
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) { rendertest.Check(t, Tool, c) })
	}
}

func quoteJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func TestQueuedRewriteIsADiffAgainstTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.txt")
	os.WriteFile(path, []byte("keep\nold line\n"), 0o644)
	in := `{"file_path":` + quoteJSON(path) + `,"content":"keep\nnew line\n"}`
	got := tool.RendererOf(Tool).RenderQueued(json.RawMessage(in), tool.RenderOptions{Width: 80}).String()
	want := "Overwrite: added 1 line, removed 1 line\n    1   keep\n    2 - old line\n    2 + new line\n"
	if got != want {
		t.Errorf("queued rewrite:\n%s\nwant\n%s", got, want)
	}
}

package write

import (
	"encoding/json"
	"testing"

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
		t.Run(c.Name, func(t *testing.T) { rendertest.Check(t, Tool, c, *update) })
	}
}

func quoteJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

package glob

import (
	"testing"

	"github.com/mini-claude/mini-claude/internal/render/rendertest"
)

func TestRenderHooks(t *testing.T) {
	cases := []rendertest.Case{
		{Name: "glob_found", Input: `{"pattern":"**/*.go","path":"/repo"}`, Partial: `{"pattern":"**/*.g`,
			Output: Output{Filenames: []string{"/repo/main.go", "/repo/internal/a/very/deep/package/path/that/goes/on/and/on/past/eighty/columns.go"}, NumFiles: 2, TotalMatches: 2}},
		{Name: "glob_truncated", Input: `{"pattern":"*"}`, Output: Output{Filenames: []string{"/a", "/b"}, NumFiles: 100, TotalMatches: 250, Truncated: true}},
		{Name: "glob_error", Input: `{"pattern":"*","path":"/nope"}`, Error: "<tool_use_error>Directory does not exist: /nope</tool_use_error>"},
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) { rendertest.Check(t, Tool, c) })
	}
}

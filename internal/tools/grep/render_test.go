package grep

import (
	"testing"

	"github.com/mini-claude/mini-claude/internal/render/rendertest"
)

func TestRenderHooks(t *testing.T) {
	cases := []rendertest.Case{
		{Name: "grep_files", Input: `{"pattern":"func main","path":"/repo","glob":"*.go"}`, Partial: `{"pattern":"func ma`,
			Output: Output{Mode: "files_with_matches", NumFiles: 2, Filenames: []string{"/repo/cmd/a/main.go", "/repo/cmd/b/main.go"}}},
		{Name: "grep_content", Input: `{"pattern":"TODO","output_mode":"content","-n":true}`,
			Output: Output{Mode: "content", NumLines: 2, Content: "a.go:3:\t// TODO: a note that is long enough to be clipped when the terminal is only eighty columns\nb.go:9:// TODO"}},
		{Name: "grep_count", Input: `{"pattern":"x","output_mode":"count"}`, Output: Output{Mode: "count", NumFiles: 2, NumMatches: 7, Content: "a.go:3\nb.go:4"}},
		{Name: "grep_error", Input: `{"pattern":"("}`, Error: "<tool_use_error>The pattern is not a valid regular expression: unclosed group</tool_use_error>"},
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) { rendertest.Check(t, Tool, c) })
	}
}

package websearch

import (
	"testing"

	"github.com/mini-claude/mini-claude/internal/render/rendertest"
)

func TestRenderHooks(t *testing.T) {
	cases := []rendertest.Case{
		{Name: "websearch_results", Input: `{"query":"golang generics","allowed_domains":["go.dev"]}`, Partial: `{"query":"golang gen`,
			Output: Output{Query: "golang generics", SearchCount: 1, DurationSeconds: 2.4, Results: []Result{
				{Text: "I'll search for that."},
				{Links: &Links{ToolUseID: "s1", Content: []Hit{{Title: "Tutorial: Getting started with generics", URL: "https://go.dev/doc/tutorial/generics"}}}},
			}}},
		{Name: "websearch_no_backend", Input: `{"query":"golang"}`, Error: noBackend},
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) { rendertest.Check(t, Tool, c) })
	}
}

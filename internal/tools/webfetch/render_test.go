package webfetch

import (
	"testing"

	"github.com/mini-claude/mini-claude/internal/render/rendertest"
)

func TestRenderHooks(t *testing.T) {
	cases := []rendertest.Case{
		{Name: "webfetch_answer", Input: `{"url":"https://go.dev/doc/","prompt":"What is new?"}`, Partial: `{"url":"https://go.d`,
			Output: Output{Bytes: 52_000, Code: 200, CodeText: "OK", Result: "Go 1.26 adds:\n- a faster GC\n- new iterators", URL: "https://go.dev/doc/"}},
		{Name: "webfetch_offset", Input: `{"url":"https://example.com/long","prompt":"p","offset":100000}`,
			Output: Output{Bytes: 330_000, Code: 200, CodeText: "OK", Result: "The rest.", URL: "https://example.com/long"}},
		{Name: "webfetch_error", Input: `{"url":"https://127.0.0.1:1/","prompt":"p"}`, Error: "connect ECONNREFUSED 127.0.0.1:1"},
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) { rendertest.Check(t, Tool, c) })
	}
}

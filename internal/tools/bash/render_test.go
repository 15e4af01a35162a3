package bash

import (
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/render/rendertest"
	"github.com/mini-claude/mini-claude/internal/tool"
)

func TestRenderHooks(t *testing.T) {
	long := ""
	for i := 1; i <= 40; i++ {
		long += "line " + string(rune('a'+i%26)) + " of a test run whose output is long enough to be clipped at eighty columns\n"
	}
	cases := []rendertest.Case{
		{Name: "bash_output", Input: `{"command":"go test ./...\ngo vet ./...","description":"Run the tests"}`,
			Partial: `{"command":"go test ./.`, Queued: true,
			Progress: &tool.ProgressEvent{Message: "ok  \tgithub.com/x/y\t0.01s", Data: Progress{Elapsed: 65 * time.Second, OutputBytes: 2300,
				Tail: "=== RUN   TestA\n--- PASS: TestA (0.00s)\nok  \tgithub.com/x/y\t0.01s"}},
			Elapsed: 65 * time.Second,
			Output:  Output{Text: long}, Rejected: true},
		{Name: "bash_background", Input: `{"command":"npm run dev","run_in_background":true}`, Output: Output{TaskID: "b1x2", ExitCode: -1}},
		{Name: "bash_error", Input: `{"command":"false"}`, Error: "Exit code 1\nsomething failed\n\tat step one\n\tat step two\n\tat step three"},
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) { rendertest.Check(t, Tool, c) })
	}
}

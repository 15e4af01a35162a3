package bash

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/goldenfile"
)

var (
	// writtenTo is the output file a background command's result names.
	writtenTo = regexp.MustCompile(`Output is being written to: (\S+)\.(\s|$)`)
	// anyTaskID is a background command's id as a result names it.
	anyTaskID = regexp.MustCompile(`ID: ([a-z0-9]+)`)
)

// asRecorded writes a result's output file, task id and directory the way
// the recordings under testdata/claude-code do.
func asRecorded(text, dir string) string {
	text = writtenTo.ReplaceAllString(text, "Output is being written to: $$OUTPUT_FILE.$2")
	for _, m := range anyTaskID.FindAllStringSubmatch(text, -1) {
		text = strings.ReplaceAll(text, m[1], "$TASK_ID")
	}
	return strings.ReplaceAll(text, dir, "$CWD")
}

// TestBackgroundTextsAsClaudeCode runs the calls of the recordings under
// testdata/claude-code (commands outliving their timeout, with and without
// output, and one started in the background) and requires Claude Code's
// texts, with our output file in place of its.
func TestBackgroundTextsAsClaudeCode(t *testing.T) {
	for _, name := range []string{"timeout", "background"} {
		t.Run(name, func(t *testing.T) {
			rec := goldenfile.LoadRecording(t, name)
			h := newHarness(t)
			rec.WriteFiles(t, h.dir)
			for i, want := range rec.Results {
				r, err := h.call(context.Background(), Tool, string(rec.Input(i, h.dir)))
				if err != nil {
					t.Fatalf("%s: %v", rec.Calls[i].Input, err)
				}
				if got := asRecorded(r.text, h.dir); got != want.Text || r.isError != want.IsError {
					t.Errorf("%s:\n got %q (error %v)\nwant %q (error %v)", rec.Calls[i].Input, got, r.isError, want.Text, want.IsError)
				}
			}
		})
	}
}

package edit

import (
	"strings"

	"github.com/mini-claude/mini-claude/internal/tool"
)

// How the UI draws an Edit call: the path as the title, then the change as a
// coloured diff of old_string against new_string, condensed unless expanded.

func renderUse(in Input) string {
	if in.ReplaceAll {
		return in.FilePath + " · all occurrences"
	}
	return in.FilePath
}

// renderChange is the diff shown while the call waits for approval and
// after it succeeded.
func renderChange(in Input, o tool.RenderOptions) tool.Text {
	before, after := withNewline(in.OldString), withNewline(in.NewString)
	head := tool.Line{{Text: tool.DiffStat(before, after), Style: tool.StyleDim}}
	return append(tool.Text{head}, tool.Diff(before, after, 1, o)...)
}

func renderQueued(in Input, o tool.RenderOptions) tool.Text { return renderChange(in, o) }

func renderResult(in Input, _ string, o tool.RenderOptions) tool.Text { return renderChange(in, o) }

func withNewline(s string) string {
	if s == "" || strings.HasSuffix(s, "\n") {
		return s
	}
	return s + "\n"
}

package edit

import (
	"os"
	"path/filepath"
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
// after it succeeded, numbered from firstLine.
func renderChange(in Input, firstLine int, o tool.RenderOptions) tool.Text {
	before, after := withNewline(in.OldString), withNewline(in.NewString)
	head := tool.Line{{Text: tool.DiffStat(before, after), Style: tool.StyleDim}}
	return append(tool.Text{head}, tool.Diff(before, after, firstLine, o)...)
}

// renderQueued numbers the diff from where old_string is in the file.
func renderQueued(in Input, o tool.RenderOptions) tool.Text {
	return renderChange(in, lineOf(in.FilePath, in.OldString), o)
}

// renderResult numbers the diff from where new_string now is in the file.
func renderResult(in Input, _ string, o tool.RenderOptions) tool.Text {
	return renderChange(in, lineOf(in.FilePath, in.NewString), o)
}

// maxNumberedFile is the largest file read to number a diff's lines.
const maxNumberedFile = 8 << 20

// lineOf is the line number where text first starts in the file, or 1 when
// the file cannot be read or does not hold it.
func lineOf(path, text string) int {
	if text == "" || !filepath.IsAbs(path) {
		return 1
	}
	info, err := os.Stat(path)
	if err != nil || info.Size() > maxNumberedFile {
		return 1
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return 1
	}
	i := strings.Index(string(data), text)
	if i < 0 {
		return 1
	}
	return strings.Count(string(data[:i]), "\n") + 1
}

func withNewline(s string) string {
	if s == "" || strings.HasSuffix(s, "\n") {
		return s
	}
	return s + "\n"
}

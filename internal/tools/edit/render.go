package edit

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/mini-claude/mini-claude/internal/patch"
	"github.com/mini-claude/mini-claude/internal/tool"
)

// How the UI draws an Edit call: the path as the title; while it waits,
// old_string against new_string as a coloured diff placed where old_string
// is in the file; once applied, the output's patch under a summary. Each is
// condensed unless expanded.

func renderUse(in Input) string {
	if in.ReplaceAll {
		return in.FilePath + " · all occurrences"
	}
	return in.FilePath
}

// renderQueued is the diff shown while the call waits for approval:
// old_string against new_string, widened to whole lines and numbered from
// the file when old_string is found there.
func renderQueued(in Input, o tool.RenderOptions) tool.Text {
	at := find(in.FilePath, in.OldString)
	hunks := patch.Compute(withNewline(at.prefix+in.OldString+at.suffix), withNewline(at.prefix+in.NewString+at.suffix))
	for i := range hunks {
		hunks[i].OldStart += at.line - 1
		hunks[i].NewStart += at.line - 1
	}
	head := tool.Line{{Text: tool.DiffStat(hunks), Style: tool.StyleDim}}
	return append(tool.Text{head}, tool.Diff(in.FilePath, hunks, o)...)
}

// renderResult draws the change the edit made to the file.
func renderResult(_ Input, out Output, o tool.RenderOptions) tool.Text {
	head := tool.Line{{Text: tool.UpdateSummary(out.FilePath, out.StructuredPatch), Style: tool.StyleDim}}
	return append(tool.Text{head}, tool.Diff(out.FilePath, out.StructuredPatch, o)...)
}

// maxNumberedFile is the largest file read to place a diff.
const maxNumberedFile = 8 << 20

// spot is where a text sits in a file: its first line's number and the rest
// of the lines it starts and ends in.
type spot struct {
	line           int
	prefix, suffix string
}

// find locates text in the file; a file that cannot be read or does not hold
// it gives line 1 and no surrounding text.
func find(path, text string) spot {
	none := spot{line: 1}
	if text == "" || !filepath.IsAbs(path) {
		return none
	}
	info, err := os.Stat(path)
	if err != nil || info.Size() > maxNumberedFile {
		return none
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return none
	}
	content := string(data)
	i := strings.Index(content, text)
	if i < 0 {
		return none
	}
	start := strings.LastIndexByte(content[:i], '\n') + 1
	end := len(content)
	if !strings.HasSuffix(text, "\n") {
		if j := strings.IndexByte(content[i+len(text):], '\n'); j >= 0 {
			end = i + len(text) + j
		}
	} else {
		end = i + len(text)
	}
	return spot{line: strings.Count(content[:i], "\n") + 1, prefix: content[start:i], suffix: content[i+len(text) : end]}
}

func withNewline(s string) string {
	if s == "" || strings.HasSuffix(s, "\n") {
		return s
	}
	return s + "\n"
}

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
// after it succeeded: old_string against new_string, widened to whole lines
// and numbered from the file when at is found there.
func renderChange(in Input, at spot, o tool.RenderOptions) tool.Text {
	before := withNewline(at.prefix + in.OldString + at.suffix)
	after := withNewline(at.prefix + in.NewString + at.suffix)
	head := tool.Line{{Text: tool.DiffStat(before, after), Style: tool.StyleDim}}
	return append(tool.Text{head}, tool.Diff(in.FilePath, before, after, at.line, o)...)
}

// renderQueued places the change where old_string is in the file.
func renderQueued(in Input, o tool.RenderOptions) tool.Text {
	return renderChange(in, find(in.FilePath, in.OldString), o)
}

// renderResult places the change where new_string now is in the file.
func renderResult(in Input, _ string, o tool.RenderOptions) tool.Text {
	return renderChange(in, find(in.FilePath, in.NewString), o)
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

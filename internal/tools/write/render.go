package write

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/mini-claude/mini-claude/internal/tool"
)

// How the UI draws a Write call: the path as the title; while it waits (and
// in the permission dialog) the change against the file on disk as a diff,
// or the whole content as added lines for a new file; once written, the
// content as added lines, since the output does not keep the former content.
// Each is condensed unless expanded.

func renderUse(in Input) string { return in.FilePath }

// maxDiffedFile is the largest existing file read to show a rewrite as a diff.
const maxDiffedFile = 8 << 20

func renderQueued(in Input, o tool.RenderOptions) tool.Text {
	if before, ok := current(in.FilePath); ok {
		after := withNewline(in.Content)
		stat := tool.DiffStat(before, after)
		head := tool.Line{{Text: "Overwrite: " + strings.ToLower(stat[:1]) + stat[1:], Style: tool.StyleDim}}
		return append(tool.Text{head}, tool.Diff(in.FilePath, before, after, 1, o)...)
	}
	return renderContent("Create with", in, o)
}

func renderResult(in Input, _ string, o tool.RenderOptions) tool.Text {
	return renderContent("Wrote", in, o)
}

func renderContent(verb string, in Input, o tool.RenderOptions) tool.Text {
	content := withNewline(in.Content)
	n := strings.Count(content, "\n")
	head := tool.Line{{Text: verb + " " + tool.Count(n, "line"), Style: tool.StyleDim}}
	return append(tool.Text{head}, tool.Diff(in.FilePath, "", content, 1, o)...)
}

// current is the content of the file at path when it exists and is small
// enough to diff.
func current(path string) (string, bool) {
	if !filepath.IsAbs(path) {
		return "", false
	}
	info, err := os.Stat(path)
	if err != nil || !info.Mode().IsRegular() || info.Size() > maxDiffedFile {
		return "", false
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return "", false
	}
	return string(data), true
}

func withNewline(s string) string {
	if s == "" || strings.HasSuffix(s, "\n") {
		return s
	}
	return s + "\n"
}

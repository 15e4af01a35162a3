package write

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/mini-claude/mini-claude/internal/patch"
	"github.com/mini-claude/mini-claude/internal/render"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools/fileaccess"
)

// How the UI draws a Write call: the path as the title; while it waits (and
// in the permission dialog) the change against the file on disk as a diff,
// or the whole content as added lines for a new file; once written, the
// output's patch for a replaced file, or the content as added lines for a
// new one. Each is condensed unless expanded.

func renderUse(in Input) string { return in.FilePath }

// maxDiffedFile is the largest existing file read to show a rewrite as a diff.
const maxDiffedFile = 8 << 20

func renderQueued(in Input, o tool.RenderOptions) tool.Text {
	if before, ok := current(in.FilePath); ok {
		hunks := patch.Compute(fileaccess.ConvertLineEndings(before, fileaccess.LF), in.Content)
		stat := render.DiffStat(hunks)
		head := tool.Line{{Text: "Overwrite: " + strings.ToLower(stat[:1]) + stat[1:], Style: tool.StyleDim}}
		return append(tool.Text{head}, render.Diff(in.FilePath, hunks, o)...)
	}
	return renderContent("Create with "+lineCount(in.Content), in.FilePath, in.Content, o)
}

func renderResult(_ Input, out Output, o tool.RenderOptions) tool.Text {
	if out.Type == KindUpdate {
		head := tool.Line{{Text: render.UpdateSummary(out.FilePath, out.StructuredPatch), Style: tool.StyleDim}}
		return append(tool.Text{head}, render.Diff(out.FilePath, out.StructuredPatch, o)...)
	}
	return renderContent("Wrote "+lineCount(out.Content)+" to "+out.FilePath, out.FilePath, out.Content, o)
}

// renderContent draws a new file's content as added lines under head.
func renderContent(head, path, content string, o tool.RenderOptions) tool.Text {
	line := tool.Line{{Text: head, Style: tool.StyleDim}}
	return append(tool.Text{line}, render.Diff(path, patch.Compute("", withNewline(content)), o)...)
}

func lineCount(content string) string {
	return render.Count(strings.Count(withNewline(content), "\n"), "line")
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

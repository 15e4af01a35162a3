package edit

import (
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/mini-claude/mini-claude/internal/patch"
	"github.com/mini-claude/mini-claude/internal/render"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools/fileaccess"
)

// How the UI draws an Edit call: the path as the title; while it waits, the
// change it would make to the file as a coloured diff; once applied, the
// output's patch under a summary. Each is condensed unless expanded.

func renderUse(in Input) string {
	if in.ReplaceAll {
		return in.FilePath + " · all occurrences"
	}
	return in.FilePath
}

// renderQueued is the diff shown while the call waits for approval: the
// change the edit would make to the file as it is now, with its context and
// line numbers, as the finished call will show it.
func renderQueued(in Input, o tool.RenderOptions) tool.Text {
	hunks := pendingChange(in)
	head := tool.Line{{Text: render.DiffStat(hunks), Style: tool.StyleDim}}
	return append(tool.Text{head}, render.Diff(in.FilePath, hunks, o)...)
}

// renderResult draws the change the edit made to the file.
func renderResult(_ Input, out Output, o tool.RenderOptions) tool.Text {
	head := tool.Line{{Text: render.UpdateSummary(out.FilePath, out.StructuredPatch), Style: tool.StyleDim}}
	return append(tool.Text{head}, render.Diff(out.FilePath, out.StructuredPatch, o)...)
}

// maxPreviewedFile is the largest file read to preview an edit in place.
const maxPreviewedFile = 8 << 20

// pendingChange is the patch the edit would make to the file as it is now;
// old_string against new_string when the file cannot be read, is too large
// or does not hold old_string (the call will then fail and say why).
func pendingChange(in Input) []patch.Hunk {
	if content, ok := previewable(in.FilePath); ok {
		if after, _, err := apply(in.FilePath, content, in, false); err == nil {
			return patch.Compute(fileaccess.ConvertLineEndings(content, fileaccess.LF), fileaccess.ConvertLineEndings(after, fileaccess.LF))
		}
	}
	return patch.Compute(withNewline(in.OldString), withNewline(in.NewString))
}

// previewable is the text of the regular file at the absolute path, when it
// is small enough to preview an edit in.
func previewable(path string) (string, bool) {
	if !filepath.IsAbs(path) {
		return "", false
	}
	info, err := os.Stat(path)
	if err != nil || !info.Mode().IsRegular() || info.Size() > maxPreviewedFile {
		return "", false
	}
	data, err := os.ReadFile(path)
	if err != nil || !utf8.Valid(data) {
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

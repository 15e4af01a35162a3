package read

import (
	"fmt"
	"strings"

	"github.com/mini-claude/mini-claude/internal/render"
	"github.com/mini-claude/mini-claude/internal/tool"
)

// How the UI draws a Read call: the path and the range as the title, how
// much was read as the condensed result, the numbered lines in full (not
// after a resume: the transcript does not keep them).

func renderUse(in Input) string {
	s := in.FilePath
	switch {
	case in.Pages != "":
		s += " · pages " + in.Pages
	case in.Offset != nil && in.Limit != nil:
		s += fmt.Sprintf(" · lines %d-%d", *in.Offset, *in.Offset+*in.Limit-1)
	case in.Offset != nil:
		s += fmt.Sprintf(" · from line %d", *in.Offset)
	case in.Limit != nil:
		s += fmt.Sprintf(" · first %d lines", *in.Limit)
	}
	return s
}

func renderResult(_ Input, out Output, o tool.RenderOptions) tool.Text {
	f := out.File
	var summary string
	switch out.Type {
	case KindImage:
		summary = "Read image"
		if d := f.Dimensions; d != nil {
			summary += fmt.Sprintf(" (%dx%d)", d.OriginalWidth, d.OriginalHeight)
		}
	case KindNotebook:
		summary = "Read " + render.Count(len(f.Cells), "cell")
	case KindPDF:
		summary = "Read " + render.Count(len(f.Pages), "page")
		if f.TotalPages > 0 {
			summary += fmt.Sprintf(" of %d", f.TotalPages)
		}
	default:
		summary = "Read " + render.Count(f.NumLines, "line")
		if f.TotalLines > f.NumLines {
			summary += fmt.Sprintf(" of %d", f.TotalLines)
		}
	}
	t := tool.Text{{{Text: summary}}}
	if o.Full && out.Type == KindText && f.NumLines > 0 && f.Content != "" {
		for i, line := range strings.Split(f.Content, "\n") {
			t = append(t, tool.Line{
				{Text: fmt.Sprintf("%5d ", f.StartLine+i), Style: tool.StyleLineNumber},
				{Text: strings.ReplaceAll(line, "\t", "    ")},
			})
		}
	}
	return render.ClipLines(t, o.Width)
}

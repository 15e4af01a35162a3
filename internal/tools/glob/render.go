package glob

import (
	"fmt"

	"github.com/mini-claude/mini-claude/internal/render"
	"github.com/mini-claude/mini-claude/internal/tool"
)

// How the UI draws a Glob call: the pattern and directory as the title, the
// number of files found as the condensed result, the paths in full.

func renderUse(in Input) string {
	if in.Path != "" {
		return fmt.Sprintf("pattern: %q, path: %q", in.Pattern, in.Path)
	}
	return fmt.Sprintf("pattern: %q", in.Pattern)
}

func renderResult(_ Input, out Output, o tool.RenderOptions) tool.Text {
	summary := "Found " + render.Count(out.NumFiles, "file")
	if out.Truncated {
		summary += fmt.Sprintf(" (the first %d of %d)", out.NumFiles, out.TotalMatches)
	}
	t := tool.Text{{{Text: summary}}}
	if o.Full {
		for _, name := range out.Filenames {
			t = append(t, tool.Line{{Text: "  " + name}})
		}
	}
	return render.ClipLines(t, o.Width)
}

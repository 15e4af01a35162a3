package grep

import (
	"fmt"
	"strings"

	"github.com/mini-claude/mini-claude/internal/render"
	"github.com/mini-claude/mini-claude/internal/tool"
)

// How the UI draws a Grep call: the pattern and where as the title, the
// counts as the condensed result, the files or lines found in full.

func renderUse(in Input) string {
	s := fmt.Sprintf("pattern: %q", in.Pattern)
	if in.Path != "" {
		s += fmt.Sprintf(", path: %q", in.Path)
	}
	if in.Glob != "" {
		s += fmt.Sprintf(", glob: %q", in.Glob)
	}
	if in.Type != "" {
		s += ", type: " + in.Type
	}
	if in.OutputMode != "" && in.OutputMode != "files_with_matches" {
		s += ", output_mode: " + in.OutputMode
	}
	return s
}

func renderResult(_ Input, out Output, o tool.RenderOptions) tool.Text {
	var summary string
	switch out.Mode {
	case "content":
		summary = "Found " + render.Count(out.NumLines, "line")
	case "count":
		summary = "Found " + render.Count(out.NumMatches, "match") + " in " + render.Count(out.NumFiles, "file")
	default:
		summary = "Found " + render.Count(out.NumFiles, "file")
	}
	t := tool.Text{{{Text: summary}}}
	if o.Full {
		body := out.Content
		if out.Mode != "content" && out.Mode != "count" {
			body = strings.Join(out.Filenames, "\n")
		}
		for _, line := range strings.Split(strings.TrimRight(body, "\n"), "\n") {
			if line != "" {
				t = append(t, tool.Line{{Text: "  " + strings.ReplaceAll(line, "\t", "    ")}})
			}
		}
	}
	return render.ClipLines(t, o.Width)
}

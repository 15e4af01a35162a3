package notebookedit

import (
	"strings"

	"github.com/mini-claude/mini-claude/internal/patch"
	"github.com/mini-claude/mini-claude/internal/render"
	"github.com/mini-claude/mini-claude/internal/tool"
)

// How the UI draws a NotebookEdit call: the notebook, the mode and the cell
// as the title, then the new source as added lines (nothing for a delete).

func renderUse(in Input) string {
	s := in.NotebookPath + " · " + mode(in)
	if in.CellID != "" {
		s += " " + in.CellID
	}
	if in.CellType != "" {
		s += " (" + in.CellType + ")"
	}
	return s
}

func renderChange(in Input, o tool.RenderOptions) tool.Text {
	if mode(in) == "delete" {
		return render.ClipLines(render.Styled("Delete cell "+in.CellID, tool.StyleRemoved), o.Width)
	}
	source := in.NewSource
	if source != "" && !strings.HasSuffix(source, "\n") {
		source += "\n"
	}
	return render.Diff("", patch.Compute("", source), o)
}

func renderQueued(in Input, o tool.RenderOptions) tool.Text { return renderChange(in, o) }

func renderResult(in Input, out string, o tool.RenderOptions) tool.Text {
	if mode(in) == "delete" {
		return render.ClipLines(render.Styled(out, tool.StyleDim), o.Width)
	}
	return renderChange(in, o)
}

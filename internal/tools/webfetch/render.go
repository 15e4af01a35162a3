package webfetch

import (
	"fmt"

	"github.com/mini-claude/mini-claude/internal/render"
	"github.com/mini-claude/mini-claude/internal/tool"
)

// How the UI draws a WebFetch call: the URL as the title, the size and
// status fetched as the condensed result, the answer in full.

func renderUse(in Input) string {
	if in.Offset != nil && *in.Offset > 0 {
		return fmt.Sprintf("%s, offset: %d", in.URL, *in.Offset)
	}
	return in.URL
}

func renderResult(_ Input, out Output, o tool.RenderOptions) tool.Text {
	t := tool.Text{{{Text: fmt.Sprintf("Received %s (%d %s)", size(out.Bytes), out.Code, out.CodeText)}}}
	if o.Full {
		t = append(t, render.Styled(out.Result, tool.StylePlain)...)
	}
	return render.ClipLines(t, o.Width)
}

// size writes a number of bytes the way people read it.
func size(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1fMB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1fKB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

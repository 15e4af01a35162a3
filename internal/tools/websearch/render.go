package websearch

import (
	"fmt"
	"strings"

	"github.com/mini-claude/mini-claude/internal/render"
	"github.com/mini-claude/mini-claude/internal/tool"
)

// How the UI draws a WebSearch call: the query and its domain lists as the
// title, the number of searches and hits as the condensed result, each hit
// and text in full.

func renderUse(in Input) string {
	s := fmt.Sprintf("%q", in.Query)
	if len(in.AllowedDomains) > 0 {
		s += ", only allowing domains: " + strings.Join(in.AllowedDomains, ", ")
	}
	if len(in.BlockedDomains) > 0 {
		s += ", blocking domains: " + strings.Join(in.BlockedDomains, ", ")
	}
	return s
}

func renderResult(_ Input, out Output, o tool.RenderOptions) tool.Text {
	hits := 0
	for _, r := range out.Results {
		if r.Links != nil {
			hits += len(r.Links.Content)
		}
	}
	searches := "1 search"
	if out.SearchCount != 1 {
		searches = fmt.Sprintf("%d searches", out.SearchCount)
	}
	t := tool.Text{{{Text: fmt.Sprintf("Did %s, found %s in %.1fs", searches, render.Count(hits, "result"), out.DurationSeconds)}}}
	if o.Full {
		for _, r := range out.Results {
			if r.Links == nil {
				t = append(t, render.Styled(r.Text, tool.StyleDim)...)
				continue
			}
			for _, h := range r.Links.Content {
				t = append(t, tool.Line{{Text: "  " + h.Title + " — " + h.URL}})
			}
		}
	}
	return render.ClipLines(t, o.Width)
}

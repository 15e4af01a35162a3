// Package render draws tools' calls for the user: the helpers the tools'
// render hooks and the terminal UI share (styled text, clipping, condensing,
// diffs in the file's syntax colours), and a call's renderer in each state
// (Of), a tool's own hooks with the generic rendering where it has none.
package render

import (
	"fmt"
	"strings"
	"time"

	"github.com/rivo/uniseg"

	"github.com/mini-claude/mini-claude/internal/tool"
)

// Styled returns text of one style, a line for each line of s.
func Styled(s string, style tool.Style) tool.Text {
	if s == "" {
		return nil
	}
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	out := make(tool.Text, len(lines))
	for i, l := range lines {
		out[i] = tool.Line{{Text: l, Style: style}}
	}
	return out
}

// Clip shortens s to at most width display columns, ending it with "…" when
// cut; width 0 leaves it whole. Tabs count as one column, so callers expand
// them first where alignment matters.
func Clip(s string, width int) string {
	if width <= 0 || uniseg.StringWidth(s) <= width {
		return s
	}
	var b strings.Builder
	used := 0
	g := uniseg.NewGraphemes(s)
	for g.Next() {
		w := g.Width()
		if used+w > width-1 {
			break
		}
		b.WriteString(g.Str())
		used += w
	}
	return b.String() + "…"
}

// Condense keeps the first n lines of text and adds a dim line telling how
// many more there are and that Ctrl-O shows them.
func Condense(t tool.Text, n int) tool.Text {
	if len(t) <= n {
		return t
	}
	out := append(tool.Text{}, t[:n]...)
	return append(out, tool.Line{{Text: fmt.Sprintf("… +%d lines (ctrl+o to expand)", len(t)-n), Style: tool.StyleDim}})
}

// ClipLines clips every span of every line so no line is wider than width.
func ClipLines(t tool.Text, width int) tool.Text {
	if width <= 0 {
		return t
	}
	out := make(tool.Text, len(t))
	for i, l := range t {
		out[i] = clipLine(l, width)
	}
	return out
}

func clipLine(l tool.Line, width int) tool.Line {
	var out tool.Line
	left := width
	for _, s := range l {
		w := uniseg.StringWidth(s.Text)
		if w <= left {
			out = append(out, s)
			left -= w
			continue
		}
		s.Text = Clip(s.Text, left)
		return append(out, s)
	}
	return out
}

// Elapsed formats a running time the way the UI shows it: "4s", "1m 05s".
func Elapsed(d time.Duration) string {
	s := int(d.Round(time.Second) / time.Second)
	if s < 60 {
		return fmt.Sprintf("%ds", s)
	}
	return fmt.Sprintf("%dm %02ds", s/60, s%60)
}

package tui

import (
	"regexp"
	"strings"
	"sync"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mini-claude/mini-claude/internal/render"
	"github.com/mini-claude/mini-claude/internal/tool"
)

// The UI's styles. Tool renderings name a tool.Style; spanStyles maps each to
// how it looks here.
var (
	dimStyle     = lipgloss.NewStyle().Foreground(lipgloss.Color("245"))
	errorStyle   = lipgloss.NewStyle().Foreground(lipgloss.Color("9"))
	okStyle      = lipgloss.NewStyle().Foreground(lipgloss.Color("10"))
	warnStyle    = lipgloss.NewStyle().Foreground(lipgloss.Color("11"))
	accentStyle  = lipgloss.NewStyle().Foreground(lipgloss.Color("174"))
	userStyle    = lipgloss.NewStyle().Foreground(lipgloss.Color("250"))
	boldStyle    = lipgloss.NewStyle().Bold(true)
	dialogBorder = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(lipgloss.Color("174")).Padding(0, 1)
	inputBorder  = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(lipgloss.Color("240"))
)

var spanStyles = map[tool.Style]lipgloss.Style{
	tool.StylePlain:      lipgloss.NewStyle(),
	tool.StyleDim:        dimStyle,
	tool.StyleBold:       boldStyle,
	tool.StyleAdded:      lipgloss.NewStyle().Foreground(lipgloss.Color("10")).Background(lipgloss.Color("22")),
	tool.StyleRemoved:    lipgloss.NewStyle().Foreground(lipgloss.Color("9")).Background(lipgloss.Color("52")),
	tool.StyleError:      errorStyle,
	tool.StyleWarning:    warnStyle,
	tool.StyleLineNumber: dimStyle,
}

// renderer draws blocks, with the session's tools' render hooks for tool calls.
type renderer struct {
	tools func(name string) tool.Tool
}

// styleText turns tool.Text into terminal lines.
func styleText(t tool.Text) []string {
	out := make([]string, len(t))
	for i, line := range t {
		var b strings.Builder
		for _, s := range line {
			st := spanStyles[s.Style]
			if s.Color != "" {
				st = st.Foreground(lipgloss.Color(s.Color))
			}
			b.WriteString(st.Render(s.Text))
		}
		out[i] = b.String()
	}
	return out
}

// block renders one block to lines no wider than width.
func (r *renderer) block(b *block, width int, full bool) []string {
	switch b.kind {
	case blockUser:
		return prefixed(wrap(b.text, width-2), userStyle.Render("> "), "  ", userStyle)
	case blockAssistant:
		if b.live {
			return prefixed(wrap(b.text, width-2), "● ", "  ", lipgloss.NewStyle())
		}
		return prefixed(renderMarkdown(b.text, width-2), "● ", "  ", lipgloss.NewStyle())
	case blockTool:
		return r.toolLines(b.call, width, full)
	case blockNotice:
		return prefixed(wrap(b.text, width-4), dimStyle.Render("  ⎿ "), "    ", dimStyle)
	case blockError:
		return prefixed(wrap(b.text, width-4), errorStyle.Render("  ⎿ "), "    ", errorStyle)
	case blockWarning:
		return prefixed(wrap(b.text, width-4), warnStyle.Render("  ⎿ "), "    ", warnStyle)
	case blockShell:
		return r.shellLines(b, width, full)
	case blockInfo:
		return prefixed(wrap(b.body, width-2), "  ", "  ", lipgloss.NewStyle())
	case blockCompact:
		return compactLines(b, width, full)
	}
	return nil
}

// compactLines draws a compaction: the line saying it happened and, in full,
// the summary the conversation goes on from, as markdown.
func compactLines(b *block, width int, full bool) []string {
	hint := " · ctrl+o for the summary"
	if full {
		hint = " · ctrl+o to hide the summary"
	}
	lines := prefixed(wrap(b.text+hint, width-2), "  ", "  ", dimStyle)
	if !full {
		return lines
	}
	return append(lines, prefixed(renderMarkdown(summaryMarkdown(b.body), width-5), dimStyle.Render("  ⎿  "), "     ", lipgloss.NewStyle())...)
}

// sectionTag is a line that opens or closes a tagged section of a
// compaction's message, such as "<summary>" or "</files-read>".
var sectionTag = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^</?([a-z][a-z-]*)>$`) })

// summaryMarkdown prepares a compaction's message for the markdown renderer:
// its tagged sections become headings, since markdown inside an HTML block is
// not rendered, and its line breaks are kept, since the lists of files and
// todos it carries are one item a line.
func summaryMarkdown(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		switch tag := sectionTag().FindStringSubmatch(l); {
		case tag != nil && l[1] == '/':
			lines[i] = ""
		case tag != nil:
			lines[i] = "#### " + tag[1]
		case strings.TrimSpace(l) != "":
			lines[i] = l + "  "
		}
	}
	return strings.Join(lines, "\n")
}

// prefixed puts first before the first line and rest before the others,
// styling each line.
func prefixed(lines []string, first, rest string, st lipgloss.Style) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		p := rest
		if i == 0 {
			p = first
		}
		out[i] = p + st.Render(l)
	}
	return out
}

func wrap(s string, width int) []string {
	s = strings.ReplaceAll(strings.TrimRight(s, "\n"), "\t", "    ")
	return strings.Split(ansi.Wrap(s, max(10, width), " -"), "\n")
}

// toolLines draws a call: a title with the tool's name and argument summary,
// then its state's rendering from the tool's hooks, indented under "⎿".
func (r *renderer) toolLines(c *toolCall, width int, full bool) []string {
	var rend render.Renderer = render.Generic()
	if t := r.tools(c.name); t != nil {
		rend = render.Of(t)
	}
	bullet := dimStyle.Render("●")
	switch c.state {
	case toolDone:
		bullet = okStyle.Render("●")
	case toolFailed, toolRejected, toolInterrupted:
		bullet = errorStyle.Render("●")
	}
	use := rend.RenderUse(c.input, c.state == toolStreaming)
	title := bullet + " " + boldStyle.Render(c.name)
	if use != "" {
		title += "(" + render.Clip(use, max(10, width-len(c.name)-4)) + ")"
	}
	o := tool.RenderOptions{Width: max(10, width-5), Full: full}
	var body tool.Text
	switch c.state {
	case toolQueued:
		if c.queuedFor == nil || *c.queuedFor != o {
			c.queued, c.queuedFor = rend.RenderQueued(c.input, o), &o
		}
		body = c.queued
	case toolRunning:
		ev := tool.ProgressEvent{}
		if c.progress != nil {
			ev = *c.progress
		}
		body = rend.RenderProgress(c.input, ev, time.Since(c.started), o)
	case toolDone:
		body = rend.RenderResult(c.input, c.output, o)
	case toolFailed:
		body = rend.RenderError(c.input, c.message, o)
	case toolRejected:
		if c.byHook {
			body = hookRefusal(c.message, o.Width)
			break
		}
		body = rend.RenderRejected(c.input, o)
		if c.message != "" {
			body = append(body, render.ClipLines(render.Styled(c.message, tool.StyleDim), o.Width)...)
		}
	case toolInterrupted:
		body = render.Styled("Interrupted by the user", tool.StyleError)
	}
	if c.sub != nil {
		body = r.subAgentBody(c, body, o)
	}
	lines := []string{title}
	for i, l := range styleText(body) {
		prefix := "     "
		if i == 0 {
			prefix = dimStyle.Render("  ⎿  ")
		}
		lines = append(lines, prefix+l)
	}
	return lines
}

// shellLines draws a "!command" and its output, condensed unless full.
func (r *renderer) shellLines(b *block, width int, full bool) []string {
	lines := []string{accentStyle.Render("! ") + b.text}
	style := tool.StylePlain
	if b.failed {
		style = tool.StyleError
	}
	out := render.Styled(b.body, style)
	if len(out) == 0 {
		out = render.Styled("(No output)", tool.StyleDim)
	}
	if !full {
		out = render.Condense(out, 10)
	}
	for i, l := range styleText(render.ClipLines(out, width-5)) {
		prefix := "     "
		if i == 0 {
			prefix = dimStyle.Render("  ⎿  ")
		}
		lines = append(lines, prefix+l)
	}
	return lines
}

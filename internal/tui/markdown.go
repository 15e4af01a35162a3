package tui

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"

	"github.com/mini-claude/mini-claude/internal/highlight"
	"github.com/mini-claude/mini-claude/internal/render"
	"github.com/mini-claude/mini-claude/internal/tool"
)

// Markdown is drawn from goldmark's syntax tree (the parser glamour uses) with
// lipgloss styles, and code blocks are coloured by internal/highlight, rather
// than with glamour: glamour links chroma's lexers and styles packages, whose
// initialisation takes 14 ms and 4.7 MB of allocations at every start of the
// binary, headless runs included, and adds 5 MB to it.

var (
	headingStyle = lipgloss.NewStyle().Bold(true)
	codeStyle    = lipgloss.NewStyle().Foreground(lipgloss.Color("152"))
	linkStyle    = lipgloss.NewStyle().Underline(true).Foreground(lipgloss.Color("117"))
	quoteStyle   = lipgloss.NewStyle().Foreground(lipgloss.Color("245")).Italic(true)
)

// renderMarkdown draws src as terminal lines no wider than width, its code
// blocks in syntax colour. A message still streaming is drawn as plain
// wrapped text, so this runs once it is finished.
func renderMarkdown(src string, width int) []string {
	source := []byte(src)
	doc := goldmark.DefaultParser().Parse(text.NewReader(source))
	w := &mdWriter{src: source}
	lines := w.blocks(doc, max(10, width))
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) == 0 {
		return []string{""}
	}
	return lines
}

type mdWriter struct{ src []byte }

// blocks draws the block children of n, a blank line between them.
func (w *mdWriter) blocks(n ast.Node, width int) []string {
	var out []string
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		out = append(out, w.block(c, width)...)
		if !tightItem(c) {
			out = append(out, "")
		}
	}
	return out
}

// tightItem reports whether c is a paragraph of a tight list, which takes no
// blank line after it.
func tightItem(c ast.Node) bool {
	_, isText := c.(*ast.TextBlock)
	return isText || (c.Parent() != nil && c.Parent().Kind() == ast.KindListItem && c.NextSibling() == nil)
}

func (w *mdWriter) block(n ast.Node, width int) []string {
	switch n := n.(type) {
	case *ast.Heading:
		return wrapStyled(headingStyle.Render(w.inline(n)), width)
	case *ast.Paragraph, *ast.TextBlock:
		return wrapStyled(w.inline(n), width)
	case *ast.List:
		return w.list(n, width)
	case *ast.FencedCodeBlock, *ast.CodeBlock:
		return w.code(n, width)
	case *ast.Blockquote:
		inner := w.blocks(n, width-2)
		for len(inner) > 0 && inner[len(inner)-1] == "" {
			inner = inner[:len(inner)-1]
		}
		for i, l := range inner {
			inner[i] = quoteStyle.Render("│ ") + quoteStyle.Render(ansi.Strip(l))
		}
		return inner
	case *ast.ThematicBreak:
		return []string{dimStyle.Render(strings.Repeat("─", min(width, 40)))}
	case *ast.HTMLBlock:
		return w.rawLines(n.Lines(), width)
	}
	return wrapStyled(w.inline(n), width)
}

func (w *mdWriter) list(n *ast.List, width int) []string {
	var out []string
	number := n.Start
	for item := n.FirstChild(); item != nil; item = item.NextSibling() {
		marker := "• "
		if n.IsOrdered() {
			marker = fmt.Sprintf("%d. ", number)
			number++
		}
		pad := strings.Repeat(" ", len(marker))
		inner := w.blocks(item, width-len(marker))
		for len(inner) > 0 && inner[len(inner)-1] == "" {
			inner = inner[:len(inner)-1]
		}
		for i, l := range inner {
			if i == 0 {
				out = append(out, marker+l)
			} else {
				out = append(out, pad+l)
			}
		}
		if !n.IsTight {
			out = append(out, "")
		}
	}
	return out
}

func (w *mdWriter) code(n ast.Node, width int) []string {
	lines := n.Lines()
	var src strings.Builder
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		src.Write(seg.Value(w.src))
	}
	var colours [][]highlight.Segment
	if src.Len() == 0 {
		return nil
	}
	if fenced, ok := n.(*ast.FencedCodeBlock); ok {
		colours = highlight.Language(string(fenced.Language(w.src)), src.String())
	}
	out := make([]string, 0, lines.Len())
	for i, line := range strings.Split(strings.TrimSuffix(src.String(), "\n"), "\n") {
		segments := []highlight.Segment{{Text: line}}
		if i < len(colours) && len(colours[i]) > 0 {
			segments = colours[i]
		}
		var spans tool.Line
		for _, s := range segments {
			spans = append(spans, tool.Span{Text: strings.ReplaceAll(s.Text, "\t", "    "), Color: s.Color})
		}
		var b strings.Builder
		b.WriteString("  ")
		for _, s := range render.ClipLines(tool.Text{spans}, width-2)[0] {
			st := codeStyle
			if s.Color != "" {
				st = st.Foreground(lipgloss.Color(s.Color))
			}
			b.WriteString(st.Render(s.Text))
		}
		out = append(out, b.String())
	}
	return out
}

func (w *mdWriter) rawLines(lines *text.Segments, width int) []string {
	var out []string
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		out = append(out, render.Clip(strings.TrimRight(string(seg.Value(w.src)), "\n"), width))
	}
	return out
}

// inline draws the inline children of n as one styled string; hard line
// breaks stay as newlines.
func (w *mdWriter) inline(n ast.Node) string {
	var b strings.Builder
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Text:
			b.Write(c.Segment.Value(w.src))
			switch {
			case c.HardLineBreak():
				b.WriteByte('\n')
			case c.SoftLineBreak():
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(c.Value)
		case *ast.CodeSpan:
			b.WriteString(codeStyle.Render(plainInline(c, w.src)))
		case *ast.Emphasis:
			st := lipgloss.NewStyle().Italic(true)
			if c.Level >= 2 {
				st = lipgloss.NewStyle().Bold(true)
			}
			b.WriteString(st.Render(plainInline(c, w.src)))
		case *ast.Link:
			label := plainInline(c, w.src)
			b.WriteString(linkStyle.Render(label))
			if url := string(c.Destination); url != label {
				b.WriteString(dimStyle.Render(" (" + url + ")"))
			}
		case *ast.AutoLink:
			b.WriteString(linkStyle.Render(string(c.URL(w.src))))
		case *ast.RawHTML:
			for i := 0; i < c.Segments.Len(); i++ {
				seg := c.Segments.At(i)
				b.Write(seg.Value(w.src))
			}
		default:
			b.WriteString(w.inline(c))
		}
	}
	return b.String()
}

// plainInline is the text of an inline node without styles, for spans
// styled as a whole.
func plainInline(n ast.Node, src []byte) string {
	var b strings.Builder
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Text:
			b.Write(c.Segment.Value(src))
			if c.SoftLineBreak() || c.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(c.Value)
		default:
			b.WriteString(plainInline(c, src))
		}
	}
	return b.String()
}

func wrapStyled(s string, width int) []string {
	return strings.Split(ansi.Wrap(s, max(10, width), " -"), "\n")
}

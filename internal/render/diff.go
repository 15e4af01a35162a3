package render

import (
	"fmt"
	"strings"

	"github.com/mini-claude/mini-claude/internal/highlight"
	"github.com/mini-claude/mini-claude/internal/patch"
	"github.com/mini-claude/mini-claude/internal/tool"
)

// diffCondensedLines is how many lines of a diff a condensed rendering shows.
const diffCondensedLines = 12

// Diff renders hunks of a change to the file at path as a unified diff with
// line numbers, removed lines in tool.StyleRemoved and added ones in tool.StyleAdded,
// their text in the syntax colours of the file's language. Condensed unless
// o.Full.
func Diff(path string, hunks []patch.Hunk, o tool.RenderOptions) tool.Text {
	if len(hunks) == 0 {
		return Styled("(No changes)", tool.StyleDim)
	}
	var t tool.Text
	for i, h := range hunks {
		if !o.Full && len(t) >= diffCondensedLines {
			// The condensed rendering shows none of the later hunks' lines,
			// so they are only counted, neither coloured nor drawn.
			t = append(t, make(tool.Text, 1+shownLines(h))...)
			continue
		}
		if i > 0 {
			t = append(t, tool.Line{{Text: "   ⋮", Style: tool.StyleDim}})
		}
		room := len(h.Lines)
		if !o.Full {
			room = diffCondensedLines - len(t)
		}
		oldSide, newSide := hunkColours(path, h, room)
		oldNo, newNo := h.OldStart, h.NewStart
		var oldAt, newAt int
		for _, l := range h.Lines {
			if l == patch.NoNewline || l == "" {
				continue
			}
			if !o.Full && len(t) >= diffCondensedLines {
				t = append(t, nil) // counted, not drawn
				continue
			}
			text := strings.TrimSuffix(l[1:], "\r")
			switch l[0] {
			case '-':
				t = append(t, diffLine(oldNo, "-", text, tool.StyleRemoved, segmentsAt(oldSide, oldAt)))
				oldNo++
				oldAt++
			case '+':
				t = append(t, diffLine(newNo, "+", text, tool.StyleAdded, segmentsAt(newSide, newAt)))
				newNo++
				newAt++
			default:
				t = append(t, diffLine(newNo, " ", text, tool.StylePlain, segmentsAt(newSide, newAt)))
				oldNo++
				newNo++
				oldAt++
				newAt++
			}
		}
	}
	if !o.Full {
		t = Condense(t, diffCondensedLines)
	}
	return ClipLines(t, o.Width)
}

// shownLines is how many lines Diff draws for a hunk.
func shownLines(h patch.Hunk) int {
	n := 0
	for _, l := range h.Lines {
		if l != patch.NoNewline && l != "" {
			n++
		}
	}
	return n
}

// hunkColours colours the two sides of a hunk's first lines lines, each
// lexed as one piece of source: the lines before the change (context and
// removed) and after it (context and added). A nil side is drawn without
// syntax colour.
func hunkColours(path string, h patch.Hunk, lines int) (oldSide, newSide [][]highlight.Segment) {
	var before, after strings.Builder
	for _, l := range h.Lines[:min(lines, len(h.Lines))] {
		if l == patch.NoNewline || l == "" {
			continue
		}
		text := strings.TrimSuffix(l[1:], "\r") + "\n"
		if l[0] != '+' {
			before.WriteString(text)
		}
		if l[0] != '-' {
			after.WriteString(text)
		}
	}
	return highlight.File(path, before.String()), highlight.File(path, after.String())
}

func segmentsAt(side [][]highlight.Segment, i int) []highlight.Segment {
	if i < len(side) {
		return side[i]
	}
	return nil
}

func expandTabs(s string) string { return strings.ReplaceAll(s, "\t", "    ") }

// diffLine draws one line of a diff: its number, its mark and its text, in
// the syntax colours of segments when they spell the same text.
func diffLine(no int, mark, text string, style tool.Style, segments []highlight.Segment) tool.Line {
	line := tool.Line{{Text: fmt.Sprintf("%5d ", no), Style: tool.StyleLineNumber}, {Text: mark + " ", Style: style}}
	var coloured strings.Builder
	for _, s := range segments {
		coloured.WriteString(s.Text)
	}
	if len(segments) == 0 || coloured.String() != text {
		return append(line, tool.Span{Text: expandTabs(text), Style: style})
	}
	for _, s := range segments {
		line = append(line, tool.Span{Text: expandTabs(s.Text), Style: style, Color: s.Color})
	}
	return line
}

// DiffStat summarises hunks as "Added 3 lines, removed 1 line".
func DiffStat(hunks []patch.Hunk) string {
	added, removed := patch.Count(hunks)
	var parts []string
	if added > 0 {
		parts = append(parts, "added "+Count(added, "line"))
	}
	if removed > 0 {
		parts = append(parts, "removed "+Count(removed, "line"))
	}
	if len(parts) == 0 {
		return "No changes"
	}
	s := strings.Join(parts, ", ")
	return strings.ToUpper(s[:1]) + s[1:]
}

// UpdateSummary is the line over a finished change to the file at path, as
// Claude Code words it: "Updated <path> with 2 additions and 1 removal".
func UpdateSummary(path string, hunks []patch.Hunk) string {
	added, removed := patch.Count(hunks)
	var parts []string
	if added > 0 {
		parts = append(parts, Count(added, "addition"))
	}
	if removed > 0 {
		parts = append(parts, Count(removed, "removal"))
	}
	if len(parts) == 0 {
		return "Updated " + path + " with no changes"
	}
	return "Updated " + path + " with " + strings.Join(parts, " and ")
}

// Count formats n with a noun, plural when n is not 1: "1 line", "3 lines".
func Count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

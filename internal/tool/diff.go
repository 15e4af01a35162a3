package tool

import (
	"fmt"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/mini-claude/mini-claude/internal/highlight"
)

// diffContext is how many unchanged lines surround each change in a diff.
const diffContext = 3

// diffCondensedLines is how many lines of a diff a condensed rendering shows.
const diffCondensedLines = 12

// Diff renders the change from before to after in the file at path as a
// unified diff with line numbers, removed lines in StyleRemoved and added ones
// in StyleAdded, their text coloured for the file's language; the first line
// number is firstLine (1 for a whole file). Condensed unless o.Full.
func Diff(path, before, after string, firstLine int, o RenderOptions) Text {
	edits := udiff.Lines(before, after)
	if len(edits) == 0 {
		return Styled("(No changes)", StyleDim)
	}
	u, err := udiff.ToUnifiedDiff("a", "b", before, edits, diffContext)
	if err != nil {
		return Styled("(The change could not be shown: "+err.Error()+")", StyleDim)
	}
	var t Text
	shift := 0
	for i, h := range u.Hunks {
		if !o.Full && len(t) >= diffCondensedLines {
			// The condensed rendering shows none of the later hunks' lines,
			// so they are neither coloured nor drawn; only counted.
			t = append(t, make(Text, len(h.Lines)+1)...)
			continue
		}
		if i > 0 {
			t = append(t, Line{{Text: "   ⋮", Style: StyleDim}})
		}
		oldSide, newSide := hunkColours(path, h)
		oldNo := h.FromLine + firstLine - 1
		newNo := oldNo + shift
		var oldAt, newAt int
		for _, l := range h.Lines {
			text := expandTabs(strings.TrimSuffix(l.Content, "\n"))
			switch l.Kind {
			case udiff.Delete:
				t = append(t, diffLine(oldNo, "-", text, StyleRemoved, segmentsAt(oldSide, oldAt)))
				oldNo++
				oldAt++
				shift--
			case udiff.Insert:
				t = append(t, diffLine(newNo, "+", text, StyleAdded, segmentsAt(newSide, newAt)))
				newNo++
				newAt++
				shift++
			default:
				t = append(t, diffLine(newNo, " ", text, StylePlain, segmentsAt(newSide, newAt)))
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

// hunkColours colours the two sides of a hunk, each lexed as one piece of
// source: the lines before the change (context and removed) and after it
// (context and added). Nil sides are drawn without syntax colour.
func hunkColours(path string, h *udiff.Hunk) (oldSide, newSide [][]highlight.Segment) {
	var before, after strings.Builder
	for _, l := range h.Lines {
		if l.Kind != udiff.Insert {
			before.WriteString(l.Content)
		}
		if l.Kind != udiff.Delete {
			after.WriteString(l.Content)
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
func diffLine(no int, mark, text string, style Style, segments []highlight.Segment) Line {
	line := Line{{Text: fmt.Sprintf("%5d ", no), Style: StyleLineNumber}, {Text: mark + " ", Style: style}}
	var coloured strings.Builder
	for _, s := range segments {
		coloured.WriteString(expandTabs(s.Text))
	}
	if len(segments) == 0 || coloured.String() != text {
		return append(line, Span{Text: text, Style: style})
	}
	for _, s := range segments {
		line = append(line, Span{Text: expandTabs(s.Text), Style: style, Color: s.Color})
	}
	return line
}

// DiffStat summarises a change as "Added 3 lines, removed 1 line".
func DiffStat(before, after string) string {
	added, removed := 0, 0
	for _, e := range udiff.Lines(before, after) {
		removed += strings.Count(before[e.Start:e.End], "\n")
		if e.End > e.Start && !strings.HasSuffix(before[e.Start:e.End], "\n") {
			removed++
		}
		added += strings.Count(e.New, "\n")
		if e.New != "" && !strings.HasSuffix(e.New, "\n") {
			added++
		}
	}
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

// Count formats n with a noun, plural when n is not 1: "1 line", "3 lines".
func Count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

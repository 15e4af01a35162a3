package tool

import (
	"fmt"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"
)

// diffContext is how many unchanged lines surround each change in a diff.
const diffContext = 3

// diffCondensedLines is how many lines of a diff a condensed rendering shows.
const diffCondensedLines = 12

// Diff renders the change from before to after as a unified diff with line
// numbers, removed lines in StyleRemoved and added ones in StyleAdded; the
// first line number is firstLine (1 for a whole file). Condensed unless o.Full.
func Diff(before, after string, firstLine int, o RenderOptions) Text {
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
		if i > 0 {
			t = append(t, Line{{Text: "   ⋮", Style: StyleDim}})
		}
		oldNo := h.FromLine + firstLine - 1
		newNo := oldNo + shift
		for _, l := range h.Lines {
			text := strings.ReplaceAll(strings.TrimSuffix(l.Content, "\n"), "\t", "    ")
			switch l.Kind {
			case udiff.Delete:
				t = append(t, diffLine(oldNo, "-", text, StyleRemoved))
				oldNo++
				shift--
			case udiff.Insert:
				t = append(t, diffLine(newNo, "+", text, StyleAdded))
				newNo++
				shift++
			default:
				t = append(t, diffLine(newNo, " ", text, StylePlain))
				oldNo++
				newNo++
			}
		}
	}
	if !o.Full {
		t = Condense(t, diffCondensedLines)
	}
	return ClipLines(t, o.Width)
}

func diffLine(no int, mark, text string, style Style) Line {
	return Line{{Text: fmt.Sprintf("%5d ", no), Style: StyleLineNumber}, {Text: mark + " " + text, Style: style}}
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

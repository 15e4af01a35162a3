package tool

import (
	"fmt"
	"strings"

	"github.com/mini-claude/mini-claude/internal/patch"
)

// diffCondensedLines is how many lines of a diff a condensed rendering shows.
const diffCondensedLines = 12

// Diff renders hunks as a unified diff with line numbers, removed lines in
// StyleRemoved and added ones in StyleAdded. Condensed unless o.Full.
func Diff(hunks []patch.Hunk, o RenderOptions) Text {
	if len(hunks) == 0 {
		return Styled("(No changes)", StyleDim)
	}
	var t Text
	for i, h := range hunks {
		if i > 0 {
			t = append(t, Line{{Text: "   ⋮", Style: StyleDim}})
		}
		oldNo, newNo := h.OldStart, h.NewStart
		for _, l := range h.Lines {
			if l == patch.NoNewline || l == "" {
				continue
			}
			text := strings.ReplaceAll(strings.TrimSuffix(l[1:], "\r"), "\t", "    ")
			switch l[0] {
			case '-':
				t = append(t, diffLine(oldNo, "-", text, StyleRemoved))
				oldNo++
			case '+':
				t = append(t, diffLine(newNo, "+", text, StyleAdded))
				newNo++
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

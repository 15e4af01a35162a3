// Package patch computes the structured patch of a change to a text: its
// hunks, with three lines of context, in the shape Claude Code reports for
// Write and Edit and draws as a diff.
package patch

import (
	"strings"

	"github.com/aymanbagabas/go-udiff/lcs"
)

// Context is how many unchanged lines surround each change in a hunk.
const Context = 3

// NoNewline follows, as a line of its own, a hunk line that ends the file
// without a line break.
const NoNewline = `\ No newline at end of file`

// Hunk is one run of changes with its context. Each of Lines is a line of
// the text after a mark: ' ' unchanged, '-' removed, '+' added; or it is
// NoNewline. Starts count from 1.
type Hunk struct {
	OldStart int      `json:"oldStart"`
	OldLines int      `json:"oldLines"`
	NewStart int      `json:"newStart"`
	NewLines int      `json:"newLines"`
	Lines    []string `json:"lines"`
}

// Compute returns the hunks that turn before into after, an empty list when
// they are equal. As in Claude Code, leading tabs are shown as two spaces
// each, and a change that could sit at several places sits at the last.
func Compute(before, after string) []Hunk {
	if h, ok := differing(before, after).hunks(); ok {
		return h
	}
	h, _ := region{before: before, after: after}.hunks()
	return h
}

// hunks diffs the region. It reports false when a change sits within
// Context lines of a part cut off the texts (the diff placed it, or slid
// it, past where the texts first or last differ): the text cut off gives
// it context and might have let it slide further, so the caller diffs the
// whole texts instead.
func (r region) hunks() ([]Hunk, bool) {
	a, b := lines(r.before), lines(r.after)
	diffs := settle(a, b, lcs.DiffLines(a, b))
	if len(diffs) == 0 {
		return hunks(a, b, diffs, r.line), true
	}
	first, last := diffs[0], diffs[len(diffs)-1]
	if r.line > 0 && min(first.Start, first.ReplStart) < Context ||
		r.cut && (last.End > len(a)-Context || last.ReplEnd > len(b)-Context) {
		return nil, false
	}
	return hunks(a, b, diffs, r.line), true
}

// Count returns how many lines the hunks add and remove.
func Count(hunks []Hunk) (added, removed int) {
	for _, h := range hunks {
		for _, l := range h.Lines {
			switch {
			case l == NoNewline:
			case strings.HasPrefix(l, "+"):
				added++
			case strings.HasPrefix(l, "-"):
				removed++
			}
		}
	}
	return added, removed
}

// region is the part of two texts that holds their differences and Context
// lines around them; line is the number of lines before it, and cut says
// that lines after it were left out.
type region struct {
	before, after string
	line          int
	cut           bool
}

// differing cuts the common beginning and end off two texts, at line
// boundaries and keeping Context lines of each, so a small change to a large
// file is diffed on a few lines.
func differing(before, after string) region {
	n := min(len(before), len(after))
	p := 0
	for p < n && before[p] == after[p] {
		p++
	}
	start := strings.LastIndexByte(before[:p], '\n') + 1
	s := 0
	for s < n-start && before[len(before)-1-s] == after[len(after)-1-s] {
		s++
	}
	endA, endB := len(before)-s, len(after)-s
	if !lineStart(before, endA) || !lineStart(after, endB) {
		next := len(before) - endA
		if i := strings.IndexByte(before[endA:], '\n'); i >= 0 {
			next = i + 1
		}
		endA, endB = endA+next, endB+next
	}
	for range Context {
		if start == 0 {
			break
		}
		start = strings.LastIndexByte(before[:start-1], '\n') + 1
	}
	extra := 0
	for range Context {
		i := strings.IndexByte(before[endA+extra:], '\n')
		if i < 0 {
			extra = len(before) - endA
			break
		}
		extra += i + 1
	}
	return region{before: before[start : endA+extra], after: after[start : endB+extra], line: strings.Count(before[:start], "\n"),
		cut: endA+extra < len(before)}
}

func lineStart(s string, i int) bool { return i == 0 || s[i-1] == '\n' }

// lines splits s after each line break, with leading tabs made two spaces.
func lines(s string) []string {
	var out []string
	for len(s) > 0 {
		i := strings.IndexByte(s, '\n') + 1
		if i == 0 {
			i = len(s)
		}
		out = append(out, untab(s[:i]))
		s = s[i:]
	}
	return out
}

func untab(line string) string {
	n := 0
	for n < len(line) && line[n] == '\t' {
		n++
	}
	if n == 0 {
		return line
	}
	return strings.Repeat("  ", n) + line[n:]
}

// settle moves each pure insertion or deletion as far down as the lines
// around it allow, where Claude Code places it, and joins changes that then
// touch.
func settle(a, b []string, diffs []lcs.Diff) []lcs.Diff {
	var out []lcs.Diff
	for i, d := range diffs {
		next := len(a)
		if i+1 < len(diffs) {
			next = diffs[i+1].Start
		}
		switch {
		case d.Start == d.End:
			for d.End < next && d.ReplEnd < len(b) && b[d.ReplStart] == b[d.ReplEnd] {
				d = lcs.Diff{Start: d.Start + 1, End: d.End + 1, ReplStart: d.ReplStart + 1, ReplEnd: d.ReplEnd + 1}
			}
		case d.ReplStart == d.ReplEnd:
			for d.End < next && a[d.Start] == a[d.End] {
				d = lcs.Diff{Start: d.Start + 1, End: d.End + 1, ReplStart: d.ReplStart + 1, ReplEnd: d.ReplEnd + 1}
			}
		}
		if k := len(out) - 1; k >= 0 && out[k].End == d.Start {
			out[k].End, out[k].ReplEnd = d.End, d.ReplEnd
			continue
		}
		out = append(out, d)
	}
	return out
}

// hunks groups changes less than 2*Context lines apart into hunks; offset
// is the number of lines before a and b.
func hunks(a, b []string, diffs []lcs.Diff, offset int) []Hunk {
	out := []Hunk{}
	for i := 0; i < len(diffs); {
		j := i + 1
		for j < len(diffs) && diffs[j].Start-diffs[j-1].End <= 2*Context {
			j++
		}
		out = append(out, hunk(a, b, diffs[i:j], offset))
		i = j
	}
	return out
}

func hunk(a, b []string, diffs []lcs.Diff, offset int) Hunk {
	first, last := diffs[0], diffs[len(diffs)-1]
	lead := min(Context, first.Start)
	h := Hunk{OldStart: offset + first.Start - lead + 1, NewStart: offset + first.ReplStart - lead + 1}
	add := func(mark, line string) {
		h.Lines = append(h.Lines, mark+strings.TrimSuffix(line, "\n"))
		if !strings.HasSuffix(line, "\n") {
			h.Lines = append(h.Lines, NoNewline)
		}
		if mark != "+" {
			h.OldLines++
		}
		if mark != "-" {
			h.NewLines++
		}
	}
	at := first.Start - lead
	for _, d := range diffs {
		for ; at < d.Start; at++ {
			add(" ", a[at])
		}
		for _, l := range a[d.Start:d.End] {
			add("-", l)
		}
		for _, l := range b[d.ReplStart:d.ReplEnd] {
			add("+", l)
		}
		at = d.End
	}
	for end := min(len(a), last.End+Context); at < end; at++ {
		add(" ", a[at])
	}
	return h
}

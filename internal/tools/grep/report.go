package grep

import (
	"bytes"
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// maxLineLength is the longest line Claude Code shows; longer ones are elided.
const maxLineLength = 500

// Output is the result of a search, in the shape Claude Code reports it.
type Output struct {
	Mode          string   `json:"mode"`
	NumFiles      int      `json:"numFiles"`
	Filenames     []string `json:"filenames"`
	Content       string   `json:"content,omitempty"`
	NumLines      int      `json:"numLines,omitempty"`
	NumMatches    int      `json:"numMatches,omitempty"`
	TotalFiles    int      `json:"totalFiles,omitempty"`
	TotalLines    int      `json:"totalLines,omitempty"`
	AppliedLimit  *int     `json:"appliedLimit,omitempty"`
	AppliedOffset *int     `json:"appliedOffset,omitempty"`
}

// page is head_limit and offset: limit 0 means no limit.
type page struct {
	limit, offset int
}

// end is the index one past the last entry shown.
func (p page) end() int {
	if p.limit == 0 {
		return math.MaxInt
	}
	return p.offset + p.limit
}

// cut returns the entries on the page and, when entries beyond it were left
// out, the limit that left them out.
func cut[T any](items []T, p page) ([]T, *int) {
	if p.offset >= len(items) {
		return nil, nil
	}
	rest := items[p.offset:]
	if p.limit == 0 || len(rest) <= p.limit {
		return rest, nil
	}
	return rest[:p.limit], &p.limit
}

func (p page) appliedOffset() *int {
	if p.offset > 0 {
		return &p.offset
	}
	return nil
}

// describe is Claude Code's pagination note, such as "limit: 20, offset: 40".
func describe(limit, offset *int) string {
	var parts []string
	if limit != nil {
		parts = append(parts, "limit: "+strconv.Itoa(*limit))
	}
	if offset != nil {
		parts = append(parts, "offset: "+strconv.Itoa(*offset))
	}
	return strings.Join(parts, ", ")
}

// reportFiles lists the matching files newest first, files of the same age in
// localeCompare order, as Claude Code does. Only the files of the same age
// as one on the page need the collation order, and only the files on the
// page need their display path: paths share their prefix, so the order of
// the paths relative to the search root is the order of the displayed ones.
func reportFiles(files []fileResult, q *query) Output {
	slices.SortFunc(files, func(a, b fileResult) int { return cmp.Compare(b.modTime, a.modTime) })
	end := min(q.page.end(), len(files))
	for start := 0; start < end; {
		stop := start + 1
		for stop < len(files) && files[stop].modTime == files[start].modTime {
			stop++
		}
		if stop > q.page.offset && stop-start > 1 {
			sortByCollation(files[start:stop], func(f fileResult) string { return decodeUTF8([]byte(f.path)) })
		}
		start = stop
	}
	shown, limit := cut(files, q.page)
	out := Output{Mode: modeFiles, Filenames: []string{}, TotalFiles: len(files), AppliedLimit: limit, AppliedOffset: q.page.appliedOffset()}
	for _, f := range shown {
		out.Filenames = append(out.Filenames, q.display(f.path))
	}
	out.NumFiles = len(out.Filenames)
	return out
}

// reportCount lists "path:count" in path order, with the totals of all files.
func reportCount(files []fileResult, q *query) Output {
	slices.SortFunc(files, func(a, b fileResult) int { return compareUTF16(a.path, b.path) })
	out := Output{Mode: modeCount, Filenames: []string{}, AppliedOffset: q.page.appliedOffset()}
	for _, f := range files {
		out.NumMatches += f.count
	}
	out.NumFiles = len(files)
	shown, limit := cut(files, q.page)
	out.AppliedLimit = limit
	lines := make([]string, len(shown))
	for i, f := range shown {
		lines[i] = q.display(f.path) + ":" + strconv.Itoa(f.count)
	}
	out.Content = strings.Join(lines, "\n")
	return out
}

// line is one line of content output before it is rendered: a break between
// groups, a match or context line, or a note about binary data.
type line struct {
	path   string
	number int
	sep    byte
	text   string
	isNote bool
	isBrk  bool
}

// reportContent renders matching lines Claude Code's way: files in path order,
// "--" between groups of context, long lines elided, binary lines dropped.
func reportContent(files []fileResult, q *query) Output {
	slices.SortFunc(files, func(a, b fileResult) int { return compareUTF16(a.path, b.path) })
	var all []line
	total := 0
	for _, f := range files {
		var lines []line
		n := 0
		if f.dropped {
			n = f.lines
		} else if total < q.page.end() {
			lines = fileLines(f, q)
			n = len(lines)
		} else {
			n = countLines(f, q)
		}
		if q.contextBreaks && total > 0 && n > 0 {
			all = append(all, line{isBrk: true})
			total++
		}
		all = append(all, lines...)
		total += n
	}
	out := Output{Mode: modeContent, Filenames: []string{}, TotalLines: total, AppliedOffset: q.page.appliedOffset()}
	var shown []line
	if q.page.offset < len(all) {
		shown = all[q.page.offset:min(len(all), q.page.end())]
	}
	if q.page.limit > 0 && total-q.page.offset > q.page.limit {
		out.AppliedLimit = &q.page.limit
	}
	rendered := make([]string, len(shown))
	for i, l := range shown {
		rendered[i] = q.renderLine(l)
	}
	out.Content = strings.Join(rendered, "\n")
	out.NumLines = len(rendered)
	return out
}

func (q *query) renderLine(l line) string {
	if l.isBrk {
		return "--"
	}
	var rest string
	switch {
	case l.isNote:
		rest = l.text
	case q.lineNumbers:
		rest = strconv.Itoa(l.number) + string(l.sep) + l.text
	default:
		rest = l.text
	}
	if !q.isDir {
		return rest
	}
	return l.path + string(l.sep) + rest
}

// fileLines is Claude Code's rendering of one file's events.
func fileLines(f fileResult, q *query) []line {
	path := q.display(f.path)
	var out []line
	last := -1
	for _, ev := range f.events {
		text := stripTerminator(decodeUTF8(ev.raw))
		if q.contextBreaks && len(out) > 0 && ev.line > last+1 {
			out = append(out, line{isBrk: true})
		}
		if !ev.context && q.onlyMatching && len(ev.subs) > 0 {
			out = append(out, onlyMatchingLines(path, ev)...)
			last = ev.line + strings.Count(text, "\n")
			continue
		}
		sep, kind := byte(':'), "matching"
		if ev.context {
			sep, kind = '-', "context"
		}
		parts := strings.Split(text, "\n")
		for i, p := range parts {
			out = append(out, line{path: path, number: ev.line + i, sep: sep, text: elide(strings.TrimSuffix(p, "\r"), kind)})
		}
		last = ev.line + len(parts) - 1
	}
	if f.binaryOffset >= 0 && len(out) > 0 {
		out = slices.DeleteFunc(out, func(l line) bool { return strings.Contains(l.text, "\x00") })
		out = append(out, line{path: path, sep: ':', isNote: true,
			text: fmt.Sprintf(`binary file matches (found "\0" byte around offset %d)`, f.binaryOffset)})
	}
	return out
}

// stripTerminator removes one trailing "\n" or "\r\n".
func stripTerminator(text string) string {
	if t, ok := strings.CutSuffix(text, "\r\n"); ok {
		return t
	}
	return strings.TrimSuffix(text, "\n")
}

// onlyMatchingLines renders -o: each match on its own line, numbered by the
// line it starts on, a match across lines split into its lines.
func onlyMatchingLines(path string, ev event) []line {
	var out []line
	number := ev.line
	nl := bytes.IndexByte(ev.raw, '\n')
	for _, sub := range ev.subs {
		for nl >= 0 && nl < sub.start {
			number++
			next := bytes.IndexByte(ev.raw[nl+1:], '\n')
			if next < 0 {
				nl = -1
			} else {
				nl += next + 1
			}
		}
		match := strings.TrimSuffix(decodeUTF8(ev.raw[sub.start:sub.end]), "\n")
		for i, p := range strings.Split(match, "\n") {
			out = append(out, line{path: path, number: number + i, sep: ':', text: elide(strings.TrimSuffix(p, "\r"), "matching")})
		}
	}
	return out
}

// countLines is len(fileLines(f, q)), without building the lines when it can.
func countLines(f fileResult, q *query) int {
	if f.binaryOffset >= 0 {
		return len(fileLines(f, q))
	}
	n, last := 0, -1
	for _, ev := range f.events {
		breaks := bytes.Count(ev.raw, newline)
		if bytes.HasSuffix(ev.raw, newline) {
			breaks--
		}
		if q.contextBreaks && n > 0 && ev.line > last+1 {
			n++
		}
		last = ev.line + breaks
		if ev.context || !q.onlyMatching || len(ev.subs) == 0 {
			n += breaks + 1
			continue
		}
		for _, sub := range ev.subs {
			m := ev.raw[sub.start:sub.end]
			n += bytes.Count(bytes.TrimSuffix(m, newline), newline) + 1
		}
	}
	return n
}

// elide replaces a line longer than Claude Code shows.
func elide(text, kind string) string {
	if len(text) > maxLineLength && utf16Len(text) > maxLineLength {
		return "[Omitted long " + kind + " line]"
	}
	return text
}

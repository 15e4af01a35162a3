package grep

import (
	"bytes"
	"container/heap"
	"strings"
)

// pageKeeper bounds what a content search holds while ripgrep's results
// arrive in no particular order. Files are shown in path order, so once the
// files read so far fill the page, a file whose path sorts after all of them
// cannot reach it: of such a file only the number of lines it renders to is
// kept, and it is read without its text.
type pageKeeper struct {
	q    *query
	end  int
	kept keptFiles
	// lines is the number of output lines of the kept files.
	lines int
}

// newPageKeeper returns a keeper for the query, or nil when everything is
// shown or when events may span lines (multiline, -o), which lineTally does
// not count.
func newPageKeeper(q *query) *pageKeeper {
	if q.page.limit == 0 || q.multiline || q.onlyMatching {
		return nil
	}
	return &pageKeeper{q: q, end: q.page.end()}
}

// beyond reports whether a file at path, just begun, cannot reach the page:
// the kept files all sort before it and their lines fill the page already.
func (k *pageKeeper) beyond(files []fileResult, path string) bool {
	if k == nil || k.lines < k.end || len(k.kept.idx) == 0 {
		return false
	}
	return compareUTF16(path, files[k.kept.idx[0]].path) > 0
}

// finished takes the file at index i once all its lines are read, and drops
// the text of the kept files that the page can no longer reach.
func (k *pageKeeper) finished(files []fileResult, i int) {
	f := &files[i]
	if f.tally != nil {
		f.lines = f.tally.total(f.binaryOffset >= 0)
		f.tally, f.dropped = nil, true
		return
	}
	if k == nil {
		return
	}
	f.lines = countLines(*f, k.q)
	k.kept.files = files
	heap.Push(&k.kept, i)
	k.lines += f.lines
	for len(k.kept.idx) > 1 {
		last := &files[k.kept.idx[0]]
		if k.lines-last.lines < k.end {
			break
		}
		heap.Pop(&k.kept)
		k.lines -= last.lines
		last.events, last.dropped = nil, true
	}
}

// keptFiles is a max-heap, by path, of indices into files.
type keptFiles struct {
	files []fileResult
	idx   []int
}

func (h *keptFiles) Len() int { return len(h.idx) }
func (h *keptFiles) Less(a, b int) bool {
	return compareUTF16(h.files[h.idx[a]].path, h.files[h.idx[b]].path) > 0
}
func (h *keptFiles) Swap(a, b int) { h.idx[a], h.idx[b] = h.idx[b], h.idx[a] }
func (h *keptFiles) Push(x any)    { h.idx = append(h.idx, x.(int)) }
func (h *keptFiles) Pop() any {
	last := h.idx[len(h.idx)-1]
	h.idx = h.idx[:len(h.idx)-1]
	return last
}

// lineTally counts the output lines of a file read without its text, one
// line per event, as fileLines would render them.
type lineTally struct {
	n, last int
	// binary is how many lines a binary file would drop for their NUL bytes.
	binary int
}

func (t *lineTally) add(line int, breaks, hasNUL bool) {
	if breaks && t.n > 0 && line > t.last+1 {
		t.n++
	}
	t.n++
	t.last = line
	if hasNUL {
		t.binary++
	}
}

// total is the number of lines; a binary file loses its lines with NUL bytes
// and gains the note that says it matched.
func (t *lineTally) total(binary bool) int {
	if binary && t.n > 0 {
		return t.n - t.binary + 1
	}
	return t.n
}

// dropsAsBinary reports whether fileLines would drop the line raw from a
// binary file: its shown text still holds a NUL byte.
func dropsAsBinary(raw []byte, context bool) bool {
	kind := "matching"
	if context {
		kind = "context"
	}
	text := strings.TrimSuffix(stripTerminator(decodeUTF8(raw)), "\r")
	return strings.Contains(elide(text, kind), "\x00")
}

// quickCount reads a match or context line of rg's JSON for a file read
// without its text: its line number and whether a binary file would drop it.
func quickCount(line []byte) (number int, context, hasNUL, ok bool) {
	switch {
	case bytes.HasPrefix(line, matchPrefix):
	case bytes.HasPrefix(line, contextPrefix):
		context = true
	default:
		return 0, false, false, false
	}
	at := bytes.Index(line, []byte(`"lines":{"`))
	if at < 0 {
		return 0, false, false, false
	}
	rest := line[at:]
	end := bytes.Index(rest, []byte(`"line_number":`))
	if end < 0 {
		return 0, false, false, false
	}
	if bytes.HasPrefix(rest[len(`"lines":{"`):], []byte(`bytes":"`)) || hasNULEscape(rest[:end]) {
		raw, ok := quickText(rest, `"lines":{"`)
		if !ok {
			return 0, false, false, false
		}
		hasNUL = dropsAsBinary(raw, context)
	}
	number, _, ok = intAfter(rest[end:], `"line_number":`)
	return number, context, hasNUL, ok
}

// hasNULEscape reports whether JSON string text holds the escape of a NUL byte.
func hasNULEscape(b []byte) bool {
	for {
		i := bytes.IndexByte(b, '\\')
		if i < 0 || i+1 >= len(b) {
			return false
		}
		if b[i+1] == 'u' && bytes.HasPrefix(b[i+2:], []byte("0000")) {
			return true
		}
		b = b[i+2:]
	}
}

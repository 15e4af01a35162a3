package grep

import (
	"bytes"
	"context"
	"errors"
	"io"
)

// bufferCapacity is the size of ripgrep's line buffer; it decides where a
// search of a file stops when binary data turns up in it.
const bufferCapacity = 64 << 10

// event is one match or context block of a file, as rg --json reports it.
type event struct {
	context bool
	// line is the number of the first line.
	line int
	// offset is where the event starts in the file.
	offset int64
	// raw is the lines, with their terminators.
	raw []byte
	// subs are the matches within raw, kept only for -o.
	subs []span
}

// span is a match's byte range.
type span struct{ start, end int }

// fileResult is what a search found in one file.
type fileResult struct {
	// path is relative to the search root, with forward slashes; "" for a
	// file searched by itself.
	path string
	// count is the number of matching lines (of matches, when a pattern spans lines).
	count  int
	events []event
	// binaryOffset is where binary data (a NUL byte) was found, or -1.
	binaryOffset int64
	// modTime is the file's modification time in milliseconds, as
	// JavaScript's mtimeMs, known in files mode; 0 when it cannot be read.
	modTime float64
	// dropped says the file's text was not kept because it cannot reach the
	// page of a content search; lines is then the number of lines it renders
	// to, and tally counts them while the file is read (see pageKeeper).
	dropped bool
	lines   int
	tally   *lineTally
}

// settings are the parts of a query a file search needs.
type settings struct {
	mode          string
	before, after int
	onlyMatching  bool
}

// scanner searches files line by line the way ripgrep's reader-based searcher
// does: through a buffer of complete lines that starts at 64 KiB, grows when a
// line does not fit, and keeps the lines a later match may need as context.
// Walked files stop at the first read that brings a NUL byte; nothing after
// the last complete line before it is searched. A scanner is reused for many
// files by one worker.
type scanner struct {
	ctx  context.Context
	m    *matcher
	set  settings
	buf  []byte
	quit bool
	// sniffed is set once the first read was checked for a byte-order mark.
	sniffed bool

	// Per file: buf[pos:lastTerm] are complete lines not yet searched; base
	// is the file offset of buf[0]; lineNo is the number of the line at pos.
	pos, lastTerm, end int
	base               int64
	lineNo             int
	// lastEmitted is the number of the last line reported, lastEmittedEnd
	// where it ends in buf (-1 once rolled out), afterLeft the after-context
	// lines still owed.
	lastEmitted, lastEmittedEnd, afterLeft int
	res                                    *fileResult
}

func newScanner(ctx context.Context, m *matcher, set settings) *scanner {
	return &scanner{ctx: ctx, m: m, set: set, buf: make([]byte, bufferCapacity)}
}

// search reads r to the end and fills res. With quit set (walked files), the
// first read that brings a NUL byte ends it; otherwise NUL bytes are searched
// like any other. It returns errUTF16 when r starts with a UTF-16 byte-order
// mark, and skips a UTF-8 one, as ripgrep's decoder does.
func (s *scanner) search(r io.Reader, quit bool, res *fileResult) error {
	s.pos, s.lastTerm, s.end, s.base, s.lineNo, s.quit, s.sniffed = 0, 0, 0, 0, 1, quit, false
	s.buf = s.buf[:bufferCapacity]
	s.lastEmitted, s.lastEmittedEnd, s.afterLeft, s.res = 0, -1, 0, res
	for {
		if err := s.ctx.Err(); err != nil {
			return err
		}
		s.roll()
		more, err := s.fill(r)
		if err != nil {
			return err
		}
		if s.pos < s.lastTerm && s.searchLines(s.pos, s.lastTerm) {
			return nil
		}
		s.pos = s.lastTerm
		if !more {
			return nil
		}
	}
}

// roll drops what no later search needs, keeping the unfinished last line and,
// for context, the lines before it that were not reported yet.
func (s *scanner) roll() {
	keep := s.pos
	if n := max(s.set.before, s.set.after); n > 0 && s.set.mode == modeContent {
		keep = max(precedingLines(s.buf[:s.pos], n), s.lastEmittedEnd)
	}
	if keep == 0 {
		return
	}
	copy(s.buf, s.buf[keep:s.end])
	s.base += int64(keep)
	s.end -= keep
	s.pos -= keep
	s.lastTerm -= keep
	s.lastEmittedEnd -= keep
	if s.lastEmittedEnd < 0 {
		s.lastEmittedEnd = -1
	}
}

// fill reads until the buffer holds a new complete line or the file ends. It
// reports whether more may follow; a read that brings a NUL byte ends the
// search of a walked file with nothing more searched.
func (s *scanner) fill(r io.Reader) (bool, error) {
	for {
		if s.end == len(s.buf) {
			s.buf = append(s.buf, make([]byte, 2*len(s.buf))...)
		}
		room := s.buf[s.end:]
		if !s.sniffed {
			room = room[:min(len(room), len(utf8BOM))]
		}
		n, err := r.Read(room)
		if n == 0 {
			if err != nil && err != io.EOF {
				return false, err
			}
			if err == io.EOF {
				s.lastTerm = s.end
				return false, nil
			}
			continue
		}
		if !s.sniffed {
			s.sniffed = true
			if n = s.skipBOM(n); n < 0 {
				return false, errUTF16
			}
		}
		fresh := s.buf[s.end : s.end+n]
		oldEnd := s.end
		s.end += n
		if i := bytes.IndexByte(fresh, 0); i >= 0 && s.quit {
			s.res.binaryOffset = s.base + int64(oldEnd+i)
			s.lastTerm = s.pos
			return false, nil
		}
		if i := bytes.LastIndexByte(fresh, '\n'); i >= 0 {
			s.lastTerm = oldEnd + i + 1
			return true, nil
		}
	}
}

// errUTF16 says a file starts with a UTF-16 byte-order mark: it must be
// transcoded to UTF-8 before it is searched.
var errUTF16 = errors.New("UTF-16 text")

// skipBOM removes a UTF-8 byte-order mark from the n bytes of the first read
// and returns how many are left, or -1 for a UTF-16 mark.
func (s *scanner) skipBOM(n int) int {
	head := s.buf[:n]
	switch {
	case bytes.HasPrefix(head, utf8BOM):
		copy(s.buf, s.buf[3:n])
		return n - 3
	case bytes.HasPrefix(head, []byte{0xFF, 0xFE}), bytes.HasPrefix(head, []byte{0xFE, 0xFF}):
		return -1
	}
	return n
}

var (
	newline = []byte{'\n'}
	utf8BOM = []byte{0xEF, 0xBB, 0xBF}
)

// precedingLines returns the start of the n-th last line of buf (all of buf
// when it holds fewer), buf ending just after a line terminator.
func precedingLines(buf []byte, n int) int {
	pos := len(buf)
	for ; n > 0 && pos > 0; n-- {
		pos = bytes.LastIndexByte(buf[:pos-1], '\n') + 1
	}
	return pos
}

// searchLines searches the complete lines in buf[from:to] and reports whether
// the search of the file is over (files mode needs one match).
func (s *scanner) searchLines(from, to int) bool {
	content := s.set.mode == modeContent
	cur, line := from, s.lineNo
	for cur < to {
		ls, le, found := s.m.nextLine(s.buf, cur, to)
		stop := to
		if found {
			stop = ls
		}
		for content && s.afterLeft > 0 && cur < stop {
			e := lineEnd(s.buf, cur, to)
			s.emit(true, cur, e, line)
			s.afterLeft--
			cur, line = e, line+1
		}
		if !found {
			break
		}
		s.res.count++
		switch s.set.mode {
		case modeFiles:
			return true
		case modeCount:
			cur = le
			continue
		}
		line += bytes.Count(s.buf[cur:ls], newline)
		s.emitBefore(ls, line)
		s.emit(false, ls, le, line)
		s.afterLeft = s.set.after
		cur, line = le, line+1
	}
	if content {
		s.lineNo = line + bytes.Count(s.buf[cur:to], newline)
	}
	return false
}

// emitBefore reports up to `before` lines in front of the match at ls that
// were not reported yet; false means binary data ended the search.
func (s *scanner) emitBefore(ls, line int) bool {
	first := ls
	n := 0
	for n < s.set.before && first > 0 && line-n-1 > s.lastEmitted {
		first = bytes.LastIndexByte(s.buf[:first-1], '\n') + 1
		n++
	}
	for i := range n {
		e := lineEnd(s.buf, first, ls)
		if !s.emitChecked(true, first, e, line-n+i) {
			return false
		}
		first = e
	}
	return true
}

// emitChecked reports a line unless it is binary data that ends the search.
func (s *scanner) emitChecked(context bool, start, end, line int) bool {
	if s.binaryAt(start, end) {
		return false
	}
	s.emit(context, start, end, line)
	return true
}

// binaryAt reports whether a walked file searched whole holds a NUL byte in
// buf[start:end], and notes where: ripgrep checks each line it reports.
func (s *scanner) binaryAt(start, end int) bool {
	if !s.quit {
		return false
	}
	if i := bytes.IndexByte(s.buf[start:end], 0); i >= 0 {
		s.res.binaryOffset = s.base + int64(start+i)
		return true
	}
	return false
}

func (s *scanner) emit(context bool, start, end, line int) {
	ev := event{context: context, line: line, offset: s.base + int64(start), raw: bytes.Clone(s.buf[start:end])}
	if !context && s.set.onlyMatching {
		ev.subs = lineMatches(s.m, ev.raw)
	}
	s.res.events = append(s.res.events, ev)
	s.lastEmitted, s.lastEmittedEnd = line, end
}

// lineEnd returns the end of the line starting at start: after its terminator,
// or limit.
func lineEnd(buf []byte, start, limit int) int {
	if i := bytes.IndexByte(buf[start:limit], '\n'); i >= 0 {
		return start + i + 1
	}
	return limit
}

// lineMatches finds the matches in one line as rg --json lists them: on the
// line without its terminator, leaving out an empty match past its last byte
// (possible only when the line has no terminator).
func lineMatches(m *matcher, raw []byte) []span {
	text := bytes.TrimSuffix(raw, newline)
	var subs []span
	for _, loc := range m.iter.FindAllIndex(text, -1) {
		subs = append(subs, span{loc[0], loc[1]})
	}
	if n := len(subs); n > 0 && subs[n-1].start == subs[n-1].end && subs[n-1].start >= len(raw) {
		subs = subs[:n-1]
	}
	return subs
}

// nextLine finds the first line in buf[from:to] with a match and returns its
// start and end (after the terminator).
func (m *matcher) nextLine(buf []byte, from, to int) (start, end int, found bool) {
	for from < to {
		var at int
		if len(m.lit) > 0 {
			i := index(buf[from:to], m.lit, m.litFold)
			if i < 0 {
				return 0, 0, false
			}
			at = from + i
		} else {
			loc := m.re.FindIndex(buf[from:to])
			if loc == nil {
				return 0, 0, false
			}
			at = from + loc[0]
		}
		start = bytes.LastIndexByte(buf[from:at], '\n') + 1 + from
		if start == to {
			return 0, 0, false
		}
		end = lineEnd(buf, at, to)
		if len(m.lit) == 0 || m.pure || m.re.Match(bytes.TrimSuffix(buf[start:end], newline)) {
			return start, end, true
		}
		from = end
	}
	return 0, 0, false
}

// index finds lit in buf, ignoring ASCII case when fold is set.
func index(buf, lit []byte, fold bool) int {
	if !fold {
		return bytes.Index(buf, lit)
	}
	first := lit[0]
	lower, upper := first|0x20, first&^0x20
	if first < 'A' || (first > 'Z' && first < 'a') || first > 'z' {
		lower, upper = first, first
	}
	for i := 0; i+len(lit) <= len(buf); {
		j := indexEither(buf[i:len(buf)-len(lit)+1], lower, upper)
		if j < 0 {
			return -1
		}
		i += j
		if equalFoldASCII(buf[i:i+len(lit)], lit) {
			return i
		}
		i++
	}
	return -1
}

func indexEither(buf []byte, a, b byte) int {
	if a == b {
		return bytes.IndexByte(buf, a)
	}
	i := bytes.IndexByte(buf, a)
	limit := buf
	if i >= 0 {
		limit = buf[:i]
	}
	if j := bytes.IndexByte(limit, b); j >= 0 {
		return j
	}
	return i
}

func equalFoldASCII(a, b []byte) bool {
	for i := range a {
		x, y := a[i], b[i]
		if x == y {
			continue
		}
		if x|0x20 != y|0x20 || x|0x20 < 'a' || x|0x20 > 'z' {
			return false
		}
	}
	return true
}

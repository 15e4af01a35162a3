package grep

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"unicode/utf16"
	"unicode/utf8"
)

// lookAhead is how far past a match's lines ripgrep lets the regex look when
// it lists the matches of a multiline block.
const lookAhead = 128

// fileSearcher is one worker's state: a scanner for line-by-line searches and
// a buffer for files read whole.
type fileSearcher struct {
	scan  *scanner
	whole bytes.Buffer
}

func newFileSearcher(ctx context.Context, m *matcher, set settings) *fileSearcher {
	return &fileSearcher{scan: newScanner(ctx, m, set)}
}

// searchFile searches the file at abs with ripgrep's binary rules. A walked
// file is searched through the line buffer and stops at the read that brings a
// NUL byte; its count then drops to zero, as rg -c squashes it. A file named
// by itself is searched whole, and the first NUL in its first 64 KiB or in a
// reported line is noted.
func (fs *fileSearcher) searchFile(abs string, named bool, res *fileResult) error {
	f, err := openFile(abs)
	if err != nil {
		return err
	}
	defer func() {
		if res.count > 0 && fs.scan.set.mode == modeFiles {
			res.modTime = openedModTime(f, abs)
		}
		f.Close()
	}()
	res.binaryOffset = -1
	if !named && !fs.scan.m.spansLines {
		err := fs.scan.search(f, true, res)
		if !errors.Is(err, errUTF16) {
			fs.squashBinaryCount(res)
			return err
		}
		*res = fileResult{path: res.path, binaryOffset: -1}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return err
		}
	}
	fs.whole.Reset()
	if _, err := fs.whole.ReadFrom(f); err != nil {
		return fmt.Errorf("read %s: %w", abs, err)
	}
	data := decodeText(fs.whole.Bytes())
	if i := bytes.IndexByte(data[:min(len(data), bufferCapacity)], 0); i >= 0 {
		res.binaryOffset = int64(i)
		if !named {
			return nil
		}
	}
	if fs.scan.m.spansLines {
		fs.scan.searchWhole(data, !named, res)
	} else if err := fs.scan.search(bytes.NewReader(data), !named, res); err != nil {
		return err
	}
	if named && res.binaryOffset < 0 {
		for _, ev := range res.events {
			if i := bytes.IndexByte(ev.raw, 0); i >= 0 {
				res.binaryOffset = ev.offset + int64(i)
				break
			}
		}
	}
	fs.squashBinaryCount(res)
	return nil
}

// squashBinaryCount drops the count of a walked file found to be binary.
func (fs *fileSearcher) squashBinaryCount(res *fileResult) {
	if fs.scan.quit && res.binaryOffset >= 0 && fs.scan.set.mode == modeCount {
		res.count = 0
	}
}

// decodeText strips a UTF-8 byte-order mark and transcodes UTF-16 text with a
// byte-order mark to UTF-8, as ripgrep does before searching.
func decodeText(data []byte) []byte {
	var order func([]byte) uint16
	switch {
	case bytes.HasPrefix(data, utf8BOM):
		return data[3:]
	case bytes.HasPrefix(data, []byte{0xFF, 0xFE}):
		order = func(b []byte) uint16 { return uint16(b[0]) | uint16(b[1])<<8 }
	case bytes.HasPrefix(data, []byte{0xFE, 0xFF}):
		order = func(b []byte) uint16 { return uint16(b[1]) | uint16(b[0])<<8 }
	default:
		return data
	}
	body := data[2:]
	units := make([]uint16, 0, len(body)/2)
	for i := 0; i+1 < len(body); i += 2 {
		units = append(units, order(body[i:]))
	}
	out := make([]byte, 0, len(body))
	for _, r := range utf16.Decode(units) {
		out = utf8.AppendRune(out, r)
	}
	if len(body)%2 == 1 {
		out = utf8.AppendRune(out, utf8.RuneError)
	}
	return out
}

// searchWhole searches data, a whole file, with a pattern that can span lines:
// every match grows to whole lines, and matches that share or touch lines
// make one block, as in ripgrep's multiline mode. With quit set (a walked
// file), a block or context line holding a NUL byte ends the search there.
func (s *scanner) searchWhole(data []byte, quit bool, res *fileResult) {
	locs := s.m.iter.FindAllIndex(data, -1)
	blocks := lineBlocks(data, locs)
	s.quit, s.base = quit, 0
	if s.set.mode != modeContent {
		for i, b := range blocks {
			if j := bytes.IndexByte(data[b.start:b.end], 0); quit && j >= 0 {
				res.binaryOffset = int64(b.start + j)
				if i == 0 || s.set.mode == modeCount {
					return
				}
				break
			}
		}
		if len(blocks) > 0 {
			res.count = len(locs)
		}
		return
	}
	saved := s.buf
	defer func() { s.buf = saved }()
	s.buf, s.res, s.lastEmitted, s.lastEmittedEnd, s.afterLeft = data, res, 0, -1, 0
	cur, line := 0, 1
	for _, b := range blocks {
		for s.afterLeft > 0 && cur < b.start {
			e := lineEnd(data, cur, b.start)
			if !s.emitChecked(true, cur, e, line) {
				return
			}
			s.afterLeft--
			cur, line = e, line+1
		}
		line += bytes.Count(data[cur:b.start], newline)
		if !s.emitBefore(b.start, line) || !s.emitBlock(data, b, line) {
			return
		}
		res.count++
		s.afterLeft = s.set.after
		line += lineCount(data[b.start:b.end])
		cur = b.end
	}
	for s.afterLeft > 0 && cur < len(data) {
		e := lineEnd(data, cur, len(data))
		if !s.emitChecked(true, cur, e, line) {
			return
		}
		s.afterLeft--
		cur, line = e, line+1
	}
}

// lineBlocks grows each match to whole lines and joins matches whose lines
// touch, as ripgrep's multiline searcher does.
func lineBlocks(data []byte, locs [][]int) []span {
	var blocks []span
	for _, loc := range locs {
		start := bytes.LastIndexByte(data[:loc[0]], '\n') + 1
		end := loc[1]
		if !(end > start && data[end-1] == '\n') {
			end = lineEnd(data, end, len(data))
		}
		if n := len(blocks); n > 0 && blocks[n-1].end >= start {
			blocks[n-1].end = end
			continue
		}
		if start == len(data) && start > 0 {
			break
		}
		blocks = append(blocks, span{start, end})
	}
	return blocks
}

// emitBlock reports a multiline match block; for -o its matches are found
// again within it, with a little look-ahead past its end. It reports false
// when the block is binary data that ends the search.
func (s *scanner) emitBlock(data []byte, b span, line int) bool {
	if s.binaryAt(b.start, b.end) {
		return false
	}
	ev := event{line: line, offset: int64(b.start), raw: bytes.Clone(data[b.start:b.end])}
	if s.set.onlyMatching {
		window := data[b.start:min(b.end+lookAhead, len(data))]
		for _, loc := range s.m.iter.FindAllIndex(window, -1) {
			if loc[0] >= b.end-b.start {
				break
			}
			ev.subs = append(ev.subs, span{loc[0], loc[1]})
		}
		if n := len(ev.subs); n > 0 && ev.subs[n-1].start == ev.subs[n-1].end && ev.subs[n-1].start >= b.end-b.start {
			ev.subs = ev.subs[:n-1]
		}
	}
	s.res.events = append(s.res.events, ev)
	s.lastEmitted, s.lastEmittedEnd = line+lineCount(ev.raw)-1, b.end
	return true
}

// lineCount is the number of lines in text: its line terminators, plus one
// for a last line without a terminator.
func lineCount(text []byte) int {
	n := bytes.Count(text, newline)
	if len(text) > 0 && text[len(text)-1] != '\n' {
		n++
	}
	return n
}

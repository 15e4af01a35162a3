package grep

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// rgText is a string or bytes value of rg's JSON output.
type rgText struct {
	Text  *string `json:"text"`
	Bytes string  `json:"bytes"`
}

func (t rgText) raw() []byte {
	if t.Text != nil {
		return []byte(*t.Text)
	}
	b, _ := base64.StdEncoding.DecodeString(t.Bytes)
	return b
}

type rgMessage struct {
	Type string `json:"type"`
	Data struct {
		Path         rgText `json:"path"`
		Lines        rgText `json:"lines"`
		LineNumber   int    `json:"line_number"`
		BinaryOffset *int64 `json:"binary_offset"`
		Submatches   []struct {
			Start int `json:"start"`
			End   int `json:"end"`
		} `json:"submatches"`
	} `json:"data"`
}

var (
	matchPrefix   = []byte(`{"type":"match",`)
	contextPrefix = []byte(`{"type":"context",`)
	beginPrefix   = []byte(`{"type":"begin",`)
	endPrefix     = []byte(`{"type":"end",`)
	summaryPrefix = []byte(`{"data":{"elapsed_total":`)
)

// parseJSON reads rg --json: a begin, matches and context, and an end per
// file. Match and context lines, which can number millions, are read by
// hand; the rest through encoding/json.
func parseJSON(r *bufio.Reader, q *query) ([]fileResult, error) {
	jr := jsonReader{q: q, keep: newPageKeeper(q), cur: -1}
	for {
		line, err := r.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			head := bytes.Clone(line)
			rest, restErr := r.ReadBytes('\n')
			line, err = append(head, rest...), restErr
		}
		if len(line) > 0 && !bytes.HasPrefix(line, summaryPrefix) && !jr.quick(line) {
			var msg rgMessage
			if jerr := json.Unmarshal(line, &msg); jerr != nil {
				return nil, jerr
			}
			jr.apply(msg)
		}
		if err == io.EOF {
			return jr.files, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// jsonReader collects the files of rg's JSON output.
type jsonReader struct {
	q     *query
	keep  *pageKeeper
	files []fileResult
	// cur is the index of the file being read, or -1 between files.
	cur int
}

func (jr *jsonReader) begin(path []byte) {
	f := fileResult{path: jr.q.relative(path), binaryOffset: -1}
	if jr.keep.beyond(jr.files, f.path) {
		f.tally = &lineTally{}
	}
	jr.files = append(jr.files, f)
	jr.cur = len(jr.files) - 1
}

func (jr *jsonReader) end(binaryOffset *int64) {
	if jr.cur < 0 {
		return
	}
	if binaryOffset != nil {
		jr.files[jr.cur].binaryOffset = *binaryOffset
	}
	jr.keep.finished(jr.files, jr.cur)
	jr.cur = -1
}

func (f *fileResult) addEvent(ev event) {
	if !ev.context {
		f.count++
	}
	f.events = append(f.events, ev)
}

// apply takes one message read through encoding/json.
func (jr *jsonReader) apply(msg rgMessage) {
	switch msg.Type {
	case "begin":
		jr.begin(msg.Data.Path.raw())
	case "match", "context":
		if jr.cur < 0 {
			return
		}
		ev := event{context: msg.Type == "context", line: msg.Data.LineNumber, raw: msg.Data.Lines.raw()}
		if !ev.context && jr.q.onlyMatching {
			for _, s := range msg.Data.Submatches {
				ev.subs = append(ev.subs, span{s.Start, s.End})
			}
		}
		jr.add(ev)
	case "end":
		jr.end(msg.Data.BinaryOffset)
	}
}

func (jr *jsonReader) add(ev event) {
	f := &jr.files[jr.cur]
	if f.tally == nil {
		f.addEvent(ev)
		return
	}
	if !ev.context {
		f.count++
	}
	f.tally.add(ev.line, jr.q.contextBreaks, dropsAsBinary(ev.raw, ev.context))
}

// quick takes a begin, match, context or end message read by hand; it
// reports false when the line is none of these or not in the expected shape.
func (jr *jsonReader) quick(line []byte) bool {
	switch {
	case bytes.HasPrefix(line, beginPrefix):
		path, ok := quickText(line, `"path":{"`)
		if ok {
			jr.begin(path)
		}
		return ok
	case bytes.HasPrefix(line, endPrefix):
		at := bytes.Index(line, []byte(`"binary_offset":`))
		if at < 0 {
			return false
		}
		value := line[at+len(`"binary_offset":`):]
		if bytes.HasPrefix(value, []byte("null")) {
			jr.end(nil)
			return true
		}
		offset, _, ok := intAfter(value, "")
		if ok {
			at := int64(offset)
			jr.end(&at)
		}
		return ok
	}
	if jr.cur >= 0 && jr.files[jr.cur].tally != nil {
		number, context, hasNUL, ok := quickCount(line)
		if ok {
			f := &jr.files[jr.cur]
			if !context {
				f.count++
			}
			f.tally.add(number, jr.q.contextBreaks, hasNUL)
		}
		return ok
	}
	ev, ok := quickEvent(line, jr.q.onlyMatching)
	if ok && jr.cur >= 0 {
		jr.add(ev)
	}
	return ok
}

// quickText reads the text or bytes value that follows key.
func quickText(line []byte, key string) ([]byte, bool) {
	at := bytes.Index(line, []byte(key))
	if at < 0 {
		return nil, false
	}
	rest := line[at+len(key):]
	switch {
	case bytes.HasPrefix(rest, []byte(`text":"`)):
		text, _, ok := jsonString(rest[len(`text":"`):])
		return text, ok
	case bytes.HasPrefix(rest, []byte(`bytes":"`)):
		encoded, _, ok := jsonString(rest[len(`bytes":"`):])
		if !ok {
			return nil, false
		}
		return decodeBase64(encoded)
	}
	return nil, false
}

// quickEvent reads a match or context line of rg's JSON without reflection:
// the lines, the line number and, for -o, the match offsets. It reports
// false for any other line, or one it does not understand.
func quickEvent(line []byte, offsets bool) (event, bool) {
	var ev event
	switch {
	case bytes.HasPrefix(line, matchPrefix):
	case bytes.HasPrefix(line, contextPrefix):
		ev.context = true
	default:
		return ev, false
	}
	at := bytes.Index(line, []byte(`"lines":{"`))
	if at < 0 {
		return ev, false
	}
	rest := line[at:]
	var ok bool
	if ev.raw, ok = quickText(rest, `"lines":{"`); !ok {
		return ev, false
	}
	if ev.line, rest, ok = intAfter(rest, `"line_number":`); !ok {
		return ev, false
	}
	if offsets && !ev.context {
		for {
			var start, end int
			if start, rest, ok = intAfter(rest, `"start":`); !ok {
				break
			}
			if end, rest, ok = intAfter(rest, `"end":`); !ok {
				return ev, false
			}
			ev.subs = append(ev.subs, span{start, end})
		}
	}
	return ev, true
}

func decodeBase64(encoded []byte) ([]byte, bool) {
	out := make([]byte, base64.StdEncoding.DecodedLen(len(encoded)))
	n, err := base64.StdEncoding.Decode(out, encoded)
	return out[:n], err == nil
}

// intAfter finds key in b and reads the integer after it.
func intAfter(b []byte, key string) (int, []byte, bool) {
	at := bytes.Index(b, []byte(key))
	if at < 0 {
		return 0, b, false
	}
	b = b[at+len(key):]
	end := 0
	for end < len(b) && b[end] >= '0' && b[end] <= '9' {
		end++
	}
	n, err := strconv.Atoi(string(b[:end]))
	return n, b[end:], err == nil
}

// jsonString decodes a JSON string body up to its closing quote and returns
// the text and what follows the quote.
func jsonString(b []byte) ([]byte, []byte, bool) {
	end := bytes.IndexByte(b, '"')
	if end < 0 {
		return nil, b, false
	}
	if bytes.IndexByte(b[:end], '\\') < 0 {
		return bytes.Clone(b[:end]), b[end+1:], true
	}
	out := make([]byte, 0, end+16)
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case c == '"':
			return out, b[i+1:], true
		case c != '\\':
			out = append(out, c)
			continue
		}
		if i+1 >= len(b) {
			return nil, b, false
		}
		i++
		switch b[i] {
		case 'n':
			out = append(out, '\n')
		case 't':
			out = append(out, '\t')
		case 'r':
			out = append(out, '\r')
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'u':
			r, used, ok := unicodeEscape(b[i+1:])
			if !ok {
				return nil, b, false
			}
			out = utf8.AppendRune(out, r)
			i += used
		default:
			out = append(out, b[i])
		}
	}
	return nil, b, false
}

// unicodeEscape reads the hex digits of a \u escape, and a second escape when
// the first is the high half of a surrogate pair.
func unicodeEscape(b []byte) (rune, int, bool) {
	if len(b) < 4 {
		return 0, 0, false
	}
	v, err := strconv.ParseUint(string(b[:4]), 16, 16)
	if err != nil {
		return 0, 0, false
	}
	r := rune(v)
	if utf16.IsSurrogate(r) && len(b) >= 10 && b[4] == '\\' && b[5] == 'u' {
		if lo, err := strconv.ParseUint(string(b[6:10]), 16, 16); err == nil {
			if pair := utf16.DecodeRune(r, rune(lo)); pair != utf8.RuneError {
				return pair, 10, true
			}
		}
	}
	return r, 4, true
}

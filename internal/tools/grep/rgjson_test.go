package grep

import (
	"bufio"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

func TestQuickEventAgreesWithEncodingJSON(t *testing.T) {
	texts := []string{"plain\n", "tab\tquote\" back\\slash\n", "nul\x00ctl\x01\n", "emoji \U0001F600 é\n", "</script>&<>\n", "no newline"}
	for _, text := range texts {
		for _, kind := range []string{"match", "context"} {
			encoded, _ := json.Marshal(text)
			line := []byte(`{"type":"` + kind + `","data":{"path":{"text":"a\"b/c.txt"},"lines":{"text":` + string(encoded) +
				`},"line_number":42,"absolute_offset":7,"submatches":[{"match":{"text":"\"start\":9"},"start":1,"end":3},{"match":{"text":"x"},"start":4,"end":5}]}}` + "\n")
			ev, ok := quickEvent(line, true)
			if !ok || string(ev.raw) != text || ev.line != 42 || ev.context != (kind == "context") {
				t.Errorf("%s %q: ok %v, raw %q, line %d", kind, text, ok, ev.raw, ev.line)
			}
			if wantSubs := []span{{1, 3}, {4, 5}}; kind == "match" && !slices.Equal(ev.subs, wantSubs) {
				t.Errorf("%q: subs %v, want %v", text, ev.subs, wantSubs)
			}
		}
	}
	bytesLine := []byte(`{"type":"match","data":{"path":{"text":"x"},"lines":{"bytes":"Y2Fm6SBoaXQK"},"line_number":3,"absolute_offset":0,"submatches":[]}}`)
	if ev, ok := quickEvent(bytesLine, false); !ok || string(ev.raw) != "caf\xe9 hit\n" || ev.line != 3 {
		t.Errorf("bytes line: ok %v raw %q line %d", ok, ev.raw, ev.line)
	}
	for _, other := range []string{`{"type":"begin","data":{}}`, `{"type":"summary"}`, `{"type":"match","data":{"lines":{"text":"unterminated`} {
		if _, ok := quickEvent([]byte(other), false); ok {
			t.Errorf("%s was taken as an event", other)
		}
	}
}

func TestParseJSONLongLines(t *testing.T) {
	long := strings.Repeat("x", 200_000) + " hit"
	encoded, _ := json.Marshal(long + "\n")
	input := `{"type":"begin","data":{"path":{"text":"./a.txt"}}}` + "\n" +
		`{"type":"match","data":{"path":{"text":"./a.txt"},"lines":{"text":` + string(encoded) + `},"line_number":1,"absolute_offset":0,"submatches":[]}}` + "\n" +
		`{"type":"end","data":{"path":{"text":"./a.txt"},"binary_offset":null,"stats":{}}}` + "\n"
	files, err := parseJSON(bufio.NewReaderSize(strings.NewReader(input), 64<<10), &query{isDir: true, mode: modeContent})
	if err != nil || len(files) != 1 || len(files[0].events) != 1 || string(files[0].events[0].raw) != long+"\n" {
		t.Fatalf("files %d, err %v", len(files), err)
	}
}

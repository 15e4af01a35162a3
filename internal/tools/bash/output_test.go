package bash

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func fileIn(t *testing.T) func() (*os.File, error) {
	path := filepath.Join(t.TempDir(), "out.txt")
	return func() (*os.File, error) { return os.Create(path) }
}

func TestOutputLogStaysInMemoryUpToTheLimitInCharacters(t *testing.T) {
	o := newOutputLog(10, func() (*os.File, error) { t.Fatal("spilled"); return nil, nil })
	// Ten characters, twenty bytes, written with a character split across writes.
	text := strings.Repeat("é", 10)
	o.Write([]byte(text[:3]))
	o.Write([]byte(text[3:]))
	if v, end := o.Since(0); v.text != text || v.persisted != nil || end != 20 {
		t.Errorf("got %+v, %d", v, end)
	}
}

func TestOutputLogSpillsAndReadsRanges(t *testing.T) {
	o := newOutputLog(10, fileIn(t))
	o.Write([]byte("0123456789"))
	if o.Path() != "" {
		t.Fatal("spilled at the limit")
	}
	o.Write([]byte("abc"))
	if o.Path() == "" {
		t.Fatal("did not spill past the limit")
	}
	if v, end := o.Since(7); v.text != "789abc" || end != 13 {
		t.Errorf("Since(7) = %+v, %d", v, end)
	}
	o.Write([]byte(strings.Repeat("x", 50)))
	v, _ := o.Since(13)
	if v.persisted == nil || v.persisted.Size != 50 || v.persisted.Head != strings.Repeat("x", 50) {
		t.Errorf("Since(13) = %+v", v)
	}
	data, _ := os.ReadFile(o.Path())
	if string(data) != "0123456789abc"+strings.Repeat("x", 50) {
		t.Errorf("file %q", data)
	}
}

func TestOutputLogWithoutAFileKeepsHeadAndTail(t *testing.T) {
	o := newOutputLog(100, func() (*os.File, error) { return nil, errors.New("disk full") })
	for i := 0; i < 10000; i++ {
		o.Write([]byte("line of text\n"))
	}
	o.Write([]byte("the last line\n"))
	if _, err := o.Spill(); err == nil {
		t.Error("Spill reported no error")
	}
	v, _ := o.Since(0)
	p := v.persisted
	if p == nil || p.Stored != 0 || p.Size != 130014 || !strings.HasPrefix(p.Head, "line of text\n") || !strings.HasSuffix(p.Tail, "the last line\n") {
		t.Fatalf("got %+v", v)
	}
	if len(o.mem) > 4100 || len(o.tail) > 4000 {
		t.Errorf("holds %d + %d bytes", len(o.mem), len(o.tail))
	}
}

func TestLastLines(t *testing.T) {
	o := newOutputLog(100, fileIn(t))
	o.Write([]byte("one\ntwo\n\n"))
	if got := o.LastLines(1); got != "two" {
		t.Errorf("in memory: %q", got)
	}
	if got := o.LastLines(5); got != "one\ntwo" {
		t.Errorf("five lines in memory: %q", got)
	}
	o.Write([]byte(strings.Repeat("z", 200) + "\nlast one\n"))
	if got := o.LastLines(1); got != "last one" {
		t.Errorf("in the file: %q", got)
	}
	if got := o.LastLines(2); got != strings.Repeat("z", 200)+"\nlast one" {
		t.Errorf("two lines in the file: %q", got)
	}
}

func TestTrimBlankLines(t *testing.T) {
	for in, want := range map[string]string{
		"":                    "",
		"\n\n":                "",
		"\n  \n  x\n\n":       "  x",
		"a\n\n b \n\t\n":      "a\n\n b",
		"first\r\nsecond\r\n": "first\r\nsecond",
	} {
		if got := trimBlankLines(in); got != want {
			t.Errorf("trimBlankLines(%q) = %q, want %q", in, got, want)
		}
	}
}

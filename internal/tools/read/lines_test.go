package read

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// referenceLines splits content the simple way, all in memory: on LF, the CR
// of a CRLF dropped, each byte that is not UTF-8 shown as U+FFFD.
func referenceLines(content string) []string {
	lines := strings.Split(content, "\n")
	for i := range lines {
		if i < len(lines)-1 {
			lines[i] = strings.TrimSuffix(lines[i], "\r")
		}
		lines[i] = string([]rune(lines[i]))
	}
	return lines
}

func referenceNumbered(start int, lines []string) string {
	parts := make([]string, len(lines))
	for i, l := range lines {
		parts[i] = fmt.Sprintf("%d\t%s", start+i, l)
	}
	return strings.Join(parts, "\n")
}

func TestReadWindowMatchesReference(t *testing.T) {
	contents := []string{"", "\n", "a", "a\n", "a\r\nb\r\n", "a\rb\n", "\r\n\r\n", "x\r", "caf\xe9\n\xff\xfe", strings.Repeat("long line ", 30) + "\nend"}
	for _, content := range contents {
		for _, w := range []window{{start: 1}, {start: 2}, {start: 1, limit: 1}, {start: 3, limit: 2}, {start: 50}} {
			w.budget, w.countAll = 1<<20, true
			checkWindow(t, []byte(content), w, 16)
		}
	}
}

// checkWindow compares readWindow with the reference splitter: the same
// lines in the window, the same count, and a budget that cuts only at the end.
func checkWindow(t *testing.T, data []byte, w window, bufSize int) {
	t.Helper()
	ex, err := readWindow(context.Background(), bytes.NewReader(data), w, bufSize)
	if err != nil {
		t.Fatal(err)
	}
	all := referenceLines(string(data))
	if w.countAll && ex.total != len(all) {
		t.Fatalf("%q: total %d, want %d", data, ex.total, len(all))
	}
	if ex.invalidUTF8 && utf8.Valid(data) {
		t.Fatalf("%q %+v: valid UTF-8 reported as invalid", data, w)
	}
	if ex.empty != (len(data) == 0) {
		t.Fatalf("%q: empty = %v", data, ex.empty)
	}
	want := []string{}
	if w.start <= len(all) {
		want = all[w.start-1:]
		if w.limit > 0 && len(want) > w.limit {
			want = want[:w.limit]
		}
	}
	got := ex.lines
	switch {
	case ex.cutLength > 0:
		if len(got) != 1 || !strings.HasPrefix(want[0], got[0]) || len(got[0]) > w.budget {
			t.Fatalf("%q %+v: cut line %q is not a prefix of %q within the budget", data, w, got, want[0])
		}
	case ex.next > 0:
		if len(got) == 0 || !slices.Equal(got, want[:len(got)]) || ex.next != w.start+len(got) {
			t.Fatalf("%q %+v: cut at %d with %q, want a prefix of %q", data, w, ex.next, got, want)
		}
		if size := len(referenceNumbered(w.start, got)); size > w.budget {
			t.Fatalf("%q %+v: %d bytes of output over the budget", data, w, size)
		}
	case !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0):
		t.Fatalf("%q %+v: lines %q, want %q", data, w, got, want)
	}
	if len(got) > 0 && numbered(w.start, got) != referenceNumbered(w.start, got) {
		t.Fatalf("numbered(%d, %q) = %q", w.start, got, numbered(w.start, got))
	}
}

// FuzzReadWindow checks the streaming line splitter and the formatter against
// the in-memory reference for any content, window, budget and buffer size.
func FuzzReadWindow(f *testing.F) {
	f.Add([]byte("alpha\nbeta\n"), uint16(0), uint8(0), uint16(0), uint8(0))
	f.Add([]byte("one\r\ntwo\r\n\r\nthree"), uint16(1), uint8(2), uint16(30), uint8(1))
	f.Add([]byte("caf\xe9\r\n\xf0\x9f\x98\x80 emoji\n"), uint16(0), uint8(1), uint16(5), uint8(0))
	f.Add(bytes.Repeat([]byte("0123456789"), 50), uint16(0), uint8(0), uint16(40), uint8(2))
	f.Add(bytes.Repeat([]byte("é€😀"), 40), uint16(0), uint8(0), uint16(21), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, start uint16, limit uint8, budget uint16, bufExp uint8) {
		bufSize := 16 << (bufExp % 7)
		w := window{start: 1 + int(start%64), limit: int(limit % 16), budget: 1 << 30, countAll: true}
		checkWindow(t, data, w, bufSize)
		w.budget, w.countAll = 16+int(budget%512), false
		checkWindow(t, data, w, bufSize)
	})
}

func TestUTF16Reader(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
		want string
	}{
		{"little endian with a surrogate pair", []byte{'h', 0, 'i', 0, 0x3D, 0xD8, 0x00, 0xDE, '\n', 0}, "hi😀\n"},
		{"unpaired surrogate", []byte{0x3D, 0xD8, 'x', 0}, "\uFFFDx"},
		{"odd trailing byte", []byte{'a', 0, 'b'}, "a\uFFFD"},
	}
	for _, tt := range tests {
		var out bytes.Buffer
		out.ReadFrom(textReader(bufio.NewReader(bytes.NewReader(append([]byte{0xFF, 0xFE}, tt.in...))), encUTF16LE))
		if out.String() != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, out.String(), tt.want)
		}
	}
}

func TestSniff(t *testing.T) {
	tests := []struct {
		in   string
		want encoding
	}{
		{"plain text\n", encUTF8},
		{"Gr\xfc\xdfe aus K\xf6ln\n", encUTF8},
		{"\xEF\xBB\xBFbom", encUTF8BOM},
		{"\xFF\xFEh\x00", encUTF16LE},
		{"\xFE\xFF\x00h", encUTF16BE},
		{"ELF\x00\x01", encBinary},
		{"\x89\x01\x02\x03\x04\x05\x06\x07\x8f\x9f", encBinary},
		{"ends inside a rune \xe2\x82", encUTF8},
		{"\x1b[31mred\x1b[0m\n", encUTF8},
	}
	for _, tt := range tests {
		if got := sniff([]byte(tt.in)); got != tt.want {
			t.Errorf("sniff(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

// BenchmarkReadRangeOf100MBFile reads 100 lines from the middle and from the
// end of a 100 MB file: the memory used per read must not grow with the file.
func BenchmarkReadRangeOf100MBFile(b *testing.B) {
	env := newEnv(b)
	path := filepath.Join(env.Cwd, "huge.log")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	lines := 0
	for size := 0; size < 100<<20; lines++ {
		n, _ := fmt.Fprintf(w, "2026-12-02T13:00:00Z INFO request %08d served in 12ms by worker-7 with status 200 OK\n", lines)
		size += n
	}
	w.Flush()
	f.Close()
	for _, offset := range []int{lines / 2, lines - 50, lines + 10} {
		input := fmt.Sprintf(`{"file_path":"huge.log","offset":%d,"limit":100}`, offset)
		b.Run(fmt.Sprintf("offset=%d", offset), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(100 << 20)
			for b.Loop() {
				if _, err := run(context.Background(), env, input); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

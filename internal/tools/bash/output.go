package bash

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/mini-claude/mini-claude/internal/resultstore"
)

// maxStoredBytes caps the file a command's output goes to, so that `yes` left
// running cannot fill the disk; past it the output is counted and its last
// bytes kept for the preview, and the rest is dropped.
var maxStoredBytes int64 = 1 << 30

// outputLog receives a command's merged output with bounded memory: it holds
// the output while it is at most limit characters and moves it to a file in
// the session's tool-results folder past that, or when the command goes to the
// background; from then on only counts and the last bytes stay in memory.
type outputLog struct {
	mu     sync.Mutex
	limit  int
	create func() (*os.File, error)
	mem    []byte
	chars  int
	file   *os.File
	size   int64
	stored int64
	// tail holds the last bytes once storing has stopped (cap reached or a
	// failed write), so the preview still ends where the output ends.
	tail    []byte
	stopped bool
	err     error
}

func newOutputLog(limit int, create func() (*os.File, error)) *outputLog {
	return &outputLog{limit: limit, create: create}
}

// Write takes the next piece of output; it never fails, so the command is
// never blocked or killed by a problem with the file.
func (o *outputLog) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.size += int64(len(p))
	switch {
	case o.stopped:
		o.keepTail(p)
	case o.file != nil:
		o.store(p)
	default:
		o.mem = append(o.mem, p...)
		o.chars += countChars(p)
		if o.chars > o.limit {
			o.spill()
		}
	}
	return len(p), nil
}

// countChars counts the characters of UTF-8 text by its leading bytes, which
// stays exact when a character is split between two writes.
func countChars(p []byte) int {
	n := 0
	for _, b := range p {
		if b&0xC0 != 0x80 {
			n++
		}
	}
	return n
}

// store appends p to the file, up to maxStoredBytes.
func (o *outputLog) store(p []byte) {
	room := maxStoredBytes - o.stored
	chunk := p[:min(int64(len(p)), room)]
	n, err := o.file.Write(chunk)
	o.stored += int64(n)
	if err != nil || len(chunk) < len(p) {
		if err != nil {
			o.err = fmt.Errorf("write %s: %w", o.file.Name(), err)
		}
		o.stopped = true
		o.keepTail(p)
	}
}

func (o *outputLog) keepTail(p []byte) {
	o.tail = append(o.tail, p...)
	if len(o.tail) > 2*resultstore.PreviewBytes {
		o.tail = append(o.tail[:0], o.tail[len(o.tail)-resultstore.PreviewBytes:]...)
	}
}

// spill moves the output to the file; on failure the memory keeps what it has
// as the head and only the tail follows.
func (o *outputLog) spill() {
	f, err := o.create()
	if err != nil {
		o.err = err
		o.stopped = true
		o.keepTail(o.mem)
		o.mem = o.mem[:min(len(o.mem), 2*resultstore.PreviewBytes)]
		return
	}
	o.file = f
	mem := o.mem
	o.mem = nil
	o.store(mem)
}

// Spill moves the output to its file now, for a command going to the
// background whose output the model may read as it grows, and returns the path.
func (o *outputLog) Spill() (string, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.file == nil && !o.stopped {
		o.spill()
	}
	if o.file == nil {
		return "", o.err
	}
	return o.file.Name(), nil
}

// Size returns how many bytes have arrived so far.
func (o *outputLog) Size() int64 {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.size
}

// Path returns the file the output is written to, or "" while it is in memory.
func (o *outputLog) Path() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.file == nil {
		return ""
	}
	return o.file.Name()
}

// view is a part of the output as the model gets it: the text itself, or a
// preview of a part too large to show.
type view struct {
	text      string
	persisted *resultstore.Persisted
}

// Since returns the output from byte offset from to the end, as text when it
// is at most limit characters and as a preview otherwise, and the offset of
// that end, where the next read starts.
func (o *outputLog) Since(from int64) (view, int64) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.file == nil && !o.stopped {
		return view{text: string(o.mem[min(int(from), len(o.mem)):])}, o.size
	}
	n := o.size - from
	if n <= int64(o.limit) && from+n <= o.stored {
		if text, err := o.readAt(from, n); err == nil && utf8.RuneCountInString(text) <= o.limit {
			return view{text: text}, o.size
		}
	}
	return view{persisted: o.preview(from)}, o.size
}

// preview describes the output from offset from: where the file is, its head
// read back from the file (or memory) and its tail.
func (o *outputLog) preview(from int64) *resultstore.Persisted {
	p := &resultstore.Persisted{Size: o.size - from, Stored: max(0, o.stored-from)}
	if o.file != nil {
		p.Path = o.file.Name()
	}
	if p.Size <= 2*resultstore.PreviewBytes && from+p.Size <= o.stored {
		if whole, err := o.readAt(from, p.Size); err == nil {
			p.Head = whole
			return p
		}
	}
	head, _ := o.headAt(from)
	p.Head = resultstore.Head(head, resultstore.PreviewBytes)
	p.Tail = resultstore.Tail(o.tailText(), resultstore.PreviewBytes)
	return p
}

func (o *outputLog) headAt(from int64) (string, error) {
	if o.file == nil {
		if from >= int64(len(o.mem)) {
			return "", nil
		}
		return string(o.mem[from:min(int64(len(o.mem)), from+resultstore.PreviewBytes+4)]), nil
	}
	return o.readAt(from, min(resultstore.PreviewBytes+4, max(0, o.stored-from)))
}

// tailText returns the last bytes of the output, a little more than a preview needs.
func (o *outputLog) tailText() string {
	if o.stopped {
		return string(o.tail)
	}
	n := min(o.stored, resultstore.PreviewBytes+4)
	text, _ := o.readAt(o.stored-n, n)
	return text
}

func (o *outputLog) readAt(from, n int64) (string, error) {
	if o.file == nil {
		return string(o.mem[from : from+n]), nil
	}
	buf := make([]byte, n)
	read, err := o.file.ReadAt(buf, from)
	if err != nil && err != io.EOF {
		return "", err
	}
	return string(buf[:read]), nil
}

// LastLines returns up to n last lines of the output so far, without
// trailing blank space, for progress.
func (o *outputLog) LastLines(n int) string {
	o.mu.Lock()
	defer o.mu.Unlock()
	var tail string
	if o.file == nil && !o.stopped {
		tail = string(o.mem[max(0, len(o.mem)-512*n):])
	} else {
		tail = o.tailText()
	}
	tail = strings.TrimRight(tail, " \t\r\n")
	lines := strings.Split(tail, "\n")
	return strings.ToValidUTF8(strings.Join(lines[max(0, len(lines)-n):], "\n"), "")
}

// Close closes the file; the file itself stays, for the model to read.
func (o *outputLog) Close() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.file == nil {
		return nil
	}
	return o.file.Close()
}

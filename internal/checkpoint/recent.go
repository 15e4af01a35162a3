package checkpoint

import (
	"bytes"
	"io"
	"os"
	"slices"
	"sync"
)

// A file tool's call reads the file it changes twice, for the snapshot
// before it and the note after it, and the next prompt reads it again: each
// time the content is mostly what was read the last time. So the store keeps
// the last content it read of the files it looked at lately, with its
// digest, and cuts and hashes again only the chunks between the first byte
// that differs and the last: an Edit of one line of a 1 MB file hashes a
// chunk or two, not the megabyte. The bytes are compared, never assumed, so
// the digest is always the one the content has.

// recentBudget bounds the bytes the store keeps of recent reads; a file
// larger than it is hashed whole each time (about 2 ms a megabyte). It is
// kept small because a session's memory is a feature too: 8 MB covers the
// source files an agent edits and the 1 MB file of the benchmark.
const recentBudget = 8 << 20

// recent is the last content read of the files looked at lately.
type recent struct {
	files map[string]*known
	size  int
	clock uint64
}

// known is a file's content as last read, its digest, and when it was last used.
type known struct {
	data []byte
	d    digest
	used uint64
}

// digest returns the digest of data, just read from path, reusing what the
// last read of path found.
func (r *recent) digest(path string, data []byte) digest {
	if k := r.files[path]; k != nil {
		return update(k.data, k.d, data)
	}
	return fingerprint(data)
}

// keep makes data, whose digest is d, what r knows of path, in place of
// the last read, whose buffer goes back to be read into again; data is r's
// from then on. The files used least lately are forgotten to stay within
// recentBudget.
func (r *recent) keep(path string, data []byte, d digest) {
	r.forget(path)
	if cap(data) > recentBudget {
		return
	}
	if r.files == nil {
		r.files = map[string]*known{}
	}
	r.clock++
	r.files[path] = &known{data: data, d: d, used: r.clock}
	r.size += cap(data)
	for r.size > recentBudget {
		oldest := ""
		for p, k := range r.files {
			if oldest == "" || k.used < r.files[oldest].used {
				oldest = p
			}
		}
		r.forget(oldest)
	}
}

// forget drops what r knows of path.
func (r *recent) forget(path string) {
	if k := r.files[path]; k != nil {
		r.size -= cap(k.data)
		putBuffer(k.data)
		delete(r.files, path)
	}
}

// clear forgets every file.
func (r *recent) clear() {
	for path := range r.files {
		r.forget(path)
	}
}

// update returns the digest of data given old, the digest of prev. Chunks
// are cut by their content alone, so those of prev that end before the first
// byte that differs are data's too (but the last, cut where prev ended), and
// from a cut in the common tail that was one of prev's, so are the rest,
// moved by the difference in length: only the chunks in between are cut and
// hashed. The result is fingerprint(data)'s.
func update(prev []byte, old digest, data []byte) digest {
	if bytes.Equal(prev, data) {
		return old
	}
	if len(data) == 0 || len(old.ends) < 2 {
		return fingerprint(data)
	}
	head := commonPrefix(prev, data)
	tail := commonSuffix(prev[head:], data[head:])
	kept, _ := slices.BinarySearch(old.ends[:len(old.ends)-1], head+1)
	d := digest{ends: make([]int, 0, len(old.ends)+2), sums: make([]string, 0, len(old.sums)+2)}
	d.ends = append(d.ends, old.ends[:kept]...)
	d.sums = append(d.sums, old.sums[:kept]...)
	at := 0
	if kept > 0 {
		at = old.ends[kept-1]
	}
	shift := len(data) - len(prev)
	for at < len(data) {
		end := at + chunkEnd(data[at:])
		d.add(data[at:end], end)
		at = end
		j, cut := slices.BinarySearch(old.ends, at-shift)
		if cut && at >= len(data)-tail && at < len(data) {
			for _, e := range old.ends[j+1:] {
				d.ends = append(d.ends, e+shift)
			}
			d.sums = append(d.sums, old.sums[j+1:]...)
			break
		}
	}
	d.seal()
	return d
}

// compareBlock is how many bytes commonPrefix and commonSuffix compare at a
// time, with bytes.Equal's vector instructions, before looking for the byte.
const compareBlock = 1 << 10

// commonPrefix returns how many bytes a and b start with in common.
func commonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	i := 0
	for i+compareBlock <= n && bytes.Equal(a[i:i+compareBlock], b[i:i+compareBlock]) {
		i += compareBlock
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// commonSuffix returns how many bytes a and b end with in common.
func commonSuffix(a, b []byte) int {
	n := min(len(a), len(b))
	i := 0
	for i+compareBlock <= n && bytes.Equal(a[len(a)-i-compareBlock:len(a)-i], b[len(b)-i-compareBlock:len(b)-i]) {
		i += compareBlock
	}
	for i < n && a[len(a)-1-i] == b[len(b)-1-i] {
		i++
	}
	return i
}

// buffers are the buffers files were read into, to be read into again: a
// fresh megabyte costs more to allocate than to fill.
var buffers sync.Pool

// getBuffer returns a buffer to read into, empty, of any capacity.
func getBuffer() []byte {
	if b, ok := buffers.Get().(*[]byte); ok {
		return (*b)[:0]
	}
	return nil
}

// putBuffer gives buf back to be read into again.
func putBuffer(buf []byte) {
	if cap(buf) > 0 && cap(buf) <= recentBudget {
		buffers.Put(&buf)
	}
}

// readInto reads the file at path, of about size bytes, into buf, or into
// a new buffer when buf is too small or much too large, and returns the
// content.
func readInto(path string, buf []byte, size int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return buf, err
	}
	defer f.Close()
	if int64(cap(buf)) <= size || int64(cap(buf)) > 2*size+64<<10 {
		putBuffer(buf)
		buf = make([]byte, 0, size+512)
	}
	buf = buf[:0]
	for {
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
	}
}

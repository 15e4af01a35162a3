package checkpoint

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
)

// A file's content is stored in content-defined chunks, each addressed by
// its SHA-256 and stored once, so that two versions of a large file share
// every chunk the change did not touch: the store grows with the bytes that
// changed, not with the file's size. The cut points come from a gear rolling
// hash over the content itself (as in FastCDC), so an insertion moves the
// cuts after it along with the bytes instead of shifting every later chunk.
const (
	// minChunk is the smallest chunk but a file's last; a file no larger is
	// one chunk.
	minChunk = 4 << 10
	// cutMask has 13 bits set: past minChunk, a cut comes on average every 8 KiB.
	cutMask = uint64(1<<13-1) << (64 - 13)
	// maxChunk is the largest chunk: content without a cut point is cut there.
	maxChunk = 64 << 10
)

// gear maps each byte to a fixed pseudo-random value for the rolling hash;
// splitmix64 from a fixed seed, so the cuts are the same in every run.
var gear = func() (t [256]uint64) {
	x := uint64(0x6d696e692d636c61)
	for i := range t {
		x += 0x9e3779b97f4a7c15
		z := x
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		t[i] = z ^ z>>31
	}
	return t
}()

// chunkEnd returns the length of the chunk data starts with: past
// minChunk, the first i at which the gear hash h = h<<1 + gear[data[i]] has
// none of cutMask's bits set cuts the chunk after data[i]. This is the one
// pass over every byte a first snapshot makes besides SHA-256's, so the loop
// takes two bytes a step: h two steps on is h<<2 + gear[a]<<1 + gear[b], one
// shift and add on the chain of dependent operations where the plain form
// has two, and the step between is found beside it. The compiler proves
// every index in bounds.
func chunkEnd(data []byte) int {
	if len(data) <= minChunk {
		return len(data)
	}
	end := min(len(data), maxChunk)
	var h uint64
	rest := data[minChunk:end]
	for ; len(rest) >= 2; rest = rest[2:] {
		a, b := gear[rest[0]], gear[rest[1]]
		half := h<<1 + a
		h = h<<2 + (a<<1 + b)
		if half&cutMask == 0 {
			return end - len(rest) + 1
		}
		if h&cutMask == 0 {
			return end - len(rest) + 2
		}
	}
	return end // a cut at a last odd byte would end the chunk there too
}

// digest is what a content is known by: its address, and where its chunks
// end with theirs. Its slices are never changed once it is made.
type digest struct {
	// id is the content's address: the SHA-256 of a content of one chunk;
	// of more, the SHA-256 of its chunks' sums, one after the other.
	id string
	// ends are where the chunks end, in order; sums are their addresses.
	ends []int
	sums []string
}

// fingerprint cuts data into its content-defined chunks and returns its
// digest; empty data is one empty chunk.
func fingerprint(data []byte) digest {
	var d digest
	for at := 0; ; {
		end := at + chunkEnd(data[at:])
		d.add(data[at:end], end)
		if at = end; at == len(data) {
			break
		}
	}
	d.seal()
	return d
}

// add appends the chunk part, which ends at end.
func (d *digest) add(part []byte, end int) {
	sum := sha256.Sum256(part)
	d.ends = append(d.ends, end)
	d.sums = append(d.sums, hex.EncodeToString(sum[:]))
}

// seal sets the content's address from its chunks'.
func (d *digest) seal() {
	if len(d.sums) == 1 {
		d.id = d.sums[0]
		return
	}
	manifest := make([]byte, 0, len(d.sums)*sha256.Size)
	for _, sum := range d.sums {
		manifest, _ = hex.AppendDecode(manifest, []byte(sum))
	}
	sum := sha256.Sum256(manifest)
	d.id = hex.EncodeToString(sum[:])
}

// parts returns the chunks of data, the content d is the digest of.
func (d digest) parts(data []byte) [][]byte {
	parts := make([][]byte, len(d.ends))
	at := 0
	for i, end := range d.ends {
		parts[i], at = data[at:end], end
	}
	return parts
}

// span is where a chunk lies in the pack.
type span struct {
	Sum string `json:"sha256"`
	Off int64  `json:"off"`
	Len int64  `json:"len"`
}

// pack is the store's chunks, appended one after the other to a single
// file: an append costs a write, where a file per chunk would cost a file's
// creation for each. Which chunk lies where is recorded in the index, by the
// entry whose snapshot added it, after the chunk is written.
type pack struct {
	path string
	// w appends, r reads; both are opened on first use.
	w, r *os.File
	size int64
	at   map[string]span
}

// add appends the chunks of data (whose digest is d) that the pack lacks
// and returns where they went. New chunks that follow one another in data
// are appended in one write: the first snapshot of a file, a write.
func (p *pack) add(data []byte, d digest) ([]span, error) {
	var added []span
	from, to := 0, 0 // data[from:to] are new chunks not yet written
	for i, end := range d.ends {
		begin, sum := 0, d.sums[i]
		if i > 0 {
			begin = d.ends[i-1]
		}
		if _, ok := p.at[sum]; ok || slices.ContainsFunc(added, func(s span) bool { return s.Sum == sum }) {
			continue
		}
		if begin != to {
			if err := p.write(data[from:to]); err != nil {
				return nil, err
			}
			from = begin
		}
		added = append(added, span{Sum: sum, Off: p.size + int64(begin-from), Len: int64(end - begin)})
		to = end
	}
	if len(added) > 0 {
		if err := p.write(data[from:to]); err != nil {
			return nil, err
		}
	}
	return added, nil
}

// write appends b to the pack, opening it on first use. After a failed
// write the pack is opened again, to learn where its end now is.
func (p *pack) write(b []byte) error {
	if p.w == nil {
		if err := p.open(); err != nil {
			return err
		}
	}
	if _, err := p.w.Write(b); err != nil {
		p.w.Close()
		p.w = nil
		return fmt.Errorf("store a checkpoint chunk: %w", err)
	}
	p.size += int64(len(b))
	return nil
}

// open opens the pack for appending, creating its folder; a torn tail a
// crash left is skipped, since no index line points into it.
func (p *pack) open() error {
	if err := os.MkdirAll(filepath.Dir(p.path), 0o700); err != nil {
		return fmt.Errorf("create the checkpoint folder: %w", err)
	}
	f, err := os.OpenFile(p.path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("open the checkpoint pack: %w", err)
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return fmt.Errorf("open the checkpoint pack: %w", err)
	}
	p.w, p.size = f, info.Size()
	return nil
}

// errDamaged says a chunk is missing from the pack or does not hold what its sum says.
var errDamaged = errors.New("the checkpoint store is missing or has damaged data for it")

// load returns the content made of the chunks sums, each checked against its sum.
func (p *pack) load(sums []string) ([]byte, error) {
	if p.r == nil {
		f, err := os.Open(p.path)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", errDamaged, err)
		}
		p.r = f
	}
	var out []byte
	for _, sum := range sums {
		s, ok := p.at[sum]
		if !ok {
			return nil, errDamaged
		}
		part := make([]byte, s.Len)
		if _, err := p.r.ReadAt(part, s.Off); err != nil && !(errors.Is(err, io.EOF) && s.Len == 0) {
			return nil, fmt.Errorf("%w: %v", errDamaged, err)
		}
		if got := sha256.Sum256(part); hex.EncodeToString(got[:]) != sum {
			return nil, errDamaged
		}
		out = append(out, part...)
	}
	return out, nil
}

// close closes the pack's files.
func (p *pack) close() error {
	var errs []error
	for _, f := range []*os.File{p.w, p.r} {
		if f != nil {
			errs = append(errs, f.Close())
		}
	}
	p.w, p.r = nil, nil
	return errors.Join(errs...)
}

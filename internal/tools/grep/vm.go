package grep

import (
	"regexp/syntax"
	"sync"
	"unicode"
	"unicode/utf8"
)

// vm runs a compiled pattern where Go's regexp package and ripgrep's engine
// disagree: \b and \B see Unicode word characters (Go's see ASCII only), and
// a search may start at any byte offset, inside a character too, with the
// text before it as context. It is a Pike VM (a breadth-first NFA simulation
// with leftmost-first priorities), so it never backtracks.
type vm struct {
	prog     *syntax.Prog
	machines sync.Pool
}

func newVM(tree *syntax.Regexp) (*vm, error) {
	prog, err := syntax.Compile(tree.Simplify())
	if err != nil {
		return nil, err
	}
	v := &vm{prog: prog}
	v.machines.New = func() any { return v.newMachine() }
	return v, nil
}

type thread struct {
	pc    uint32
	start int
}

// queue is a sparse set of program counters with the threads, in priority order.
type queue struct {
	sparse []uint32
	seen   []uint32
	dense  []thread
}

func (q *queue) has(pc uint32) bool {
	i := q.sparse[pc]
	return int(i) < len(q.seen) && q.seen[i] == pc
}

func (q *queue) mark(pc uint32) {
	q.sparse[pc] = uint32(len(q.seen))
	q.seen = append(q.seen, pc)
}

func (q *queue) reset() {
	q.seen, q.dense = q.seen[:0], q.dense[:0]
}

type machine struct {
	run, next queue
}

func (v *vm) newMachine() *machine {
	n := len(v.prog.Inst)
	return &machine{
		run:  queue{sparse: make([]uint32, n)},
		next: queue{sparse: make([]uint32, n)},
	}
}

// isWordChar is Unicode \w: letters, marks, decimal digits, connector
// punctuation and the join controls.
func isWordChar(r rune) bool {
	if r < utf8.RuneSelf {
		return r == '_' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
	}
	return unicode.IsLetter(r) || unicode.In(r, unicode.M, unicode.Nd, unicode.Nl, unicode.Pc) || r == 0x200C || r == 0x200D
}

// assertionsAt is what the zero-width assertions see at pos, as Rust's regex
// crate decides: \b needs a word character on exactly one side (invalid UTF-8
// is not one), and \B needs both sides to be valid UTF-8, or text ends.
func assertionsAt(text []byte, pos int) syntax.EmptyOp {
	var op syntax.EmptyOp
	before, beforeValid := rune(-1), true
	if pos > 0 {
		r, w := utf8.DecodeLastRune(text[:pos])
		before, beforeValid = r, r != utf8.RuneError || w > 1
	}
	after, afterValid := rune(-1), true
	if pos < len(text) {
		r, w := utf8.DecodeRune(text[pos:])
		after, afterValid = r, r != utf8.RuneError || w > 1
	}
	switch before {
	case -1:
		op |= syntax.EmptyBeginText | syntax.EmptyBeginLine
	case '\n':
		op |= syntax.EmptyBeginLine
	}
	switch after {
	case -1:
		op |= syntax.EmptyEndText | syntax.EmptyEndLine
	case '\n':
		op |= syntax.EmptyEndLine
	}
	if isWordChar(before) != isWordChar(after) {
		op |= syntax.EmptyWordBoundary
	} else if beforeValid && afterValid {
		op |= syntax.EmptyNoWordBoundary
	}
	return op
}

func runeAt(text []byte, pos int) (rune, int) {
	if pos >= len(text) {
		return -1, 0
	}
	return utf8.DecodeRune(text[pos:])
}

// findAt returns the leftmost-first match starting at or after from.
func (v *vm) findAt(text []byte, from int) (start, end int, found bool) {
	m := v.machines.Get().(*machine)
	defer v.machines.Put(m)
	run, next := &m.run, &m.next
	run.reset()
	next.reset()
	pos := from
	r, width := runeAt(text, pos)
	ctx := assertionsAt(text, pos)
	for {
		if !found {
			v.add(run, uint32(v.prog.Start), pos, ctx)
		}
		if len(run.dense) == 0 && (found || width == 0) {
			break
		}
		nextPos := pos + width
		nextRune, nextWidth := runeAt(text, nextPos)
		nextCtx := assertionsAt(text, nextPos)
		for _, t := range run.dense {
			inst := &v.prog.Inst[t.pc]
			if inst.Op == syntax.InstMatch {
				start, end, found = t.start, pos, true
				break
			}
			if width > 0 && matchRune(inst, r) {
				v.add(next, inst.Out, t.start, nextCtx)
			}
		}
		if width == 0 {
			break
		}
		pos, r, width, ctx = nextPos, nextRune, nextWidth, nextCtx
		run, next = next, run
		next.reset()
	}
	return start, end, found
}

func matchRune(inst *syntax.Inst, r rune) bool {
	switch inst.Op {
	case syntax.InstRune:
		return inst.MatchRune(r)
	case syntax.InstRune1:
		return r == inst.Rune[0]
	case syntax.InstRuneAny:
		return true
	case syntax.InstRuneAnyNotNL:
		return r != '\n'
	}
	return false
}

// add follows the empty transitions from pc in priority order and queues
// the threads that consume a rune or match.
func (v *vm) add(q *queue, pc uint32, start int, ctx syntax.EmptyOp) {
	if q.has(pc) {
		return
	}
	q.mark(pc)
	inst := &v.prog.Inst[pc]
	switch inst.Op {
	case syntax.InstFail:
	case syntax.InstAlt, syntax.InstAltMatch:
		v.add(q, inst.Out, start, ctx)
		v.add(q, inst.Arg, start, ctx)
	case syntax.InstEmptyWidth:
		if syntax.EmptyOp(inst.Arg)&^ctx == 0 {
			v.add(q, inst.Out, start, ctx)
		}
	case syntax.InstNop, syntax.InstCapture:
		v.add(q, inst.Out, start, ctx)
	default:
		q.dense = append(q.dense, thread{pc: pc, start: start})
	}
}

// Match reports whether text holds a match.
func (v *vm) Match(text []byte) bool {
	_, _, found := v.findAt(text, 0)
	return found
}

// FindIndex returns the first match.
func (v *vm) FindIndex(text []byte) []int {
	start, end, found := v.findAt(text, 0)
	if !found {
		return nil
	}
	return []int{start, end}
}

// FindAllIndex lists the matches as ripgrep's find_iter does: after an empty
// match the next search starts one byte further on, and an empty match right
// where the previous match ended is skipped.
func (v *vm) FindAllIndex(text []byte, n int) [][]int {
	var out [][]int
	at, lastEnd := 0, -1
	for at <= len(text) && (n < 0 || len(out) < n) {
		start, end, found := v.findAt(text, at)
		if !found {
			break
		}
		if start == end {
			at = end + 1
			if end == lastEnd {
				continue
			}
		} else {
			at = end
		}
		lastEnd = end
		out = append(out, []int{start, end})
	}
	return out
}

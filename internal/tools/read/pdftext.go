package read

import (
	"fmt"
	"math"
	"strings"

	"github.com/ledongthuc/pdf"
)

// pageText returns a page's text in the order it is drawn. PDFs place runs of
// glyphs rather than store lines, so it follows the text operators, works out
// where each run starts and ends, and breaks a line where the text moves to
// another line and puts a space where it leaves a gap.
func pageText(p pdf.Page) (text string, err error) {
	defer func() {
		if r := recover(); r != nil {
			text, err = "", fmt.Errorf("%v", r)
		}
	}()
	if p.V.IsNull() || p.V.Key("Contents").Kind() == pdf.Null {
		return "", nil
	}
	w := &textWalker{page: p, fonts: map[string]*fontInfo{}}
	w.state.ctm, w.state.scale = identity, 1
	pdf.Interpret(p.V.Key("Contents"), w.do)
	return ligatures.Replace(tidyLines(w.out.String())), nil
}

// matrix is a PDF transformation [a b c d e f]: x' = a·x + c·y + e, y' = b·x + d·y + f.
type matrix [6]float64

var identity = matrix{1, 0, 0, 1, 0, 0}

// then returns the transformation m followed by n.
func (m matrix) then(n matrix) matrix {
	return matrix{
		m[0]*n[0] + m[1]*n[2], m[0]*n[1] + m[1]*n[3],
		m[2]*n[0] + m[3]*n[2], m[2]*n[1] + m[3]*n[3],
		m[4]*n[0] + m[5]*n[2] + n[4], m[4]*n[1] + m[5]*n[3] + n[5],
	}
}

func translate(x, y float64) matrix { return matrix{1, 0, 0, 1, x, y} }

// textState is the part of the graphics state that places text.
type textState struct {
	ctm, tm, tlm                                  matrix
	font                                          *fontInfo
	size, charSpace, wordSpace, scale, lead, rise float64
}

// fontInfo is what a font needs to decode and measure its strings, read once per page.
type fontInfo struct {
	enc pdf.TextEncoding
	// twoByte fonts (Type0) use two bytes per character code.
	twoByte bool
	first   int
	widths  []float64
	// cidWidths and defaultWidth are the widths of a Type0 font's glyphs.
	cidWidths    map[int]float64
	defaultWidth float64
	// guess says the font gives no widths, so runs are measured at half an em a character.
	guess bool
}

// textWalker follows a page's content operators and writes its text.
type textWalker struct {
	page  pdf.Page
	fonts map[string]*fontInfo
	state textState
	saved []textState
	out   strings.Builder
	// started, prevX, prevY and prevEnd place the last run written.
	started               bool
	prevX, prevY, prevEnd float64
}

func (w *textWalker) do(stk *pdf.Stack, op string) {
	args := make([]pdf.Value, stk.Len())
	for i := len(args) - 1; i >= 0; i-- {
		args[i] = stk.Pop()
	}
	num := func(i int) float64 {
		if i < len(args) {
			return args[i].Float64()
		}
		return 0
	}
	s := &w.state
	switch op {
	case "q":
		w.saved = append(w.saved, *s)
	case "Q":
		if n := len(w.saved); n > 0 {
			*s, w.saved = w.saved[n-1], w.saved[:n-1]
		}
	case "cm":
		s.ctm = matrix{num(0), num(1), num(2), num(3), num(4), num(5)}.then(s.ctm)
	case "BT":
		s.tm, s.tlm = identity, identity
	case "Tf":
		if len(args) == 2 {
			s.font, s.size = w.font(args[0].Name()), num(1)
		}
	case "Tc":
		s.charSpace = num(0)
	case "Tw":
		s.wordSpace = num(0)
	case "Tz":
		s.scale = num(0) / 100
	case "TL":
		s.lead = num(0)
	case "Ts":
		s.rise = num(0)
	case "TD":
		s.lead = -num(1)
		w.move(num(0), num(1))
	case "Td":
		w.move(num(0), num(1))
	case "Tm":
		s.tm = matrix{num(0), num(1), num(2), num(3), num(4), num(5)}
		s.tlm = s.tm
	case "T*":
		w.move(0, -s.lead)
	case "Tj":
		w.showArgs(args, 0)
	case "'":
		w.move(0, -s.lead)
		w.showArgs(args, 0)
	case "\"":
		s.wordSpace, s.charSpace = num(0), num(1)
		w.move(0, -s.lead)
		w.showArgs(args, 2)
	case "TJ":
		if len(args) == 1 {
			w.showArray(args[0])
		}
	}
}

func (w *textWalker) move(tx, ty float64) {
	w.state.tlm = translate(tx, ty).then(w.state.tlm)
	w.state.tm = w.state.tlm
}

func (w *textWalker) showArgs(args []pdf.Value, i int) {
	if i < len(args) && args[i].Kind() == pdf.String {
		w.show(args[i].RawString())
	}
}

func (w *textWalker) showArray(arr pdf.Value) {
	for i := range arr.Len() {
		item := arr.Index(i)
		if item.Kind() == pdf.String {
			w.show(item.RawString())
			continue
		}
		s := &w.state
		s.tm = translate(-item.Float64()/1000*s.size*s.scale, 0).then(s.tm)
	}
}

// show writes one run of text and moves the text position past it.
func (w *textWalker) show(raw string) {
	s := &w.state
	start := matrix{s.size * s.scale, 0, 0, s.size, 0, s.rise}.then(s.tm).then(s.ctm)
	advance := 0.0
	text := raw
	if f := s.font; f != nil {
		text = f.enc.Decode(raw)
		step := 1
		if f.twoByte {
			step = 2
		}
		for i := 0; i+step <= len(raw); i += step {
			code := int(raw[i])
			if step == 2 {
				code = code<<8 | int(raw[i+1])
			}
			advance += f.width(code)/1000*s.size + s.charSpace
			if step == 1 && code == ' ' {
				advance += s.wordSpace
			}
		}
	}
	s.tm = translate(advance*s.scale, 0).then(s.tm)
	end := matrix{1, 0, 0, 1, 0, s.rise}.then(s.tm).then(s.ctm)
	size := math.Max(math.Hypot(start[2], start[3]), 1)
	w.write(text, start[4], start[5], end[4], size)
}

// write adds a run at (x, y) ending at endX, breaking the line or adding a
// space when its position says so.
func (w *textWalker) write(text string, x, y, endX, size float64) {
	text = strings.ReplaceAll(strings.ReplaceAll(text, "\r", ""), "\n", "")
	if text == "" {
		return
	}
	if w.started {
		switch {
		case math.Abs(y-w.prevY) > size/2 || x < w.prevX-size:
			w.out.WriteByte('\n')
		case x-w.prevEnd > size/5 && !strings.HasPrefix(text, " ") && !strings.HasSuffix(w.out.String(), " "):
			w.out.WriteByte(' ')
		}
	}
	w.out.WriteString(text)
	w.started = true
	w.prevX, w.prevY, w.prevEnd = x, y, math.Max(endX, x)
}

// font returns the page's font by resource name, reading it on first use.
func (w *textWalker) font(name string) *fontInfo {
	if f, ok := w.fonts[name]; ok {
		return f
	}
	font := w.page.Font(name)
	f := &fontInfo{enc: font.Encoder(), first: font.FirstChar(), widths: font.Widths(), defaultWidth: 1000}
	if font.V.Key("Subtype").Name() == "Type0" {
		f.twoByte = true
		desc := font.V.Key("DescendantFonts").Index(0)
		if dw := desc.Key("DW"); dw.Kind() == pdf.Integer || dw.Kind() == pdf.Real {
			f.defaultWidth = dw.Float64()
		}
		f.cidWidths = cidWidths(desc.Key("W"))
	}
	f.guess = !f.twoByte && len(f.widths) == 0
	w.fonts[name] = f
	return f
}

// width is the advance of a character code in thousandths of an em.
func (f *fontInfo) width(code int) float64 {
	switch {
	case f.twoByte:
		if w, ok := f.cidWidths[code]; ok {
			return w
		}
		return f.defaultWidth
	case f.guess:
		return 500
	case code >= f.first && code-f.first < len(f.widths):
		return f.widths[code-f.first]
	}
	return 0
}

// maxCIDWidths bounds the glyph widths read from a Type0 font, against
// malformed ranges that span the whole code space many times.
const maxCIDWidths = 1 << 16

// cidWidths reads a Type0 font's W array: "c [w1 w2 …]" gives widths from c
// on, "c1 c2 w" one width for c1 to c2.
func cidWidths(arr pdf.Value) map[int]float64 {
	widths := map[int]float64{}
	for i := 0; i < arr.Len() && len(widths) < maxCIDWidths; {
		first := int(arr.Index(i).Int64())
		next := arr.Index(i + 1)
		if next.Kind() == pdf.Array {
			for j := range min(next.Len(), maxCIDWidths) {
				widths[first+j] = next.Index(j).Float64()
			}
			i += 2
			continue
		}
		last, w := int(next.Int64()), arr.Index(i+2).Float64()
		for c := first; c <= last && len(widths) < maxCIDWidths; c++ {
			widths[c] = w
		}
		i += 3
	}
	return widths
}

// tidyLines trims the ends of lines and drops empty ones.
func tidyLines(s string) string {
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimRight(l, " \t"); strings.TrimSpace(l) != "" {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n")
}

// ligatures spells out the typographic ligatures PDFs often use, so the text
// can be searched for the words it shows.
var ligatures = strings.NewReplacer("\uFB00", "ff", "\uFB01", "fi", "\uFB02", "fl", "\uFB03", "ffi", "\uFB04", "ffl", "\uFB05", "st", "\uFB06", "st")

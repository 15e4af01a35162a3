package read

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/ledongthuc/pdf"

	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools/fileaccess"
)

const (
	// maxPDFPages is the most pages one read returns, and the page count
	// above which a read must say which pages it wants.
	maxPDFPages = 20
	// maxPDFInMemory is the largest PDF parsed from memory, which lets the
	// session record its hash; larger ones are parsed from the file.
	maxPDFInMemory = 32 << 20
)

// Page is the text of one page of a PDF.
type Page struct {
	Number int    `json:"number"`
	Text   string `json:"text"`
}

// pageRange is the pages a read asks for, first to last, from 1.
type pageRange struct{ first, last int }

// parsePages reads the pages parameter: "3" or "1-5".
func parsePages(s string) (pageRange, error) {
	bad := fmt.Errorf("pages %q is not a page range: give one page (\"3\") or a range (\"1-5\"), at most %d pages, counting from 1", s, maxPDFPages)
	from, to, isRange := strings.Cut(strings.TrimSpace(s), "-")
	first, err := strconv.Atoi(strings.TrimSpace(from))
	if err != nil || first < 1 {
		return pageRange{}, bad
	}
	last := first
	if isRange {
		if last, err = strconv.Atoi(strings.TrimSpace(to)); err != nil || last < first {
			return pageRange{}, bad
		}
	}
	if last-first+1 > maxPDFPages {
		return pageRange{}, fmt.Errorf("pages %q asks for %d pages; read at most %d per call, e.g. pages: \"%d-%d\"", s, last-first+1, maxPDFPages, first, first+maxPDFPages-1)
	}
	return pageRange{first, last}, nil
}

// readPDF returns the text of a PDF's pages: all of them when it has at most
// maxPDFPages, else those that pages names.
func readPDF(ctx context.Context, env *tool.Env, abs, real string, in Input) (Output, error) {
	f, info, err := openRegular(real)
	if err != nil {
		return Output{}, err
	}
	defer f.Close()
	var src io.ReaderAt = f
	var whole []byte
	if info.Size() <= maxPDFInMemory {
		if whole, err = io.ReadAll(f); err != nil {
			return Output{}, fmt.Errorf("read %s: %w", abs, err)
		}
		src = bytes.NewReader(whole)
	}
	out, err := runPDF(ctx, src, func(ctx context.Context, src io.ReaderAt) (Output, error) {
		return extractPDF(ctx, abs, src, info.Size(), in)
	})
	if err != nil {
		return Output{}, err
	}
	state := fileaccess.StateOf(env)
	if whole != nil && len(out.File.Pages) == out.File.TotalPages {
		state.RememberFull(abs, whole, info.ModTime())
	} else {
		state.RememberPart(abs, info.ModTime())
	}
	return out, nil
}

// pdfParseLimit bounds the time one PDF's text takes to read: the parser
// follows the file's references without looking for loops, so a damaged or
// hostile file can keep it reading for ever. A variable for the tests.
var pdfParseLimit = time.Minute

// runPDF runs the extraction from src on the caller's goroutine, turning the
// parser's panics on malformed files into errors. The parser takes no
// context, so it is stopped through its input: it reads every object it
// looks up from src anew, and src fails every read once ctx ends or
// pdfParseLimit has passed, so the parser stops at its next read.
func runPDF(ctx context.Context, src io.ReaderAt, extract func(context.Context, io.ReaderAt) (Output, error)) (out Output, err error) {
	limited, cancel := context.WithTimeout(ctx, pdfParseLimit)
	defer cancel()
	defer func() {
		r := recover()
		if r == nil && err == nil {
			return
		}
		out = Output{}
		switch {
		case ctx.Err() != nil:
			err = ctx.Err()
		case limited.Err() != nil:
			err = fmt.Errorf("reading the text of the PDF took longer than %v and was stopped; it may be damaged. Try a shell tool such as pdftotext", pdfParseLimit)
		case r != nil:
			err = fmt.Errorf("the PDF could not be parsed (%v); it may be damaged. Try a shell tool such as pdftotext", r)
		}
	}()
	return extract(limited, stopReader{limited, src})
}

// stopReader reads from r until ctx ends, and fails every read after.
type stopReader struct {
	ctx context.Context
	r   io.ReaderAt
}

func (s stopReader) ReadAt(p []byte, off int64) (int, error) {
	if err := s.ctx.Err(); err != nil {
		return 0, err
	}
	return s.r.ReadAt(p, off)
}

func extractPDF(ctx context.Context, abs string, src io.ReaderAt, size int64, in Input) (Output, error) {
	r, err := pdf.NewReader(versionShim{src}, size)
	switch {
	case errors.Is(err, pdf.ErrInvalidPassword):
		return Output{}, fmt.Errorf("%s is password-protected; ask the user for an unprotected copy", abs)
	case err != nil:
		return Output{}, fmt.Errorf("%s is not a PDF that can be read (%v); check it with Bash (file), or try pdftotext", abs, err)
	}
	total := r.NumPage()
	if total < 1 {
		return Output{}, fmt.Errorf("%s has no pages that can be read; it may be damaged. Try pdftotext with Bash", abs)
	}
	want := pageRange{1, total}
	switch {
	case in.Pages != "":
		if want, err = parsePages(in.Pages); err != nil {
			return Output{}, err
		}
	case total > maxPDFPages:
		return Output{}, fmt.Errorf("%s has %d pages, more than one read returns; say which pages you want with pages, at most %d per call, e.g. pages: \"1-%d\"", abs, total, maxPDFPages, maxPDFPages)
	}
	if want.first > total {
		return Output{}, fmt.Errorf("%s has %s; pages %q starts past the end. Ask for pages between 1 and %d", abs, plural(total, "page"), in.Pages, total)
	}
	want.last = min(want.last, total)
	budget := outputBudget
	if in.AllowLarge {
		budget = largeOutputBudget
	}
	file := File{FilePath: abs, TotalPages: total}
	if file.Pages, file.Notes, err = collectPages(ctx, r, want, budget); err != nil {
		return Output{}, err
	}
	if !hasText(file.Pages) {
		file.Notes = append(file.Notes, "[No text could be extracted: the PDF may hold scanned images. Turn pages into images with Bash (pdftoppm -png -r 100 -f 1 -l 1 FILE /tmp/page) and Read those.]")
	}
	if last := file.Pages[len(file.Pages)-1].Number; last == want.last && last < total {
		shown := fmt.Sprintf("pages %d-%d are", want.first, last)
		if want.first == last {
			shown = fmt.Sprintf("page %d is", last)
		}
		next := fmt.Sprintf("%d-%d", last+1, min(last+maxPDFPages, total))
		if last+1 == total {
			next = strconv.Itoa(total)
		}
		file.Notes = append(file.Notes, fmt.Sprintf("[The PDF has %d pages; %s shown. Read others with pages, e.g. pages: \"%s\".]", total, shown, next))
	}
	return Output{Type: KindPDF, File: file}, nil
}

// collectPages extracts the text of the pages in want until the budget is
// spent, and says where to continue when it is.
func collectPages(ctx context.Context, r *pdf.Reader, want pageRange, budget int) ([]Page, []string, error) {
	var pages []Page
	used := 0
	for n := want.first; n <= want.last; n++ {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		text, err := pageText(r.Page(n))
		if err != nil {
			text = fmt.Sprintf("(the text of this page could not be extracted: %v)", err)
		}
		if used+len(text) <= budget {
			used += len(text)
			pages = append(pages, Page{Number: n, Text: text})
			continue
		}
		var notes []string
		if len(pages) == 0 {
			pages = append(pages, Page{Number: n, Text: cutToRune(text, budget)})
			notes = append(notes, fmt.Sprintf("[Page %d is cut: its text is longer than one read of about %s tokens. Get the rest with Bash, e.g. pdftotext -f %d -l %d FILE - | tail -c +%d]", n, thousands(budget/4), n, n, budget))
			n++
		}
		if n <= want.last {
			notes = append(notes, fmt.Sprintf("[Pages %d-%d are not shown: the text did not fit in one read of about %s tokens. Continue with pages: \"%d-%d\".]", n, want.last, thousands(budget/4), n, want.last))
		}
		return pages, notes, nil
	}
	return pages, nil, nil
}

func hasText(pages []Page) bool {
	for _, p := range pages {
		if p.Text != "" {
			return true
		}
	}
	return false
}

// pdfText renders pages as <page number="N">text</page> blocks, one per page.
func pdfText(pages []Page) string {
	var b strings.Builder
	for i, p := range pages {
		if i > 0 {
			b.WriteByte('\n')
		}
		text := p.Text
		if text == "" {
			text = "(no text on this page: it may be a scanned image or a drawing)"
		}
		fmt.Fprintf(&b, "<page number=\"%d\">\n%s\n</page>", p.Number, text)
	}
	return b.String()
}

// versionShim shows a PDF 2.0 header as 1.7: the parser accepts only 1.x
// headers, and reads a 2.0 file's text the same way.
type versionShim struct{ io.ReaderAt }

func (v versionShim) ReadAt(p []byte, off int64) (int, error) {
	n, err := v.ReaderAt.ReadAt(p, off)
	if off == 0 && n >= 8 && bytes.HasPrefix(p, []byte("%PDF-2.")) {
		copy(p[5:8], "1.7")
	}
	return n, err
}

package read

import (
	"strings"

	"github.com/mini-claude/mini-claude/internal/llm"
)

// The kinds of file Read returns, as Output.Type.
const (
	KindText     = "text"
	KindImage    = "image"
	KindNotebook = "notebook"
	KindPDF      = "pdf"
)

// Output is what Read returns: the kind of file and what was read of it, in
// the shape Claude Code reports as a Read's tool_use_result.
type Output struct {
	Type string `json:"type"`
	File File   `json:"file"`
}

// File is what was read of a file; which fields are set depends on the kind.
type File struct {
	FilePath string `json:"filePath"`

	// Content holds the lines returned from a text file, LF-joined, without
	// line numbers or line ends.
	Content string `json:"content"`
	// NumLines is the number of lines in Content.
	NumLines int `json:"numLines,omitempty"`
	// StartLine is the number of the first line in Content.
	StartLine int `json:"startLine,omitempty"`
	// TotalLines is the number of lines in the file, when the read learned it.
	TotalLines int `json:"totalLines,omitempty"`

	// Image is the image sent to the model, and Dimensions its size before and after scaling.
	Image      *llm.ImageSource `json:"image,omitempty"`
	Dimensions *Dimensions      `json:"dimensions,omitempty"`
	// OriginalSize is the size of the file in bytes.
	OriginalSize int64 `json:"originalSize,omitempty"`

	// Cells are a notebook's cells.
	Cells []Cell `json:"cells,omitempty"`

	// Pages are the pages read from a PDF, and TotalPages how many it has.
	Pages      []Page `json:"pages,omitempty"`
	TotalPages int    `json:"totalPages,omitempty"`

	// Reminder stands in for content when there is none to show: an empty
	// file, or an offset past the end.
	Reminder string `json:"reminder,omitempty"`
	// Notes follow the content: where to continue, what was left out.
	Notes []string `json:"notes,omitempty"`
}

// ForStorage drops what was read, keeping what it was and how much, as
// Claude Code does on resume: a text file's content, an image's data, a
// PDF's page text and a notebook's cells (their number stays, as empty cells
// where Claude Code keeps nulls).
func (o Output) ForStorage() any {
	f := &o.File
	switch o.Type {
	case KindText:
		f.Content = ""
	case KindImage:
		if f.Image != nil {
			image := *f.Image
			image.Data = ""
			f.Image = &image
		}
	case KindPDF:
		f.Pages = make([]Page, len(f.Pages))
	case KindNotebook:
		f.Cells = make([]Cell, len(f.Cells))
	}
	return o
}

// Dimensions are an image's size in pixels as stored and as sent.
type Dimensions struct {
	OriginalWidth  int `json:"originalWidth"`
	OriginalHeight int `json:"originalHeight"`
	DisplayWidth   int `json:"displayWidth"`
	DisplayHeight  int `json:"displayHeight"`
}

// toBlocks turns a Read's output into the tool_result content the model reads.
func toBlocks(out Output) []llm.ContentBlock {
	f := out.File
	switch out.Type {
	case KindImage:
		return []llm.ContentBlock{{Type: llm.BlockImage, Source: f.Image}}
	case KindNotebook:
		return withNotes(notebookBlocks(f.Cells), f.Notes)
	case KindPDF:
		return withNotes([]llm.ContentBlock{llm.TextBlock(pdfText(f.Pages))}, f.Notes)
	}
	if f.NumLines == 0 {
		return []llm.ContentBlock{llm.TextBlock(f.Reminder)}
	}
	text := numbered(f.StartLine, strings.Split(f.Content, "\n"))
	return withNotes([]llm.ContentBlock{llm.TextBlock(text)}, f.Notes)
}

// withNotes appends each note to the last text block, after a blank line, or
// as a text block of its own when the content ends with an image.
func withNotes(blocks []llm.ContentBlock, notes []string) []llm.ContentBlock {
	for _, note := range notes {
		if n := len(blocks); n > 0 && blocks[n-1].Type == llm.BlockText {
			blocks[n-1].Text += "\n\n" + note
			continue
		}
		blocks = append(blocks, llm.TextBlock(note))
	}
	return blocks
}

// reminder wraps text the way Claude Code marks notes from the harness.
func reminder(text string) string {
	return "<system-reminder>" + text + "</system-reminder>"
}

package read

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools/fileaccess"
)

const (
	// maxCellOutputs is the size, in characters of text and image data, of a
	// cell's outputs above which Claude Code replaces them with a hint.
	maxCellOutputs = 10_000
	// maxNotebookBytes refuses notebook files too large to parse in one piece.
	maxNotebookBytes = 64 << 20
)

// Cell is a notebook cell as Read shows it.
type Cell struct {
	ID   string `json:"cellId"`
	Type string `json:"cellType"`
	// Language is the notebook's language, set on code cells.
	Language string       `json:"language,omitempty"`
	Source   string       `json:"source"`
	Outputs  []CellOutput `json:"outputs,omitempty"`
}

// CellOutput is one output of a code cell: its text, an image, or both.
type CellOutput struct {
	Text  string           `json:"text,omitempty"`
	Image *llm.ImageSource `json:"image,omitempty"`
}

// notebookFile is the part of the .ipynb format Read shows.
type notebookFile struct {
	Cells []struct {
		CellType string      `json:"cell_type"`
		ID       string      `json:"id"`
		Source   multiline   `json:"source"`
		Outputs  []rawOutput `json:"outputs"`
	} `json:"cells"`
	Metadata struct {
		LanguageInfo struct {
			Name string `json:"name"`
		} `json:"language_info"`
		Kernelspec struct {
			Language string `json:"language"`
		} `json:"kernelspec"`
	} `json:"metadata"`
}

type rawOutput struct {
	OutputType string               `json:"output_type"`
	Text       multiline            `json:"text"`
	Data       map[string]multiline `json:"data"`
	Ename      string               `json:"ename"`
	Evalue     string               `json:"evalue"`
	Traceback  []string             `json:"traceback"`
}

// multiline is a notebook string, stored either whole or as a list of lines.
type multiline string

func (m *multiline) UnmarshalJSON(b []byte) error {
	var lines []string
	if err := json.Unmarshal(b, &lines); err == nil {
		*m = multiline(strings.Join(lines, ""))
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		*m = ""
		return nil
	}
	*m = multiline(s)
	return nil
}

// readNotebook returns a notebook's cells with their outputs.
func readNotebook(ctx context.Context, env *tool.Env, abs, real string, in Input) (Output, error) {
	f, info, err := openRegular(real)
	if err != nil {
		return Output{}, err
	}
	defer f.Close()
	if info.Size() > maxNotebookBytes {
		return Output{}, fmt.Errorf("notebook %s is %d MB, too large to read whole. Read its cells with Bash and jq, e.g. jq '.cells[0:10]' %s", abs, info.Size()>>20, shellQuote(abs))
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return Output{}, fmt.Errorf("read %s: %w", abs, err)
	}
	var nb notebookFile
	if err := json.Unmarshal(data, &nb); err != nil {
		return Output{}, fmt.Errorf("notebook %s is not valid JSON (it may be truncated, corrupted, or still being written): %v. Read it as text with Bash (cat) to see what is wrong", abs, err)
	}
	if err := ctx.Err(); err != nil {
		return Output{}, err
	}
	cells := notebookCells(nb, abs)
	budget := outputBudget
	if in.AllowLarge {
		budget = largeOutputBudget
	}
	if size := notebookTextSize(cells); size > budget {
		return Output{}, fmt.Errorf("notebook %s comes to about %s tokens of text, more than one read returns (about %s). Read some cells at a time with Bash and jq, e.g. jq '.cells[0:10]' %s",
			abs, thousands(size/4), thousands(budget/4), shellQuote(abs))
	}
	fileaccess.StateOf(env).RememberFull(abs, data, info.ModTime())
	return Output{Type: KindNotebook, File: File{FilePath: abs, Cells: cells}}, nil
}

// notebookCells turns the file's cells into what Read shows, as Claude Code
// does: cells without an id are called cell-N, and a cell whose outputs are
// too large shows a hint to read them with jq instead.
func notebookCells(nb notebookFile, path string) []Cell {
	language := nb.Metadata.LanguageInfo.Name
	if language == "" {
		language = nb.Metadata.Kernelspec.Language
	}
	if language == "" {
		language = "python"
	}
	cells := make([]Cell, len(nb.Cells))
	for i, raw := range nb.Cells {
		c := Cell{ID: raw.ID, Type: raw.CellType, Source: string(raw.Source)}
		if c.ID == "" {
			c.ID = fmt.Sprintf("cell-%d", i)
		}
		if c.Type == "code" {
			c.Language = language
			for _, o := range raw.Outputs {
				if out, ok := cellOutput(o); ok {
					c.Outputs = append(c.Outputs, out)
				}
			}
		}
		if outputsSize(c.Outputs) > maxCellOutputs {
			c.Outputs = []CellOutput{{Text: fmt.Sprintf("Outputs are too large to include. Use Bash with: cat %s | jq '.cells[%d].outputs'", shellQuote(path), i)}}
		}
		cells[i] = c
	}
	return cells
}

// cellOutput is what Read shows of one output: stream text, the plain text
// and PNG or JPEG image of a result, or an error with its traceback.
func cellOutput(o rawOutput) (CellOutput, bool) {
	switch o.OutputType {
	case "stream":
		return CellOutput{Text: string(o.Text)}, true
	case "execute_result", "display_data":
		out := CellOutput{Text: string(o.Data["text/plain"])}
		for _, mediaType := range []string{"image/png", "image/jpeg"} {
			if data, ok := o.Data[mediaType]; ok {
				out.Image = &llm.ImageSource{Type: "base64", MediaType: mediaType, Data: strings.Join(strings.Fields(string(data)), "")}
				break
			}
		}
		if out.Text == "" && out.Image == nil {
			if kind := imageKind(o.Data); kind != "" {
				out.Text = "[" + kind + " output not shown]"
			}
		}
		return out, true
	case "error":
		return CellOutput{Text: o.Ename + ": " + o.Evalue + "\n" + strings.Join(o.Traceback, "\n")}, true
	}
	return CellOutput{}, false
}

// imageKind names an image type among an output's data that Read cannot show.
func imageKind(data map[string]multiline) string {
	kind := ""
	for mediaType := range data {
		if strings.HasPrefix(mediaType, "image/") && (kind == "" || mediaType < kind) {
			kind = mediaType
		}
	}
	return kind
}

func outputsSize(outputs []CellOutput) int {
	size := 0
	for _, o := range outputs {
		size += utf8.RuneCountInString(o.Text)
		if o.Image != nil {
			size += len(o.Image.Data)
		}
	}
	return size
}

func notebookTextSize(cells []Cell) int {
	size := 0
	for _, c := range cells {
		size += len(c.ID)*2 + len(c.Source) + 40
		for _, o := range c.Outputs {
			size += len(o.Text) + 2
		}
	}
	return size
}

// notebookBlocks renders cells the way Claude Code's Read does: each cell as
// <cell id="ID">source</cell id="ID"> (with the cell type for non-code cells
// and the language for code cells not in Python), each output's text after
// it on a new line, output images as image blocks, adjacent texts joined by
// a newline.
func notebookBlocks(cells []Cell) []llm.ContentBlock {
	var blocks []llm.ContentBlock
	add := func(b llm.ContentBlock) {
		if n := len(blocks); n > 0 && b.Type == llm.BlockText && blocks[n-1].Type == llm.BlockText {
			blocks[n-1].Text += "\n" + b.Text
			return
		}
		blocks = append(blocks, b)
	}
	for _, c := range cells {
		meta := ""
		switch {
		case c.Type != "code":
			meta = "<cell_type>" + c.Type + "</cell_type>"
		case c.Language != "python":
			meta = "<language>" + c.Language + "</language>"
		}
		add(llm.TextBlock(fmt.Sprintf(`<cell id="%s">%s%s</cell id="%s">`, c.ID, meta, c.Source, c.ID)))
		for _, o := range c.Outputs {
			if o.Text != "" {
				add(llm.TextBlock("\n" + o.Text))
			}
			if o.Image != nil {
				add(llm.ContentBlock{Type: llm.BlockImage, Source: o.Image})
			}
		}
	}
	if len(blocks) == 0 {
		blocks = append(blocks, llm.TextBlock(reminder("Warning: the notebook exists but has no cells.")))
	}
	return blocks
}

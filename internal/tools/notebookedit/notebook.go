package notebookedit

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Depths of the parts of a notebook in its JSON tree: the top object, the
// cells list, each cell, and each cell's values.
const (
	cellsDepth = 1
	cellDepth  = 2
	valueDepth = 3
)

// cellHead is what NotebookEdit needs to know of a cell to find and change it.
type cellHead struct {
	ID       string          `json:"id"`
	CellType string          `json:"cell_type"`
	Source   json.RawMessage `json:"source"`
}

// notebook is a parsed .ipynb file that writes back in its own layout, with
// every cell that was not edited kept byte for byte.
type notebook struct {
	top    object
	cells  []json.RawMessage
	heads  []cellHead
	layout layout
	// ids says whether cells carry ids (nbformat 4.5 and later).
	ids bool
	// listSources says whether sources are written as lists of lines, as Jupyter does.
	listSources bool
}

func parseNotebook(data []byte) (*notebook, error) {
	top, err := parseObject(data)
	if err != nil {
		return nil, fmt.Errorf("it is not valid JSON: %s", describeJSONError(err))
	}
	nb := &notebook{top: top, layout: detectLayout(data), listSources: true}
	var major, minor int
	json.Unmarshal(top.get("nbformat"), &major)
	json.Unmarshal(top.get("nbformat_minor"), &minor)
	if major < 4 {
		return nil, fmt.Errorf("it is in nbformat %d, and only nbformat 4 notebooks can be edited; convert it with `jupyter nbconvert --to notebook --nbformat 4`", major)
	}
	raw := top.get("cells")
	if raw == nil || json.Unmarshal(raw, &nb.cells) != nil {
		return nil, errors.New(`it has no "cells" list`)
	}
	nb.ids = major > 4 || minor >= 5
	sourceSeen := false
	for i, cell := range nb.cells {
		var head cellHead
		if err := json.Unmarshal(cell, &head); err != nil {
			return nil, fmt.Errorf("cell %d is not a JSON object", i)
		}
		nb.heads = append(nb.heads, head)
		nb.ids = nb.ids || head.ID != ""
		if len(head.Source) > 0 && !sourceSeen {
			nb.listSources, sourceSeen = head.Source[0] == '[', true
		}
	}
	return nb, nil
}

// find returns the index of the cell with the given id; "cell-N" names the
// N-th cell (from 0), as Read shows cells that have no id.
func (nb *notebook) find(id string) (int, bool) {
	for i, h := range nb.heads {
		if id != "" && h.ID == id {
			return i, true
		}
	}
	if n, ok := strings.CutPrefix(id, "cell-"); ok {
		if i, err := strconv.Atoi(n); err == nil && i >= 0 && i < len(nb.heads) {
			return i, true
		}
	}
	return 0, false
}

// names lists the cells the way find accepts them, the first 20 of them.
func (nb *notebook) names() string {
	var names []string
	for i, h := range nb.heads {
		if i == 20 {
			names = append(names, fmt.Sprintf("… (%d cells in all)", len(nb.heads)))
			break
		}
		if h.ID != "" {
			names = append(names, h.ID)
		} else {
			names = append(names, fmt.Sprintf("cell-%d", i))
		}
	}
	if len(names) == 0 {
		return "it has no cells"
	}
	return "its cells are " + strings.Join(names, ", ")
}

// replace gives cell i a new source and, when cellType is set, a new type. A
// code cell's outputs and execution count are cleared: they belong to the old source.
func (nb *notebook) replace(i int, source, cellType string) error {
	cell, err := parseObject(nb.cells[i])
	if err != nil {
		return fmt.Errorf("cell %d: %w", i, err)
	}
	head := nb.heads[i]
	if cellType == "" {
		cellType = head.CellType
	}
	asList := nb.listSources
	if len(head.Source) > 0 {
		asList = head.Source[0] == '['
	}
	if err := nb.fill(&cell, cellType, source, asList); err != nil {
		return err
	}
	nb.cells[i] = nb.layout.object(cell, cellDepth)
	nb.heads[i].CellType = cellType
	return nil
}

// fill sets a cell's type and source and, for code, empty outputs; other
// cell types have no outputs.
func (nb *notebook) fill(cell *object, cellType, source string, asList bool) error {
	set := func(key string, value any) error {
		raw, err := nb.layout.encode(value, valueDepth)
		if err != nil {
			return fmt.Errorf("encode the cell's %s: %w", key, err)
		}
		cell.set(key, raw)
		return nil
	}
	err := errors.Join(set("cell_type", cellType), set("source", sourceValue(source, asList)))
	if cellType != "code" {
		cell.remove("outputs")
		cell.remove("execution_count")
		return err
	}
	return errors.Join(err, set("outputs", []any{}), set("execution_count", nil))
}

// insert adds a cell at index at and returns the name Read will show for it.
func (nb *notebook) insert(at int, source, cellType string) (string, error) {
	name := fmt.Sprintf("cell-%d", at)
	cell := object{{key: "cell_type"}}
	if cellType == "code" {
		cell = append(cell, member{key: "execution_count"})
	}
	if nb.ids {
		name = nb.newID()
		raw, _ := nb.layout.encode(name, valueDepth)
		cell = append(cell, member{key: "id", value: raw})
	}
	cell = append(cell, member{key: "metadata", value: json.RawMessage("{}")})
	if cellType == "code" {
		cell = append(cell, member{key: "outputs"})
	}
	cell = append(cell, member{key: "source"})
	if err := nb.fill(&cell, cellType, source, nb.listSources); err != nil {
		return "", err
	}
	nb.cells = append(nb.cells[:at], append([]json.RawMessage{nb.layout.object(cell, cellDepth)}, nb.cells[at:]...)...)
	nb.heads = append(nb.heads[:at], append([]cellHead{{ID: name, CellType: cellType}}, nb.heads[at:]...)...)
	return name, nil
}

func (nb *notebook) delete(i int) {
	nb.cells = append(nb.cells[:i], nb.cells[i+1:]...)
	nb.heads = append(nb.heads[:i], nb.heads[i+1:]...)
}

// newCellID returns a random 8-hex-digit cell id, like Jupyter's; tests replace it.
var newCellID = func() string {
	b := make([]byte, 4)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// newID returns a cell id no cell of the notebook has.
func (nb *notebook) newID() string {
	for {
		id := newCellID()
		if _, taken := nb.find(id); !taken {
			return id
		}
	}
}

// bytes writes the notebook back in its layout.
func (nb *notebook) bytes() []byte {
	top := append(object(nil), nb.top...)
	top.set("cells", nb.layout.array(nb.cells, cellsDepth))
	out := nb.layout.object(top, 0)
	if nb.layout.trailingNewline {
		out = append(out, nb.layout.eol...)
	}
	return out
}

// sourceValue is a cell source as Jupyter writes it: a list of lines, each
// but the last ending in "\n", or one string.
func sourceValue(source string, asList bool) any {
	if !asList {
		return source
	}
	lines := []string{}
	for source != "" {
		i := strings.IndexByte(source, '\n')
		if i < 0 {
			lines = append(lines, source)
			break
		}
		lines = append(lines, source[:i+1])
		source = source[i+1:]
	}
	return lines
}

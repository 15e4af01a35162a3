package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// scenario is one scripted task both agents run: its files and the model's
// turns, each step done with the agent's own tools; a successful run makes
// one request per turn.
type scenario struct {
	name  string
	setup func(dir string) error
	turns func(dir string, tools toolset) []llmtest.Turn
	// reset, when set, restores the files before every run.
	reset func(dir string) error
	// check, when set, confirms the files show the run's work.
	check func(dir string) error
	// expect lists texts that some tool result must hold.
	expect []string
}

const (
	treeReads   = 8
	treeFiles   = 20000
	treeDirs    = 200
	editTurns   = 49
	bashBytes   = 50 << 20
	fileForRead = "notes.txt"
)

func scenarios() []scenario {
	return []scenario{
		{name: "1. one text-only turn", setup: noFiles, turns: func(string, toolset) []llmtest.Turn {
			return []llmtest.Turn{textTurn("Hello.")}
		}},
		{name: "2. Read, Bash `echo hi`, text", setup: oneFile, turns: readBashText, expect: []string{"a line of notes", "hi"}},
		{name: "3. 8 Reads + 4 Greps in one turn, 20,000-file tree", setup: fileTree, turns: treeTurns, expect: []string{"is needle-"}},
		{name: "4. 50 turns of Edit/Read on one file", expect: []string{"entry 48: pending"}, setup: editFile, reset: editFile, check: checkEdited, turns: editTurnsScript},
		{name: "5. Bash printing 50 MB", setup: noFiles, expect: []string{"0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklm"}, turns: func(_ string, tools toolset) []llmtest.Turn {
			cmd := fmt.Sprintf("yes 0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklm | head -c %d", bashBytes)
			return []llmtest.Turn{toolTurn(tools.bash(cmd)), textTurn("Printed.")}
		}},
	}
}

func noFiles(string) error { return nil }

func oneFile(dir string) error {
	return os.WriteFile(filepath.Join(dir, fileForRead), []byte(strings.Repeat("a line of notes\n", 40)), 0o644)
}

func readBashText(dir string, tools toolset) []llmtest.Turn {
	return []llmtest.Turn{
		toolTurn(tools.read(filepath.Join(dir, fileForRead))),
		toolTurn(tools.bash("echo hi")),
		textTurn("Done."),
	}
}

// treeTurns reads eight files of the tree and runs four searches over it,
// all in one turn.
func treeTurns(dir string, tools toolset) []llmtest.Turn {
	var blocks []llm.ContentBlock
	for i := range treeReads {
		blocks = append(blocks, tools.read(treePath(dir, i*(treeDirs/treeReads), i)))
	}
	for _, pattern := range []string{"needle-17", "func main", "value [0-9]+ is", "TODO"} {
		blocks = append(blocks, tools.grep(pattern, dir))
	}
	return []llmtest.Turn{toolTurn(blocks...), textTurn("Read them all.")}
}

func treePath(dir string, d, f int) string {
	return filepath.Join(dir, "tree", fmt.Sprintf("pkg%03d", d), fmt.Sprintf("file%03d.go", f))
}

func fileTree(dir string) error {
	for d := range treeDirs {
		if err := os.MkdirAll(filepath.Dir(treePath(dir, d, 0)), 0o755); err != nil {
			return err
		}
		for f := range treeFiles / treeDirs {
			body := fmt.Sprintf("package pkg%03d\n\n// value %d is needle-%d\nfunc F%d() int { return %d }\n", d, f, (d*f)%97, f, d*f)
			if err := os.WriteFile(treePath(dir, d, f), []byte(body), 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}

const editFileName = "counter.txt"

func editLine(i int, state string) string { return fmt.Sprintf("entry %02d: %s", i, state) }

func editFile(dir string) error {
	var b strings.Builder
	for i := range editTurns {
		b.WriteString(editLine(i, "pending") + "\n")
	}
	return os.WriteFile(filepath.Join(dir, editFileName), []byte(b.String()), 0o644)
}

// editTurnsScript reads the file once, then changes one line per turn, so
// every Edit finds its old string exactly once and the file changes step by step.
func editTurnsScript(dir string, tools toolset) []llmtest.Turn {
	path := filepath.Join(dir, editFileName)
	turns := []llmtest.Turn{toolTurn(tools.read(path))}
	for i := range editTurns {
		turns = append(turns, toolTurn(tools.edit(path, editLine(i, "pending"), editLine(i, "done"))))
	}
	return append(turns, textTurn("All entries done."))
}

// checkEdited confirms the edit scenario changed every line.
func checkEdited(dir string) error {
	data, err := os.ReadFile(filepath.Join(dir, editFileName))
	if err != nil {
		return err
	}
	if n := strings.Count(string(data), ": done"); n != editTurns {
		return fmt.Errorf("%s has %d edited lines, want %d", editFileName, n, editTurns)
	}
	return nil
}

func jsonInput(v map[string]any) string {
	data, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(data)
}

func textTurn(s string) llmtest.Turn {
	return llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text(s)}}
}

func toolTurn(blocks ...llm.ContentBlock) llmtest.Turn { return llmtest.Turn{Blocks: blocks} }

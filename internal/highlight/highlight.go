// Package highlight colours source code for the terminal with chroma's
// lexers. Chroma's own lexers package parses all of its ~280 lexer
// definitions when the program starts (7 ms and 2.7 MB of allocations on
// every run, headless ones included), so the definitions are generated into
// this package instead (lexers/, index_gen.go) and a lexer is loaded the first
// time a file of its language is shown.
package highlight

//go:generate go run ./gen

import (
	"path/filepath"
	"strings"
	"sync"

	"github.com/alecthomas/chroma/v2"
)

// Segment is a run of source text and the "#rrggbb" colour of its syntax
// class, "" for text drawn in the terminal's own colour.
type Segment struct {
	Text  string
	Color string
}

// maxSource is the most source text coloured at once; larger sources are left
// plain, so drawing a huge file never waits on the lexer.
const maxSource = 16 << 10

// maxEmptyTokens is how many empty tokens in a row show that a lexer is stuck
// without consuming its input (chroma's Jungle lexer does that on some
// text); the source is then left plain instead of hanging the caller.
const maxEmptyTokens = 64

// File colours source in the language of the file name path: one slice of
// segments per line of source, newlines left out. It returns nil when no
// lexer knows the file name or the source is too large to colour.
func File(path, source string) [][]Segment {
	return colour(lexerFor(filepath.Base(path)), source)
}

// lexers remembers the lexer chosen for each file name: choosing one tries
// every glob of every lexer, which costs more than colouring a short hunk.
var lexers = struct {
	sync.Mutex
	byName map[string]chroma.Lexer
}{byName: map[string]chroma.Lexer{}}

// maxRemembered bounds the file names remembered; past it they are forgotten.
const maxRemembered = 4096

func lexerFor(name string) chroma.Lexer {
	lexers.Lock()
	defer lexers.Unlock()
	if l, ok := lexers.byName[name]; ok {
		return l
	}
	if len(lexers.byName) >= maxRemembered {
		clear(lexers.byName)
	}
	l := registry().Match(name)
	lexers.byName[name] = l
	return l
}

// Language colours source in the language a name or alias such as "go" or
// "python" names (a fenced code block's info string), like File.
func Language(name, source string) [][]Segment {
	if name == "" {
		return nil
	}
	return colour(registry().Get(name), source)
}

func colour(lexer chroma.Lexer, source string) (lines [][]Segment) {
	if lexer == nil || len(source) > maxSource {
		return nil
	}
	// Chroma's emitters panic on a definition they cannot run; the source is
	// then shown plain.
	defer func() {
		if recover() != nil {
			lines = nil
		}
	}()
	tokens, err := lexer.Tokenise(&chroma.TokeniseOptions{State: "root"}, source)
	if err != nil {
		return nil
	}
	want := strings.Count(source, "\n") + 1
	lines = make([][]Segment, 1, want)
	empty := 0
	for t := tokens(); t != chroma.EOF; t = tokens() {
		if t.Value == "" {
			if empty++; empty > maxEmptyTokens {
				return nil
			}
			continue
		}
		empty = 0
		c := tokenColour(t.Type)
		for i, part := range strings.Split(t.Value, "\n") {
			if i > 0 {
				lines = append(lines, nil)
			}
			if part == "" {
				continue
			}
			last := &lines[len(lines)-1]
			if n := len(*last); n > 0 && (*last)[n-1].Color == c {
				(*last)[n-1].Text += part
			} else {
				*last = append(*last, Segment{Text: part, Color: c})
			}
		}
	}
	if len(lines) > want {
		lines = lines[:want]
	}
	return lines
}

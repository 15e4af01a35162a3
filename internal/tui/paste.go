package tui

import (
	"fmt"
	"strings"
)

// A paste longer than these limits is shown in the input as a placeholder,
// "[Pasted text #1 +120 lines]", and sent in full.
const (
	pasteMaxChars = 800
	pasteMaxLines = 10
)

// pastes holds the large pastes of the input being written, by placeholder.
type pastes struct {
	texts []string
}

// add returns what to insert into the input for a paste: the text itself, or
// a placeholder for a large one.
func (p *pastes) add(text string) string {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	lines := strings.Count(text, "\n")
	if len(text) <= pasteMaxChars && lines <= pasteMaxLines {
		return text
	}
	p.texts = append(p.texts, text)
	return placeholder(len(p.texts), lines)
}

// expand replaces the placeholders in input with the texts they stand for.
func (p *pastes) expand(input string) string {
	for i, text := range p.texts {
		input = strings.Replace(input, placeholder(i+1, strings.Count(text, "\n")), text, 1)
	}
	return input
}

func placeholder(n, lines int) string {
	return fmt.Sprintf("[Pasted text #%d +%d lines]", n, lines)
}

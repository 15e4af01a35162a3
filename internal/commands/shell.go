package commands

import (
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Shell is one shell command a command's text runs before it is sent: a
// ```! fenced block, or !`command` after the start of a line or a blank.
type Shell struct {
	// Raw is the text as written, which the command's output replaces.
	Raw string
	// Command is what runs.
	Command string
}

// fencedShell is a ```! block.
var fencedShell = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("(?s)```!\\s*\\n?(.*?)\\n?```") })

// inlineCode is a `code` span, which hides a !`…` inside it.
var inlineCode = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("`[^`\\n]+`") })

// ShellCommands returns the shell commands of a command's text as Claude
// Code finds them: the ```! blocks, then the !`…` spans, each in text order.
// A !`…` inside a `code` span is text, not a command.
func ShellCommands(text string) []Shell {
	var out []Shell
	add := func(raw, command string) {
		command = strings.ReplaceAll(strings.TrimSpace(command), "\r\n", "\n")
		if command != "" {
			out = append(out, Shell{Raw: raw, Command: command})
		}
	}
	for _, m := range fencedShell().FindAllStringSubmatch(text, -1) {
		add(m[0], m[1])
	}
	if !strings.Contains(text, "!`") {
		return out
	}
	masked := maskCode(text)
	for i := 0; i+1 < len(masked); i++ {
		if masked[i] != '!' || masked[i+1] != '`' {
			continue
		}
		if i > 0 {
			prev, _ := utf8.DecodeLastRuneInString(masked[:i])
			if !unicode.IsSpace(prev) {
				continue
			}
		}
		end := strings.IndexByte(masked[i+2:], '`')
		if end <= 0 {
			continue
		}
		raw := masked[i : i+2+end+1]
		add(raw, raw[2:len(raw)-1])
		i += len(raw) - 1
	}
	return out
}

// maskCode blanks the inside of each `code` span not opened right after a
// ! or a backquote, keeping every offset.
func maskCode(text string) string {
	return replaceAllIndex(inlineCode(), text, func(start, end int) string {
		if start > 0 && (text[start-1] == '!' || text[start-1] == '`') {
			return text[start:end]
		}
		return "`" + strings.Repeat(" ", end-start-2) + "`"
	})
}

func replaceAllIndex(re *regexp.Regexp, text string, repl func(start, end int) string) string {
	var b strings.Builder
	last := 0
	for _, loc := range re.FindAllStringIndex(text, -1) {
		b.WriteString(text[last:loc[0]])
		b.WriteString(repl(loc[0], loc[1]))
		last = loc[1]
	}
	b.WriteString(text[last:])
	return b.String()
}

// ReplaceShell puts each command's output in place of its first occurrence
// in text, as Claude Code does.
func ReplaceShell(text string, shells []Shell, outputs []string) string {
	for i, s := range shells {
		text = strings.Replace(text, s.Raw, outputs[i], 1)
	}
	return text
}

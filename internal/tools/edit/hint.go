package edit

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

const (
	// maxQuoted is how much of old_string an error quotes.
	maxQuoted = 2000
	// maxHintFileSize is the largest file searched for lines like a missed old_string.
	maxHintFileSize = 16 << 20
	// maxHintLines is how many lines of a near match an error shows.
	maxHintLines = 30
	// maxHintLineLen is how much of each shown line an error keeps.
	maxHintLineLen = 500
)

// readPrefix is the "  12\t" a line of Read output starts with.
var readPrefix = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*\d+\t`) })

// notFound is the error for an old_string that is not in the file: it quotes
// the string and shows the lines most like it, when some are.
func notFound(path, content, old string, changed bool) error {
	var b strings.Builder
	fmt.Fprintf(&b, "String to replace not found in %s.\nString: %s\n", path, quote(old))
	if changed {
		b.WriteString("The file has changed on disk since you read it, which may be why. ")
	}
	if hasReadPrefixes(old) {
		b.WriteString("old_string starts each line with a line number and a tab, as Read shows lines; those are not part of the file. " +
			"Remove them, keep the text after the tab exactly, and try again.")
		return errors.New(b.String())
	}
	if len(content) > maxHintFileSize {
		b.WriteString("The file is too large to look for similar lines in; find the text you mean with Grep, Read those lines, and copy old_string from them exactly.")
		return errors.New(b.String())
	}
	lines := strings.Split(content, "\n")
	want := significantLines(old)
	w, ok := closest(lines, want)
	if !ok {
		b.WriteString("No lines of the file resemble it. Read the file again and copy old_string from its current content exactly, whitespace included.")
		return errors.New(b.String())
	}
	switch {
	case w.same == w.count && w.count == 1:
		fmt.Fprintf(&b, "Line %s of the file matches it except for whitespace:\n", w.lines())
	case w.same == w.count:
		fmt.Fprintf(&b, "Lines %s of the file match it except for whitespace:\n", w.lines())
	case w.count == 1:
		fmt.Fprintf(&b, "The closest line in the file is %s:\n", w.lines())
	default:
		verb := "differ"
		if w.count-w.same == 1 {
			verb = "differs"
		}
		fmt.Fprintf(&b, "The closest lines in the file are %s (%d of %d lines %s beyond whitespace):\n", w.lines(), w.count-w.same, w.count, verb)
	}
	for i := w.first; i < w.first+min(w.count, maxHintLines); i++ {
		line := strings.TrimSuffix(lines[i], "\r")
		if len(line) > maxHintLineLen {
			line = truncate(line, maxHintLineLen) + "…"
		}
		fmt.Fprintf(&b, "%d\t%s\n", i+1, line)
	}
	if w.count > maxHintLines {
		fmt.Fprintf(&b, "… (%d more lines)\n", w.count-maxHintLines)
	}
	if w.same == w.count {
		for _, d := range whitespaceDiffs(lines[w.first:w.first+w.count], want, w.first) {
			b.WriteString(d + "\n")
		}
	}
	b.WriteString("If these are the lines you meant, copy old_string from them exactly, whitespace included, leaving out each line's number and the tab after it.")
	return errors.New(b.String())
}

// tooMany is the error for an old_string that matches several places when
// replace_all is false; it names the lines the matches start on.
func tooMany(path, content, old string, spans []span) error {
	return fmt.Errorf("Found %d matches of the string to replace in %s (starting on lines %s), but replace_all is false. "+
		"Add surrounding lines to old_string so it matches only the place you mean, or set replace_all to true to change every match.\nString: %s",
		len(spans), path, startLines(content, spans), quote(old))
}

// startLines lists the line numbers the spans start on, the first ten of them.
func startLines(content string, spans []span) string {
	var nums []string
	line, from := 1, 0
	for i, s := range spans {
		if i == 10 {
			nums = append(nums, "…")
			break
		}
		line += strings.Count(content[from:s.start], "\n")
		from = s.start
		nums = append(nums, strconv.Itoa(line))
	}
	return strings.Join(nums, ", ")
}

func quote(s string) string {
	if len(s) <= maxQuoted {
		return s
	}
	head := truncate(s, maxQuoted)
	return head + fmt.Sprintf("… (%d more characters)", utf8.RuneCountInString(s[len(head):]))
}

// truncate cuts s to at most n bytes without splitting a character.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

func hasReadPrefixes(old string) bool {
	numbered := false
	for _, line := range strings.Split(strings.TrimRight(old, "\r\n"), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		if !readPrefix().MatchString(line) {
			return false
		}
		numbered = true
	}
	return numbered
}

// whitespaceDiffs says, line by line, how the file's indentation and trailing
// whitespace differ from want's, for lines that are otherwise the same.
func whitespaceDiffs(lines, want []string, first int) []string {
	var diffs []string
	for j, line := range lines {
		line = strings.TrimSuffix(line, "\r")
		if j >= len(want) || len(diffs) == 5 || lineKey(line) != lineKey(want[j]) {
			continue
		}
		fileLead, wantLead := leadingSpace(line), leadingSpace(want[j])
		fileTrail, wantTrail := trailingSpace(line), trailingSpace(want[j])
		n := first + j + 1
		switch {
		case fileLead != wantLead:
			diffs = append(diffs, fmt.Sprintf("Line %d is indented with %s in the file, with %s in old_string.", n, spaces(fileLead), spaces(wantLead)))
		case fileTrail != wantTrail:
			diffs = append(diffs, fmt.Sprintf("Line %d ends with %s in the file, with %s in old_string.", n, spaces(fileTrail), spaces(wantTrail)))
		case line != want[j]:
			diffs = append(diffs, fmt.Sprintf("Line %d differs in the spaces inside it.", n))
		}
	}
	return diffs
}

// spaces names a run of whitespace, quoted so tabs show as \t.
func spaces(ws string) string {
	if ws == "" {
		return "nothing"
	}
	return strconv.Quote(ws)
}

func leadingSpace(s string) string  { return s[:len(s)-len(strings.TrimLeft(s, " \t"))] }
func trailingSpace(s string) string { return s[len(strings.TrimRight(s, " \t")):] }

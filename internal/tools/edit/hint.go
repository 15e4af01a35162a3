package edit

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

const (
	// maxQuoted is how much of old_string an error quotes.
	maxQuoted = 2000
	// maxHintWork bounds the line comparisons spent looking for a near match.
	maxHintWork = 20_000_000
	// maxHintLines is how many lines of a near match an error shows.
	maxHintLines = 30
	// maxHintLineLen is how much of each shown line an error keeps.
	maxHintLineLen = 500
)

// readPrefix is the "  12\t" a line of Read output starts with.
var readPrefix = regexp.MustCompile(`^\s*\d+\t`)

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
		return fmt.Errorf("%s", b.String())
	}
	lines := strings.Split(content, "\n")
	want := significantLines(old)
	w, ok := closest(lines, want)
	if !ok {
		b.WriteString("No lines of the file resemble it. Read the file again and copy old_string from its current content exactly, whitespace included.")
		return fmt.Errorf("%s", b.String())
	}
	switch {
	case w.alike < w.count:
		fmt.Fprintf(&b, "The closest lines are %s (%d of %d lines alike):\n", w.lines(), w.alike, w.count)
	case w.count == 1:
		fmt.Fprintf(&b, "Line %s of the file matches it except for whitespace:\n", w.lines())
	default:
		fmt.Fprintf(&b, "Lines %s of the file match it except for whitespace:\n", w.lines())
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
	if w.alike == w.count {
		for _, d := range whitespaceDiffs(lines[w.first:w.first+w.count], want, w.first) {
			b.WriteString(d + "\n")
		}
	}
	b.WriteString("Copy old_string from these lines exactly, whitespace included, leaving out each line's number and the tab after it.")
	return fmt.Errorf("%s", b.String())
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
		if !readPrefix.MatchString(line) {
			return false
		}
		numbered = true
	}
	return numbered
}

// window is a run of the file's lines that resembles old_string: count lines
// from index first, of which alike match it line by line.
type window struct{ first, count, alike int }

func (w window) lines() string {
	if w.count == 1 {
		return strconv.Itoa(w.first + 1)
	}
	return fmt.Sprintf("%d-%d", w.first+1, w.first+w.count)
}

// significantLines splits old into lines, without the blank lines it starts or ends with.
func significantLines(old string) []string {
	lines := strings.Split(strings.ReplaceAll(old, "\r\n", "\n"), "\n")
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// closest finds the window of lines most like want, comparing line by line
// with whitespace removed and quotes unified: want's first line may be the end
// of a file line, its last line the start of one, and a single line any part
// of a line. It needs at least half the lines alike.
func closest(lines, want []string) (window, bool) {
	m := len(want)
	if m == 0 || m > len(lines) || len(lines)*m > maxHintWork {
		return window{}, false
	}
	wantKeys := make([]string, m)
	for i, l := range want {
		wantKeys[i] = lineKey(l)
	}
	keys := make([]string, len(lines))
	for i, l := range lines {
		keys[i] = lineKey(l)
	}
	var best window
	for start := 0; start+m <= len(lines); start++ {
		alike := 0
		for j := range m {
			if lineAlike(keys[start+j], wantKeys[j], j, m) {
				alike++
			}
		}
		if alike > best.alike {
			best = window{first: start, count: m, alike: alike}
		}
	}
	return best, best.alike > 0 && 2*best.alike >= m
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

func lineAlike(line, want string, j, m int) bool {
	switch {
	case m == 1:
		return strings.Contains(line, want)
	case j == 0:
		return strings.HasSuffix(line, want)
	case j == m-1:
		return strings.HasPrefix(line, want)
	}
	return line == want
}

// lineKey is a line with its whitespace removed and its quotes made straight.
func lineKey(line string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case unicode.IsSpace(r):
			return -1
		case strings.ContainsRune(singleQuotes, r):
			return '\''
		case strings.ContainsRune(doubleQuotes, r):
			return '"'
		}
		return r
	}, line)
}

package edit

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

const (
	// maxHintWork bounds the line comparisons spent looking for a near match.
	maxHintWork = 20_000_000
	// maxFuzzyWork bounds the character comparisons spent on edit distances.
	maxFuzzyWork = 50_000_000
)

// window is a run of the file's lines that resembles old_string: count lines
// from index first, of which same differ from it only in whitespace and
// similar are a few characters off.
type window struct{ first, count, same, similar int }

func (w window) score() int { return 2*w.same + w.similar }

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
// of a file line, its last line the start of one, a single line any part of a
// line, and a line a few characters off counts as similar. At least half the
// lines must be the same or similar.
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
	budget := maxFuzzyWork
	var best window
	for start := 0; start+m <= len(lines); start++ {
		w := window{first: start, count: m}
		for j := range m {
			switch {
			case lineAlike(keys[start+j], wantKeys[j], j, m):
				w.same++
			case nearlyEqual(keys[start+j], wantKeys[j], &budget):
				w.similar++
			}
		}
		if w.score() > best.score() {
			best = w
		}
	}
	return best, best.score() > 0 && 2*(best.same+best.similar) >= m
}

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

// nearlyEqual reports whether a and b are within an edit distance of a fifth
// of the longer (at least one edit), spending len(a)*len(b) from budget; once
// the budget is spent it says no.
func nearlyEqual(a, b string, budget *int) bool {
	limit := max(1, max(len(a), len(b))/5)
	if a == "" || b == "" || len(a)-len(b) > limit || len(b)-len(a) > limit || len(a)*len(b) > *budget {
		return false
	}
	*budget -= len(a) * len(b)
	return editDistance(a, b, limit) <= limit
}

// editDistance is the Levenshtein distance of a and b in bytes, or limit+1 as
// soon as it must exceed limit.
func editDistance(a, b string, limit int) int {
	prev := make([]int, len(b)+1)
	row := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		row[0] = i
		lowest := row[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			row[j] = min(prev[j]+1, row[j-1]+1, prev[j-1]+cost)
			lowest = min(lowest, row[j])
		}
		if lowest > limit {
			return limit + 1
		}
		prev, row = row, prev
	}
	return prev[len(b)]
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

package tui

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// maxCandidates is how many completions the hint under the input lists.
const maxCandidates = 8

// completeMention completes the "@path" mention that ends input, the way a
// shell completes a path: from the entries of the directory typed so far,
// relative to cwd. It returns the new input and, when several entries fit,
// their names for a hint; ok is false when input does not end in a mention.
func completeMention(input, cwd string) (completed string, candidates []string, ok bool) {
	at := strings.LastIndexByte(input, '@')
	if at < 0 || strings.ContainsAny(input[at:], " \t\n") || (at > 0 && !strings.ContainsRune(" \t\n", rune(input[at-1]))) {
		return input, nil, false
	}
	partial := input[at+1:]
	dir, prefix := filepath.Split(partial)
	base := dir
	if !filepath.IsAbs(base) {
		base = filepath.Join(cwd, dir)
	}
	entries, err := os.ReadDir(base)
	if err != nil {
		return input, nil, true
	}
	var names []string
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, prefix) || (strings.HasPrefix(name, ".") && !strings.HasPrefix(prefix, ".")) {
			continue
		}
		if e.IsDir() {
			name += "/"
		}
		names = append(names, name)
	}
	slices.Sort(names)
	if len(names) == 0 {
		return input, nil, true
	}
	common := names[0]
	for _, n := range names[1:] {
		for !strings.HasPrefix(n, common) {
			common = common[:len(common)-1]
		}
	}
	completed = input[:at+1] + dir + common
	if len(names) == 1 {
		if !strings.HasSuffix(common, "/") {
			completed += " "
		}
		return completed, nil, true
	}
	if len(names) > maxCandidates {
		names = append(names[:maxCandidates], "…")
	}
	return completed, names, true
}

package llm

import "strings"

// DefaultContextWindow is the context window assumed for a model the table
// does not know (a local model, say): small enough to be safe for most.
const DefaultContextWindow = 128_000

// contextWindows maps a model name to its context window in tokens; like
// prices, an entry also covers the names that extend it after a dash.
var contextWindows = map[string]int{
	"claude": 200_000,

	"gpt-5":         400_000,
	"gpt-5.1":       400_000,
	"gpt-5.2":       400_000,
	"gpt-5.3-codex": 400_000,
	"gpt-5.4":       400_000,
	"gpt-4.1":       1_047_576,
	"gpt-4o":        128_000,
	"o1":            200_000,
	"o1-mini":       128_000,
	"o3":            200_000,
	"o3-mini":       200_000,
	"o4-mini":       200_000,
}

// oneMillionSuffix marks a Claude model name asked for with the 1M-token
// context window, as Claude Code spells it ("claude-sonnet-4-5[1m]").
const oneMillionSuffix = "[1m]"

// ContextWindow returns the context window of model in tokens:
// DefaultContextWindow for a model the table does not know.
func ContextWindow(model string) int {
	if strings.HasSuffix(strings.ToLower(model), oneMillionSuffix) {
		return 1_000_000
	}
	if window, ok := longestPrefix(contextWindows, model); ok {
		return window
	}
	return DefaultContextWindow
}

// longestPrefix returns the entry of table whose name is model or starts it
// before a dash, the longest such name winning.
func longestPrefix[V any](table map[string]V, model string) (V, bool) {
	best, found := "", false
	for name := range table {
		rest, ok := strings.CutPrefix(model, name)
		if ok && (rest == "" || rest[0] == '-') && len(name) >= len(best) {
			best, found = name, true
		}
	}
	var zero V
	if !found {
		return zero, false
	}
	return table[best], true
}

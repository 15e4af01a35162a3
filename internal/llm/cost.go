package llm

import "strings"

// price is the US-dollar cost of a million tokens of each kind.
type price struct {
	input, output, cacheWrite, cacheRead float64
}

// prices maps a model name to its list price; it also prices the names that
// extend it after a dash (dated snapshots, "-latest", "-codex"), the longest
// such entry winning, so "gpt-5" prices "gpt-5-codex" but not "gpt-5.5".
// Anthropic cache writes cost 1.25x input, cache reads 0.1x. OpenAI reports
// no cache writes; its cache reads are the cached-input price.
var prices = map[string]price{
	"claude-opus-4-0":   {15, 75, 18.75, 1.5},
	"claude-opus-4-1":   {15, 75, 18.75, 1.5},
	"claude-opus-4":     {5, 25, 6.25, 0.5},
	"claude-opus-5":     {5, 25, 6.25, 0.5},
	"claude-sonnet-4":   {3, 15, 3.75, 0.3},
	"claude-sonnet-5":   {3, 15, 3.75, 0.3},
	"claude-3-7-sonnet": {3, 15, 3.75, 0.3},
	"claude-haiku-4":    {1, 5, 1.25, 0.1},
	"claude-3-5-haiku":  {0.8, 4, 1, 0.08},

	"gpt-5.4":       {2.5, 15, 2.5, 0.25},
	"gpt-5.4-mini":  {0.75, 4.5, 0.75, 0.075},
	"gpt-5.4-nano":  {0.2, 1.25, 0.2, 0.02},
	"gpt-5.3-codex": {1.75, 14, 1.75, 0.175},
	"gpt-5.2":       {1.75, 14, 1.75, 0.175},
	"gpt-5.2-pro":   {21, 168, 21, 21},
	"gpt-5.1":       {1.25, 10, 1.25, 0.125},
	"gpt-5":         {1.25, 10, 1.25, 0.125},
	"gpt-5-mini":    {0.25, 2, 0.25, 0.025},
	"gpt-5-nano":    {0.05, 0.4, 0.05, 0.005},
	"gpt-5-pro":     {15, 120, 15, 15},
	"gpt-4.1":       {2, 8, 2, 0.5},
	"gpt-4.1-mini":  {0.4, 1.6, 0.4, 0.1},
	"gpt-4.1-nano":  {0.1, 0.4, 0.1, 0.025},
	"gpt-4o":        {2.5, 10, 2.5, 1.25},
	"gpt-4o-mini":   {0.15, 0.6, 0.15, 0.075},
	"o1":            {15, 60, 15, 7.5},
	"o1-mini":       {1.1, 4.4, 1.1, 0.55},
	"o3":            {2, 8, 2, 0.5},
	"o3-mini":       {1.1, 4.4, 1.1, 0.55},
	"o3-pro":        {20, 80, 20, 20},
	"o4-mini":       {1.1, 4.4, 1.1, 0.275},
}

// Cost returns the US-dollar cost of usage on model at list prices; unknown
// models (local ones, say) cost 0.
func Cost(model string, u Usage) float64 {
	best, found := "", false
	for name := range prices {
		rest, ok := strings.CutPrefix(model, name)
		if ok && (rest == "" || rest[0] == '-') && len(name) > len(best) {
			best, found = name, true
		}
	}
	if !found {
		return 0
	}
	p := prices[best]
	return (float64(u.InputTokens)*p.input + float64(u.OutputTokens)*p.output +
		float64(u.CacheCreationInputTokens)*p.cacheWrite + float64(u.CacheReadInputTokens)*p.cacheRead) / 1e6
}

package llm

import "strings"

// price is the US-dollar cost of a million tokens of each kind.
type price struct {
	input, output, cacheWrite, cacheRead float64
}

// prices maps a model-name prefix to its list price; the longest matching
// prefix wins. Cache writes cost 1.25x input, cache reads 0.1x.
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
}

// Cost returns the US-dollar cost of usage on model at list prices; unknown
// models (local ones, say) cost 0.
func Cost(model string, u Usage) float64 {
	best, found := "", false
	for prefix := range prices {
		if strings.HasPrefix(model, prefix) && len(prefix) > len(best) {
			best, found = prefix, true
		}
	}
	if !found {
		return 0
	}
	p := prices[best]
	return (float64(u.InputTokens)*p.input + float64(u.OutputTokens)*p.output +
		float64(u.CacheCreationInputTokens)*p.cacheWrite + float64(u.CacheReadInputTokens)*p.cacheRead) / 1e6
}

package toolsearch

import (
	"cmp"
	"encoding/json"
	"slices"
	"strings"
	"unicode"

	"github.com/mini-claude/mini-claude/internal/tool"
)

// Points a query term earns in each place it is found; a term that names a
// whole part of a tool's name counts most, and more for MCP tools, whose
// names say what their server is for.
const (
	namePartPoints    = 10
	mcpNamePartPoints = 12
	nameSubstrPoints  = 5
	fullNamePoints    = 3
	hintPoints        = 4
	paramPoints       = 2
	descriptionPoints = 2
)

// candidate is a tool prepared for ranking: the words of its name, hint,
// description and parameter names, lower-cased.
type candidate struct {
	tool        tool.Tool
	mcp         bool
	full        string
	nameParts   []string
	hint        []string
	description []string
	params      []string
}

func prepare(t tool.Tool) candidate {
	return candidate{
		tool:        t,
		mcp:         IsMCP(t),
		full:        strings.ToLower(t.Name()),
		nameParts:   nameParts(t.Name()),
		hint:        words(t.SearchHint()),
		description: words(t.Description()),
		params:      paramWords(t.InputSchema()),
	}
}

// rank returns the tools that match query, best first (ties in pool order),
// at most limit. A term written "+term" must appear in the tool's name, hint
// or description; the other terms only add to the score.
func rank(ts []tool.Tool, query string, limit int) []tool.Tool {
	var required, terms []string
	for _, term := range strings.Fields(strings.ToLower(query)) {
		if rest, ok := strings.CutPrefix(term, "+"); ok && rest != "" {
			required = append(required, rest)
			terms = append(terms, rest)
			continue
		}
		terms = append(terms, term)
	}
	type scored struct {
		tool  tool.Tool
		score int
		order int
	}
	var hits []scored
	for i, t := range ts {
		c := prepare(t)
		if !allMentioned(c, required) {
			continue
		}
		score := 0
		for _, term := range terms {
			score += c.score(term)
		}
		if score > 0 {
			hits = append(hits, scored{t, score, i})
		}
	}
	slices.SortFunc(hits, func(a, b scored) int {
		return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(a.order, b.order))
	})
	out := make([]tool.Tool, 0, min(limit, len(hits)))
	for _, h := range hits[:min(limit, len(hits))] {
		out = append(out, h.tool)
	}
	return out
}

func allMentioned(c candidate, required []string) bool {
	for _, term := range required {
		if !c.mentions(term) {
			return false
		}
	}
	return true
}

// mentions reports whether term appears in the tool's name, hint or description.
func (c candidate) mentions(term string) bool {
	return strings.Contains(c.full, term) || hasWord(c.hint, term) || hasWord(c.description, term)
}

func (c candidate) score(term string) int {
	score := 0
	switch {
	case slices.Contains(c.nameParts, term) && c.mcp:
		score += mcpNamePartPoints
	case slices.Contains(c.nameParts, term):
		score += namePartPoints
	case slices.ContainsFunc(c.nameParts, func(p string) bool { return strings.Contains(p, term) }):
		score += nameSubstrPoints
	case strings.Contains(c.full, term):
		score += fullNamePoints
	}
	if hasWord(c.hint, term) {
		score += hintPoints
	}
	if hasWord(c.params, term) {
		score += paramPoints
	}
	if hasWord(c.description, term) {
		score += descriptionPoints
	}
	return score
}

// hasWord reports whether a word of ws is term, or starts with a term of at
// least three letters ("notebook" finds "notebooks").
func hasWord(ws []string, term string) bool {
	return slices.ContainsFunc(ws, func(w string) bool {
		return w == term || len(term) >= 3 && strings.HasPrefix(w, term)
	})
}

// nameParts splits a tool name into lower-case words: at the "__" and "_" of
// mcp__server__tool, at "-", and at CamelCase humps ("NotebookEdit" gives
// notebook and edit).
func nameParts(name string) []string {
	var parts []string
	for _, chunk := range strings.FieldsFunc(name, func(r rune) bool { return r == '_' || r == '-' }) {
		parts = append(parts, camelWords(chunk)...)
	}
	return parts
}

func camelWords(s string) []string {
	var out []string
	runes := []rune(s)
	start := 0
	for i := 1; i < len(runes); i++ {
		upperAfterLower := unicode.IsUpper(runes[i]) && unicode.IsLower(runes[i-1])
		acronymEnd := unicode.IsUpper(runes[i]) && i+1 < len(runes) && unicode.IsLower(runes[i+1]) && unicode.IsUpper(runes[i-1])
		if upperAfterLower || acronymEnd {
			out = append(out, strings.ToLower(string(runes[start:i])))
			start = i
		}
	}
	return append(out, strings.ToLower(string(runes[start:])))
}

// words splits text into lower-case words of letters and digits.
func words(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// paramWords returns the words of the top-level parameter names of a schema.
func paramWords(schema json.RawMessage) []string {
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if json.Unmarshal(schema, &s) != nil {
		return nil
	}
	var out []string
	for name := range s.Properties {
		out = append(out, nameParts(name)...)
	}
	return out
}

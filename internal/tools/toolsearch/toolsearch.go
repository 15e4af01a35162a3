// Package toolsearch keeps the prompt small when many tools are configured:
// Offer leaves deferred tools (ShouldDefer, and MCP tools past a share of the
// context window) out of the tools sent to the model, whose system prompt
// lists only their names; the ToolSearch tool finds them by name or keyword,
// returns their definitions and loads them, so they are sent from the next
// request on, after the tools sent from the start.
//
// Claude Code answers ToolSearch with tool_reference blocks that the
// Anthropic API expands into tools declared with defer_loading. Chat
// completions has no such blocks, so mini-claude uses one design for every
// provider: the definitions in the result text, in the <functions> encoding
// Claude Code's own ToolSearch description promises, and the loaded tools
// appended to the tools array.
package toolsearch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/tool"
)

// Name is the name of the ToolSearch tool.
const Name = "ToolSearch"

// defaultMaxResults is the number of keyword matches returned when the query does not say.
const defaultMaxResults = 5

// NoMatch starts the result of a search that found nothing, in Claude Code's words.
const NoMatch = "No matching deferred tools found"

const description = `Loads deferred tools so that you can call them.

To keep the prompt small, some tools are offered by name only: the system prompt lists them under <available-deferred-tools>, without their parameters. Search them with this tool. The result gives the complete definition of each match inside a <functions> block, one <function>{"description": "...", "name": "...", "parameters": {...}}</function> line per tool, and from then on each match is callable like any other tool.

Ways to query:
- "select:WebFetch,NotebookEdit" loads exactly the tools named
- "jupyter notebook" ranks the deferred tools by these words (names, descriptions, parameters) and loads the best max_results
- "+github issue" keeps only tools that mention "github", ranked by the other words`

// Input is what the model sends to ToolSearch.
type Input struct {
	Query      string   `json:"query" jsonschema_description:"Query to find deferred tools. Use \"select:<tool_name>\" for direct selection, or keywords to search."`
	MaxResults *float64 `json:"max_results,omitempty" jsonschema:"default=5" jsonschema_description:"Maximum number of results to return (default: 5)"`
}

// Output is what a search found: the definitions of the tools it loaded, and
// the selected names that match no tool.
type Output struct {
	Query   string
	Tools   []llm.ToolSpec
	Missing []string
	// Problems give the status of each MCP server the search waited for
	// that did not connect; Connecting names the servers still connecting.
	// Both are left out of the output's JSON when empty, as before there were any.
	Problems   []string `json:",omitempty"`
	Connecting []string `json:",omitempty"`
}

// Tool is the ToolSearch tool. It is always sent when any tool is deferred and
// never deferred itself.
var Tool = tool.MustBuild(tool.Def[Input, Output]{
	Name:               Name,
	SearchHint:         "find and load deferred tools by keyword or name",
	Description:        description,
	MaxResultSizeChars: 100_000,
	AlwaysLoad:         true,
	IsReadOnly:         tool.Always[Input],
	// Serial, so tools are loaded in the order the model asked for them.
	IsConcurrencySafe: tool.Never[Input],
	ValidateInput:     validate,
	Call:              search,
	MapResult:         render,
})

func validate(_ context.Context, in Input, _ *tool.Env) error {
	if strings.TrimSpace(in.Query) == "" {
		return errors.New(`query is empty: give keywords describing the capability you need, or "select:<name>" with a name from <available-deferred-tools>`)
	}
	if in.MaxResults != nil && (*in.MaxResults < 1 || *in.MaxResults != math.Trunc(*in.MaxResults)) {
		return fmt.Errorf("max_results must be a whole number of at least 1, not %v; leave it out for %d", *in.MaxResults, defaultMaxResults)
	}
	return nil
}

// search finds the tools a query asks for. With MCP servers still
// connecting, it first waits for those the query names; a keyword query that
// finds nothing among the tools known waits for all of them and searches
// again. Each wait is bounded by the server's start-up timeout.
func search(ctx context.Context, in Input, env *tool.Env, _ tool.Progress) (Output, error) {
	st := stateOf(env.Session)
	pool, deferred := st.snapshot()
	query := strings.TrimSpace(in.Query)
	limit := defaultMaxResults
	if in.MaxResults != nil {
		limit = int(*in.MaxResults)
	}
	list, selecting := cutSelect(query)
	c := tool.ConnectingOf(env.Session)
	var problems, connecting []string
	if c != nil {
		if named := namedServers(c, query, list, c.Pending()); len(named) > 0 {
			problems = await(ctx, c, named)
			pool, deferred = st.refresh(c.Pool())
		}
	}
	find := func() ([]tool.Tool, []string) {
		if selecting {
			return selectByName(list, deferred, pool)
		}
		return byKeyword(query, deferred, limit), nil
	}
	found, missing := find()
	if c != nil {
		if pending := c.Pending(); len(found) == 0 && !selecting && len(pending) > 0 {
			problems = append(problems, await(ctx, c, pending)...)
			pool, deferred = st.refresh(c.Pool())
			found, missing = find()
		}
		connecting = c.Pending()
	}
	st.load(found)
	out := Output{Query: query, Missing: missing, Problems: problems, Connecting: connecting}
	for _, t := range found {
		out.Tools = append(out.Tools, t.Spec())
	}
	return out, nil
}

// cutSelect returns the names of a "select:A,B" query.
func cutSelect(query string) ([]string, bool) {
	prefix, rest, ok := strings.Cut(query, ":")
	if !ok || !strings.EqualFold(strings.TrimSpace(prefix), "select") {
		return nil, false
	}
	var names []string
	for _, name := range strings.Split(rest, ",") {
		if name = strings.TrimSpace(name); name != "" && !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	return names, true
}

// selectByName finds each name among the deferred tools, then among the
// rest of the pool (a tool already sent is returned again, harmlessly),
// exactly or else ignoring case; a name ending in * selects the deferred tools
// whose names start with the rest (mcp__<server>__*, every tool of a server).
func selectByName(names []string, deferred, pool []tool.Tool) (found []tool.Tool, missing []string) {
	for _, name := range names {
		if prefix, ok := strings.CutSuffix(name, "*"); ok {
			matched := false
			for _, t := range deferred {
				if strings.HasPrefix(t.Name(), prefix) && !slices.Contains(found, t) {
					found, matched = append(found, t), true
				}
			}
			if !matched {
				missing = append(missing, name)
			}
			continue
		}
		t := lookup(deferred, name)
		if t == nil {
			t = lookup(pool, name)
		}
		if t == nil {
			missing = append(missing, name)
			continue
		}
		if !slices.Contains(found, t) {
			found = append(found, t)
		}
	}
	return found, missing
}

func lookup(ts []tool.Tool, name string) tool.Tool {
	for _, t := range ts {
		if t.MatchesName(name) {
			return t
		}
	}
	for _, t := range ts {
		if strings.EqualFold(t.Name(), name) {
			return t
		}
	}
	return nil
}

// byKeyword matches a keyword query against the deferred tools: a query that
// is a tool's name finds that tool, one that starts with mcp__ finds the tools
// whose names start with it, and any other query is ranked.
func byKeyword(query string, deferred []tool.Tool, limit int) []tool.Tool {
	if t := lookup(deferred, query); t != nil {
		return []tool.Tool{t}
	}
	if lower := strings.ToLower(query); strings.HasPrefix(lower, "mcp__") && !strings.ContainsAny(lower, " \t") {
		var prefixed []tool.Tool
		for _, t := range deferred {
			if strings.HasPrefix(strings.ToLower(t.Name()), lower) && len(prefixed) < limit {
				prefixed = append(prefixed, t)
			}
		}
		if len(prefixed) > 0 {
			return prefixed
		}
	}
	return rank(deferred, query, limit)
}

// function is one tool in the <functions> encoding, the keys in that order.
type function struct {
	Description string          `json:"description"`
	Name        string          `json:"name"`
	Parameters  json.RawMessage `json:"parameters"`
}

func render(out Output) []llm.ContentBlock {
	var b strings.Builder
	if len(out.Tools) == 0 {
		b.WriteString(NoMatch)
		if len(out.Missing) > 0 {
			fmt.Fprintf(&b, ": no tool is named %s. Select names from <available-deferred-tools>, or search by keywords.", strings.Join(out.Missing, ", "))
		}
		b.WriteString(serverNotes(out.Problems, out.Connecting))
		return []llm.ContentBlock{llm.TextBlock(b.String())}
	}
	b.WriteString("<functions>\n")
	for _, spec := range out.Tools {
		line, err := json.Marshal(function{Description: spec.Description, Name: spec.Name, Parameters: spec.InputSchema})
		if err != nil {
			line = []byte(fmt.Sprintf(`{"name":%q}`, spec.Name))
		}
		fmt.Fprintf(&b, "<function>%s</function>\n", line)
	}
	b.WriteString("</functions>")
	if len(out.Missing) > 0 {
		fmt.Fprintf(&b, "\nNo tool is named %s.", strings.Join(out.Missing, ", "))
	}
	b.WriteString(serverNotes(out.Problems, out.Connecting))
	return []llm.ContentBlock{llm.TextBlock(b.String())}
}

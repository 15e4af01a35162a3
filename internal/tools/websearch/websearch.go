// Package websearch is the WebSearch tool. With the Anthropic provider it
// runs as Claude Code's does: a side request to the session's model carrying
// the API's server-side web_search tool, whose answer (text, and the titles
// and URLs found) becomes the result. Any provider can instead use a search
// service the user configures (a SearXNG instance); without either, the call
// fails saying what to configure.
package websearch

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools/web"
)

// Name is the tool's name in the API.
const Name = "WebSearch"

// Input is what the model sends; the schema is Claude Code's.
type Input struct {
	Query          string   `json:"query" jsonschema:"minLength=2" jsonschema_description:"The search query to use"`
	AllowedDomains []string `json:"allowed_domains,omitempty" jsonschema_description:"Only include search results from these domains"`
	BlockedDomains []string `json:"blocked_domains,omitempty" jsonschema_description:"Never include search results from these domains"`
}

// Hit is one search result.
type Hit struct {
	Title string `json:"title"`
	URL   string `json:"url"`
}

// Links are the hits of one search.
type Links struct {
	ToolUseID string `json:"tool_use_id"`
	Content   []Hit  `json:"content"`
}

// Result is one entry of a search's results: the searcher's text, or the
// links one search found. In JSON it is a string or a Links object.
type Result struct {
	Text  string
	Links *Links
}

// MarshalJSON writes the text as a string, the links as an object.
func (r Result) MarshalJSON() ([]byte, error) {
	if r.Links != nil {
		return json.Marshal(r.Links)
	}
	return json.Marshal(r.Text)
}

// UnmarshalJSON reads a string or a Links object.
func (r *Result) UnmarshalJSON(data []byte) error {
	if len(data) > 0 && data[0] == '"' {
		*r = Result{}
		return json.Unmarshal(data, &r.Text)
	}
	r.Links = &Links{}
	return json.Unmarshal(data, r.Links)
}

// Output is the result, in the shape of Claude Code's tool_use_result:
// Results holds, in order, the searcher's text and the hits of each search.
type Output struct {
	Query           string   `json:"query"`
	Results         []Result `json:"results"`
	DurationSeconds float64  `json:"durationSeconds"`
	SearchCount     int      `json:"searchCount"`
}

const description = `Searches the web and returns the results: titles and URLs of the pages found, with a short summary. Use it for what may have changed since your training: recent events, current versions and documentation.

- Narrow the search with allowed_domains (only these sites) or blocked_domains (never these sites), not both.
- Put the current year in queries about recent things; the date is in the conversation.
- After answering from the results, end your answer with a "Sources:" section listing the pages you used as markdown links: [Title](URL). Never leave it out.
- To read a page found, fetch it with WebFetch.`

// Tool is the WebSearch tool.
var Tool = tool.MustBuild(tool.Def[Input, Output]{
	Name:               Name,
	SearchHint:         "search the web for current information",
	Description:        description,
	MaxResultSizeChars: 100_000,
	ShouldDefer:        true,
	IsReadOnly:         tool.Always[Input],
	IsConcurrencySafe:  tool.Always[Input],
	ValidateInput:      validate,
	Accesses:           func(context.Context, Input, *tool.Env) tool.Access { return tool.Access{Network: true} },
	Call:               search,
	MapResult:          toBlocks,
	RenderUse:          renderUse,
	RenderResult:       renderResult,
})

// validate checks what the schema cannot, in Claude Code's words where it has them.
func validate(_ context.Context, in Input, _ *tool.Env) error {
	switch {
	case in.Query == "":
		return errors.New("Error: Missing query")
	case utf8.RuneCountInString(in.Query) < 2:
		return errors.New("Error: The query must be at least 2 characters long")
	case len(in.AllowedDomains) > 0 && len(in.BlockedDomains) > 0:
		return errors.New("Error: Cannot specify both allowed_domains and blocked_domains in the same request")
	}
	return nil
}

// search runs the query on the backend the session has: the configured
// search service, else the provider's own search.
func search(ctx context.Context, in Input, env *tool.Env, progress tool.Progress) (Output, error) {
	started := time.Now()
	config, model, attached := web.Of(env.Session)
	progress(tool.ProgressEvent{Message: "Searching for " + in.Query})
	var out Output
	var err error
	switch {
	case attached && config.Settings.SearXNG != "":
		out, err = searxng(ctx, config.Settings.SearXNG, in)
	case attached && config.ServerSearch && model != nil:
		out, err = serverSearch(ctx, model, in)
	default:
		return Output{}, &tool.OutputError{Text: noBackend}
	}
	if err != nil {
		if ctx.Err() != nil {
			return Output{}, ctx.Err()
		}
		return Output{}, &tool.OutputError{Text: err.Error()}
	}
	out.Query, out.DurationSeconds = in.Query, time.Since(started).Seconds()
	return out, nil
}

// noBackend is the failure of a search with nowhere to run it.
const noBackend = `WebSearch is not available in this session: the model's provider does not search the web itself, and no search service is configured. ` +
	`Do not retry; tell the user that searching needs a SearXNG instance (with its JSON API on) named in their settings, ` +
	`"webSearch": {"searxng": "http://127.0.0.1:8888"} in ~/.mini-claude/settings.json, or the Anthropic provider.`

// toBlocks writes the result as Claude Code does: the query, each text and
// each search's links as JSON, and a reminder to cite.
func toBlocks(out Output) []llm.ContentBlock {
	var b strings.Builder
	b.WriteString("Web search results for query: \"" + out.Query + "\"\n\n")
	for _, r := range out.Results {
		switch {
		case r.Links == nil:
			b.WriteString(r.Text + "\n\n")
		case len(r.Links.Content) == 0:
			b.WriteString("No links found.\n\n")
		default:
			b.WriteString("Links: " + compactJSON(r.Links.Content) + "\n\n")
		}
	}
	b.WriteString("\nREMINDER: You MUST include the sources above in your response to the user using markdown hyperlinks.")
	return []llm.ContentBlock{llm.TextBlock(strings.TrimSpace(b.String()))}
}

// compactJSON writes v as JavaScript's JSON.stringify does: no spaces, no
// escaping of <, > and &.
func compactJSON(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "[]"
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

package websearch

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/render"
	"github.com/mini-claude/mini-claude/internal/tool"
)

// The side request of a search on the provider, Claude Code's.
const (
	searcherSystem = "You run a web search for another Claude model, which is waiting on the result and can search again. Search once, then reply with a brief summary of the results."
	// maxUses is how many searches the side request may run.
	maxUses = 8
)

// serverSearch asks the session's model to search with the provider's own
// web_search tool, and reads the answer as Claude Code does: the text
// between searches, and each search's titles and URLs.
func serverSearch(ctx context.Context, m tool.SideModel, in Input) (Output, error) {
	reply, err := m.Ask(ctx, llm.Request{
		System:   searcherSystem,
		Messages: []llm.Message{llm.UserText("Perform a web search for the query: " + in.Query)},
		WebSearch: &llm.WebSearch{
			AllowedDomains: in.AllowedDomains, BlockedDomains: in.BlockedDomains, MaxUses: maxUses,
		},
		ToolChoice: "web_search",
		NoCache:    true,
	})
	if err != nil {
		return Output{}, fmt.Errorf("the web search failed: %w", err)
	}
	return readAnswer(reply), nil
}

// readAnswer turns the searcher's blocks into results: text gathered up to
// each search, each search's hits or error, the text after the last.
func readAnswer(m llm.Message) Output {
	var out Output
	var text strings.Builder
	flush := func() {
		if t := strings.TrimSpace(text.String()); t != "" {
			out.Results = append(out.Results, Result{Text: t})
		}
		text.Reset()
	}
	searches, results := 0, 0
	for _, b := range m.Content {
		switch b.Type {
		case llm.BlockServerToolUse:
			searches++
			flush()
		case llm.BlockWebSearchResult:
			results++
			if b.SearchError != "" {
				out.Results = append(out.Results, Result{Text: "Web search error: " + b.SearchError})
				continue
			}
			hits := make([]Hit, len(b.SearchResults))
			for i, r := range b.SearchResults {
				hits[i] = Hit{Title: r.Title, URL: r.URL}
			}
			out.Results = append(out.Results, Result{Links: &Links{ToolUseID: b.ToolUseID, Content: hits}})
		case llm.BlockText:
			text.WriteString(b.Text)
		}
	}
	flush()
	out.SearchCount = max(searches, results)
	return out
}

// searxngTimeout bounds a query to the search service.
const searxngTimeout = 30 * time.Second

// maxHits is how many of a search service's hits are kept.
const maxHits = 10

// maxSnippet is how many characters of a hit's snippet are kept.
const maxSnippet = 300

// searxngAnswer is the part of SearXNG's JSON answer read.
type searxngAnswer struct {
	Results []struct {
		Title   string `json:"title"`
		URL     string `json:"url"`
		Content string `json:"content"`
	} `json:"results"`
}

// searxng queries a SearXNG instance's JSON API and keeps the hits the
// domain lists allow; their snippets become the results' text.
func searxng(ctx context.Context, base string, in Input) (Output, error) {
	endpoint, err := url.Parse(strings.TrimRight(base, "/") + "/search")
	if err != nil || (endpoint.Scheme != "http" && endpoint.Scheme != "https") {
		return Output{}, fmt.Errorf("the search service's URL %q (webSearch.searxng in the settings) is not an http(s) URL", base)
	}
	endpoint.RawQuery = url.Values{"q": {in.Query}, "format": {"json"}}.Encode()
	ctx, cancel := context.WithTimeout(ctx, searxngTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, endpoint.String(), nil)
	if err != nil {
		return Output{}, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return Output{}, fmt.Errorf("the search service at %s did not answer: %w", base, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return Output{}, fmt.Errorf("the search service at %s: %w", base, err)
	}
	if resp.StatusCode != http.StatusOK {
		return Output{}, fmt.Errorf("the search service at %s answered HTTP %d; a SearXNG instance answers JSON only when its settings list json under search.formats", base, resp.StatusCode)
	}
	var answer searxngAnswer
	if err := json.Unmarshal(body, &answer); err != nil {
		return Output{}, fmt.Errorf("the search service at %s did not answer JSON (%v); WebSearch needs SearXNG's JSON API", base, err)
	}
	links := &Links{ToolUseID: "searxng-1", Content: []Hit{}}
	var snippets strings.Builder
	leftOut := 0
	for _, r := range answer.Results {
		if !wanted(r.URL, in) {
			leftOut++
			continue
		}
		if len(links.Content) == maxHits {
			break
		}
		links.Content = append(links.Content, Hit{Title: r.Title, URL: r.URL})
		if s := strings.Join(strings.Fields(r.Content), " "); s != "" {
			if len([]rune(s)) > maxSnippet {
				s = string([]rune(s)[:maxSnippet]) + "…"
			}
			fmt.Fprintf(&snippets, "- %s: %s\n", r.Title, s)
		}
	}
	out := Output{Results: []Result{{Links: links}}, SearchCount: 1}
	if snippets.Len() > 0 {
		out.Results = append(out.Results, Result{Text: strings.TrimSpace(snippets.String())})
	}
	if leftOut > 0 {
		out.Results = append(out.Results, Result{Text: render.Count(leftOut, "result") + " left out by allowed_domains or blocked_domains."})
	}
	return out, nil
}

// wanted reports whether a hit's host passes the call's domain lists: a
// listed domain covers its subdomains.
func wanted(raw string, in Input) bool {
	u, err := url.Parse(raw)
	if err != nil {
		return false
	}
	host := strings.ToLower(u.Hostname())
	listed := func(domains []string) bool {
		for _, d := range domains {
			d = strings.ToLower(strings.TrimPrefix(strings.TrimSpace(d), "*."))
			if host == d || strings.HasSuffix(host, "."+d) {
				return true
			}
		}
		return false
	}
	if len(in.AllowedDomains) > 0 && !listed(in.AllowedDomains) {
		return false
	}
	return !listed(in.BlockedDomains)
}

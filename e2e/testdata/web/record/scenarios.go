package main

import (
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// scenario is one WebFetch or WebSearch call of the model, run by Claude
// Code in a session of its own.
type scenario struct {
	// kind is "fetch" or "search": the folder its files go to.
	kind, name string
	// tool is the tool called; input its input, where <host> stands for the
	// local HTTPS server's host:port.
	tool  string
	input map[string]any
	// search is the answer to the side request carrying the server-side
	// web_search tool.
	search []llm.ContentBlock
	// noRule leaves the allow rules out of the settings.
	noRule bool
}

// sideAnswer is the answer to WebFetch's side request.
const sideAnswer = "Side answer: the page says what it says."

func fetch(name, url string, extra ...any) scenario {
	in := map[string]any{"url": url, "prompt": "What does the page say?"}
	for i := 0; i+1 < len(extra); i += 2 {
		in[extra[i].(string)] = extra[i+1]
	}
	return scenario{kind: "fetch", name: name, tool: "WebFetch", input: in}
}

func search(name string, input map[string]any, answer ...llm.ContentBlock) scenario {
	return scenario{kind: "search", name: name, tool: "WebSearch", input: input, search: answer}
}

// goHits are the search results the scripted model finds.
var goHits = []llm.SearchResult{
	{Title: "Tutorial: Getting started with generics", URL: "https://go.dev/doc/tutorial/generics", EncryptedContent: "RW5jcnlwdGVk", PageAge: "3 days ago"},
	{Title: "An Introduction To Generics", URL: "https://go.dev/blog/intro-generics", EncryptedContent: "RW5jcnlwdGVkMg=="},
}

func scenarios() []scenario {
	return []scenario{
		fetch("html", "https://<host>/page.html"),
		fetch("plain_text", "https://<host>/plain.txt"),
		fetch("http_upgraded", "http://<host>/plain.txt"),
		fetch("redirect_same_host", "https://<host>/moved"),
		fetch("redirect_other_host", "https://<host>/redirect"),
		fetch("not_found", "https://<host>/missing"),
		fetch("invalid_url", "not a url"),
		fetch("invalid_url_credentials", "https://user:secret@<host>/plain.txt"),
		fetch("dotless_host", "https://localhost/plain.txt"),
		fetch("refused", "https://127.0.0.1:1/plain.txt"),
		fetch("oversized", "https://<host>/huge.txt"),
		fetch("heavy_html", "https://<host>/heavy.html"),
		fetch("long_page", "https://<host>/long.txt"),
		fetch("offset", "https://<host>/long.txt", "offset", 100000),
		fetch("offset_last_part", "https://<host>/long.txt", "offset", 300000),
		fetch("offset_past_end", "https://<host>/long.txt", "offset", 400000),
		func() scenario {
			s := fetch("no_rule", "https://<host>/plain.txt")
			s.noRule = true
			return s
		}(),

		search("results", map[string]any{"query": "golang generics", "allowed_domains": []string{"go.dev"}},
			llmtest.Text("I'll search for that."),
			llmtest.ServerToolUse("", "web_search", `{"query":"golang generics"}`),
			llmtest.WebSearchResult("", goHits...),
			llmtest.Text("Go added generics in version 1.18."),
		),
		search("blocked_domains", map[string]any{"query": "golang generics", "blocked_domains": []string{"example.com"}},
			llmtest.ServerToolUse("", "web_search", `{"query":"golang generics"}`),
			llmtest.WebSearchResult(""),
			llmtest.Text("Nothing relevant turned up."),
		),
		search("search_error", map[string]any{"query": "golang generics"},
			llmtest.ServerToolUse("", "web_search", `{"query":"golang generics"}`),
			llmtest.WebSearchError("", "too_many_requests"),
		),
		search("both_domain_lists", map[string]any{"query": "golang generics", "allowed_domains": []string{"go.dev"}, "blocked_domains": []string{"example.com"}}),
		search("short_query", map[string]any{"query": "g"}),
	}
}

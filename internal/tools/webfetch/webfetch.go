// Package webfetch is the WebFetch tool: it fetches a web page over https,
// turns HTML into markdown, and has a small, fast model of the session's
// provider answer the call's prompt from the page, as Claude Code does. A
// page longer than one call reads is read on with offset; a redirect to
// another host is reported, not followed; the loopback, link-local and
// private addresses of the user's network are refused unless a permission
// rule names the host.
package webfetch

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools/web"
)

// Name is the tool's name in the API.
const Name = "WebFetch"

// Input is what the model sends; the schema is Claude Code's.
type Input struct {
	URL    string `json:"url" jsonschema:"format=uri" jsonschema_description:"The URL to fetch content from"`
	Prompt string `json:"prompt" jsonschema_description:"The prompt to run on the fetched content"`
	Offset *int   `json:"offset,omitempty" jsonschema:"minimum=0,maximum=9007199254740991" jsonschema_description:"Character position in the page text to start reading from. Use it to read on through a page too long for one call, with the value the previous result gave."`
}

// Output is the result, in the shape of Claude Code's tool_use_result.
type Output struct {
	// Bytes is the size of the page downloaded, or of the result when
	// nothing was (a redirect).
	Bytes int `json:"bytes"`
	// Code and CodeText are the HTTP status of the last response.
	Code       int    `json:"code"`
	CodeText   string `json:"codeText"`
	Result     string `json:"result"`
	DurationMs int64  `json:"durationMs"`
	URL        string `json:"url"`
}

const description = `Fetches a web page and answers a prompt about it. The page is downloaded, HTML is turned into markdown, and a small, fast model reads it and answers ` + "`prompt`" + `; that answer is the result, not the page itself.

- The URL must be complete and valid. http:// is upgraded to https://.
- Pages behind a login (Google Docs, Confluence, Jira, private GitHub) cannot be read: use an MCP tool made for that service, or the gh CLI through Bash for GitHub. Prefer an MCP-provided fetch tool when one is available.
- localhost and other host names without a dot are not fetched, nor addresses of the user's own machine or network (loopback, link-local, private) unless the user allowed that host by name; for a local server, use curl through Bash.
- Say in ` + "`prompt`" + ` what you want from the page.
- One call reads up to 100,000 characters of the page's text. When a page is longer the result says so and gives the offset to read on from: call again with the same url and that offset if the part read lacks what you need.
- A redirect to another host is not followed: the result gives the new URL, to fetch with a new call.
- Pages are cached for 15 minutes, so fetching the same URL again soon is fast.
- The tool only reads; it changes no file.`

// Tool is the WebFetch tool.
var Tool = tool.MustBuild(tool.Def[Input, Output]{
	Name:               Name,
	SearchHint:         "fetch and extract content from a URL",
	Description:        description,
	MaxResultSizeChars: 100_000,
	ShouldDefer:        true,
	IsReadOnly:         tool.Always[Input],
	IsConcurrencySafe:  tool.Always[Input],
	ValidateInput:      validate,
	CheckPermissions:   checkPermissions,
	Accesses:           accesses,
	Call:               call,
	MapResult:          func(out Output) []llm.ContentBlock { return []llm.ContentBlock{llm.TextBlock(out.Result)} },
	RenderUse:          renderUse,
	RenderResult:       renderResult,
})

// validate refuses a URL that does not parse as an absolute URL.
func validate(_ context.Context, in Input, _ *tool.Env) error {
	u, err := url.Parse(in.URL)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return fmt.Errorf("Error: Invalid URL %q. The URL provided could not be parsed.", in.URL)
	}
	return nil
}

// host is the host name a call fetches from, as permission rules name it.
func host(in Input) string {
	u, err := url.Parse(in.URL)
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Hostname())
}

// checkPermissions allows the preapproved documentation sites; any other
// host is left to the rules, which ask without one naming it.
func checkPermissions(_ context.Context, in Input, _ *tool.Env) tool.PermissionResult {
	if u, err := url.Parse(in.URL); err == nil && preapproved(u.Hostname(), u.EscapedPath()) {
		return tool.PermissionResult{Behavior: tool.Allow, Message: "Preapproved host"}
	}
	return tool.PermissionResult{Behavior: tool.Passthrough}
}

// accesses names the host, which WebFetch(domain:…) rules are checked against.
func accesses(_ context.Context, in Input, _ *tool.Env) tool.Access {
	if h := host(in); h != "" {
		return tool.Access{Domains: []string{h}}
	}
	return tool.Access{}
}

// call fetches the page, from the cache when it is fresh there, and makes
// the result: a small model's answer, the page's text, or what stood in the way.
func call(ctx context.Context, in Input, env *tool.Env, progress tool.Progress) (Output, error) {
	started := time.Now()
	out, err := fetchPage(ctx, in, env, progress)
	if err != nil {
		if ctx.Err() != nil {
			return Output{}, ctx.Err()
		}
		return Output{}, &tool.OutputError{Text: err.Error()}
	}
	out.URL, out.DurationMs = in.URL, time.Since(started).Milliseconds()
	return out, nil
}

func fetchPage(ctx context.Context, in Input, env *tool.Env, progress tool.Progress) (Output, error) {
	if err := checkURL(in.URL); err != nil {
		return Output{}, err
	}
	offset := 0
	if in.Offset != nil {
		offset = *in.Offset
	}
	pages := cacheOf(env.Session)
	p, cached := pages.get(in.URL)
	if !cached {
		progress(tool.ProgressEvent{Message: "Fetching " + in.URL})
		r, err := download(ctx, guardedClient(host(in), env.HostNamed != nil && env.HostNamed(host(in))), in.URL)
		if err != nil {
			return Output{}, err
		}
		switch {
		case r.redirect != "":
			text := redirectText(r, in.Prompt, offset)
			return Output{Bytes: len(text), Code: r.code, CodeText: statusText(r.code), Result: text}, nil
		case r.failed:
			return Output{Code: r.code, CodeText: statusText(r.code), Result: httpErrorText(r)}, nil
		}
		text, ok := pageText(r.contentType, r.body)
		if !ok {
			return Output{}, fmt.Errorf("WebFetch reads text and HTML pages; %s is %s (%d bytes). To read it, download it with Bash (curl -o FILE URL) and open the file.",
				in.URL, mediaType(r.contentType, r.body), len(r.body))
		}
		p = &page{code: r.code, bytes: len(r.body), contentType: r.contentType, text: text}
		pages.put(in.URL, p)
	}
	out := Output{Bytes: p.bytes, Code: p.code, CodeText: statusText(p.code)}
	result, err := answer(ctx, in, env, p, offset)
	out.Result = result
	return out, err
}

// answer makes the result of a fetched page: the part of its text from
// offset, read by the small model unless the settings say not to (or no
// model was attached), with a note when the page goes on past the part.
func answer(ctx context.Context, in Input, env *tool.Env, p *page, offset int) (string, error) {
	pt := partOf(p.text, offset)
	if offset > 0 && pt.text == "" {
		return pastEnd(pt), nil
	}
	u, _ := url.Parse(in.URL)
	isPreapproved := preapproved(u.Hostname(), u.EscapedPath())
	if isPreapproved && strings.Contains(p.contentType, "text/markdown") && pt.restChars < maxPart {
		return pt.text, nil
	}
	config, model, attached := web.Of(env.Session)
	if !attached || model == nil || config.Settings.SkipSummary {
		return pageTextResult(pt), nil
	}
	reply, err := model.Ask(ctx, llm.Request{
		Model: config.SmallModel, Messages: []llm.Message{llm.UserText(sidePrompt(pt, in.Prompt, isPreapproved))}, NoCache: true,
	})
	if err != nil {
		return "", fmt.Errorf("the small, fast model that reads the page failed: %w", err)
	}
	text := reply.Text()
	if strings.TrimSpace(text) == "" {
		return "", errors.New("The small, fast model that reads the content gave no answer. Trying again may work.")
	}
	return text + pagingNote(pt, "the answer above"), nil
}

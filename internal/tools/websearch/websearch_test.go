package websearch

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/goldenfile"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/anthropic"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools/web"
)

// clientModel is the session's side model as the agent gives it, the
// session's model being the recordings'.
type clientModel struct{ client llm.Client }

func (m clientModel) Ask(ctx context.Context, req llm.Request) (llm.Message, error) {
	if req.Model == "" {
		req.Model = "claude-sonnet-4-5-20250929"
	}
	end, err := llm.Complete(ctx, m.client, req)
	return end.Message, err
}

// newEnv returns a session whose side requests go to srv (none when srv is nil).
func newEnv(t *testing.T, srv *llmtest.Server, config web.Config) *tool.Env {
	t.Helper()
	dir := t.TempDir()
	env := &tool.Env{Cwd: dir, Session: tool.NewSession(dir)}
	var model tool.SideModel
	if srv != nil {
		client, err := anthropic.New(anthropic.Config{APIKey: "test", BaseURL: srv.URL})
		if err != nil {
			t.Fatal(err)
		}
		model = clientModel{client}
	}
	web.Attach(env.Session, config, model)
	return env
}

// run calls WebSearch as the executor does once it is allowed; a failure
// comes back as its text.
func run(t *testing.T, env *tool.Env, input string) (tool.Result, string) {
	t.Helper()
	res, err := tool.Exec(context.Background(), Tool, env, json.RawMessage(input), nil)
	if err != nil {
		return res, err.Error()
	}
	return res, ""
}

// recordedSearch is one of Claude Code's recorded WebSearch scenarios.
type recordedSearch struct {
	input, result, toolUseResult, side []byte
}

func loadRecorded(t *testing.T, name string) recordedSearch {
	t.Helper()
	dir := filepath.Join("..", "..", "..", "e2e", "testdata", "web", "search", name)
	read := func(file string) []byte {
		data, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		return data
	}
	return recordedSearch{read("input.json"), read("result.json"), read("tool_use_result.json"), read("side_requests.json")}
}

// goHits are the hits the recordings' searcher found.
var goHits = []llm.SearchResult{
	{Title: "Tutorial: Getting started with generics", URL: "https://go.dev/doc/tutorial/generics", EncryptedContent: "RW5jcnlwdGVk", PageAge: "3 days ago"},
	{Title: "An Introduction To Generics", URL: "https://go.dev/blog/intro-generics", EncryptedContent: "RW5jcnlwdGVkMg=="},
}

// TestServerSearchMatchesClaudeCode replays Claude Code's recorded searches:
// the same side request (model, searcher prompt, the web_search tool with
// the domains and use limit, the forced tool choice) and the same result
// text and tool_use_result from the same answer.
func TestServerSearchMatchesClaudeCode(t *testing.T) {
	tests := []struct {
		name   string
		answer []llm.ContentBlock
	}{
		{"results", []llm.ContentBlock{llmtest.Text("I'll search for that."),
			llmtest.ServerToolUse("", "web_search", `{"query":"golang generics"}`), llmtest.WebSearchResult("", goHits...),
			llmtest.Text("Go added generics in version 1.18.")}},
		{"blocked_domains", []llm.ContentBlock{llmtest.ServerToolUse("", "web_search", `{"query":"golang generics"}`),
			llmtest.WebSearchResult(""), llmtest.Text("Nothing relevant turned up.")}},
		{"search_error", []llm.ContentBlock{llmtest.ServerToolUse("", "web_search", `{"query":"golang generics"}`),
			llmtest.WebSearchError("", "too_many_requests")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.New(t)
			srv.Push(llmtest.Turn{Blocks: tt.answer})
			env := newEnv(t, srv, web.Config{ServerSearch: true})
			want := loadRecorded(t, tt.name)
			res, errText := run(t, env, string(want.input))
			if errText != "" {
				t.Fatal(errText)
			}
			var wantResult struct{ Content string }
			json.Unmarshal(want.result, &wantResult)
			if got := res.Content[0].Text; got != wantResult.Content {
				t.Errorf("result:\n%s\nwant:\n%s", got, wantResult.Content)
			}
			out := res.Output.(Output)
			out.DurationSeconds = 0
			gotTUR, _ := json.Marshal(out)
			if !sameJSON(t, gotTUR, withServerIDs(want.toolUseResult)) {
				t.Errorf("tool_use_result:\n%s\nwant:\n%s", gotTUR, want.toolUseResult)
			}
			compareSideRequest(t, srv.Requests()[0], want.side)
		})
	}
}

// withServerIDs puts llmtest's server tool ids of a one-request server in
// place of those of the recording, whose server numbered every request.
func withServerIDs(data []byte) []byte {
	s := string(data)
	for _, n := range []string{"1", "2", "3", "4", "5"} {
		s = strings.ReplaceAll(s, "srvtoolu_llmtest_"+n+"_", "srvtoolu_llmtest_0_")
	}
	return []byte(s)
}

// compareSideRequest checks a side request against Claude Code's: the
// model, the searcher's prompt (its last system block; the others are
// Claude Code's billing header and SDK identity), the message, the server
// tool, the tool choice and that thinking is off.
func compareSideRequest(t *testing.T, got llmtest.Request, recorded []byte) {
	t.Helper()
	var want []struct {
		Body struct {
			Model      string             `json:"model"`
			System     []llm.ContentBlock `json:"system"`
			Messages   []llm.Message      `json:"messages"`
			Tools      []json.RawMessage  `json:"tools"`
			ToolChoice json.RawMessage    `json:"tool_choice"`
		} `json:"body"`
	}
	if err := json.Unmarshal(recorded, &want); err != nil || len(want) != 1 {
		t.Fatalf("recorded side requests: %v", err)
	}
	w := want[0].Body
	if got.Model != w.Model || got.System != w.System[len(w.System)-1].Text || !reflect.DeepEqual(got.Messages, w.Messages) {
		t.Errorf("side request: model %q, system %q, messages %+v\nwant %q, %q, %+v", got.Model, got.System, got.Messages,
			w.Model, w.System[len(w.System)-1].Text, w.Messages)
	}
	if len(got.ServerTools) != 1 || len(got.Tools) != 0 || !sameJSON(t, got.ServerTools[0], w.Tools[0]) || !sameJSON(t, got.ToolChoice, w.ToolChoice) {
		t.Errorf("tools %s %v, tool_choice %s; want %s, %s", got.ServerTools, got.Tools, got.ToolChoice, w.Tools, w.ToolChoice)
	}
	if strings.Contains(string(got.Body), `"thinking"`) || strings.Contains(string(got.Body), "cache_control") {
		t.Errorf("the side request asks for thinking or caching: %s", got.Body)
	}
}

func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatalf("%s: %v", a, err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return reflect.DeepEqual(x, y)
}

// TestInputChecks proves the refusals before any search, the one Claude
// Code recorded among them.
func TestInputChecks(t *testing.T) {
	env := newEnv(t, nil, web.Config{ServerSearch: true})
	var recorded struct{ Content string }
	json.Unmarshal(loadRecorded(t, "both_domain_lists").result, &recorded)
	tests := []struct{ input, want string }{
		{string(loadRecorded(t, "both_domain_lists").input), strings.TrimSuffix(strings.TrimPrefix(recorded.Content, "<tool_use_error>"), "</tool_use_error>")},
		{`{"query":""}`, "Error: Missing query"},
		{`{"query":"g"}`, "Error: The query must be at least 2 characters long"},
	}
	for _, tt := range tests {
		if _, errText := run(t, env, tt.input); errText != tt.want {
			t.Errorf("%s: %q, want %q", tt.input, errText, tt.want)
		}
	}
}

// TestWithoutABackendTheCallSaysWhatToConfigure proves the failure of a
// session whose provider does not search and that names no search service.
func TestWithoutABackendTheCallSaysWhatToConfigure(t *testing.T) {
	env := newEnv(t, llmtest.New(t), web.Config{ServerSearch: false})
	_, errText := run(t, env, `{"query":"golang generics"}`)
	if errText != noBackend || !strings.Contains(errText, `"webSearch": {"searxng": "http://127.0.0.1:8888"}`) {
		t.Errorf("%q", errText)
	}
}

// TestSearXNGBackend proves a search through a SearXNG instance's JSON API:
// the query sent, the hits the domain lists keep, at most ten, their
// snippets, in Claude Code's result format; and the failures of a service
// that does not answer JSON.
func TestSearXNGBackend(t *testing.T) {
	var queries []string
	searx := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		queries = append(queries, r.URL.Path+"?"+r.URL.RawQuery)
		if r.URL.Query().Get("format") != "json" {
			http.Error(w, "forbidden", http.StatusForbidden)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"query":"golang generics","results":[
			{"title":"Tutorial: Getting started with generics","url":"https://go.dev/doc/tutorial/generics","content":"This tutorial introduces  the basics\nof generics in Go."},
			{"title":"Generics spam","url":"https://spam.example.com/go","content":"buy now"},
			{"title":"An Introduction To Generics","url":"https://go.dev/blog/intro-generics","content":""}]}`))
	}))
	defer searx.Close()
	env := newEnv(t, nil, web.Config{Settings: web.Settings{SearXNG: searx.URL + "/"}})
	res, errText := run(t, env, `{"query":"golang generics","blocked_domains":["example.com"]}`)
	if errText != "" {
		t.Fatal(errText)
	}
	goldenfile.Check(t, "testdata/searxng.golden", res.Content[0].Text)
	if len(queries) != 1 || queries[0] != "/search?format=json&q=golang+generics" {
		t.Errorf("queries %q", queries)
	}
	res, _ = run(t, env, `{"query":"golang generics","allowed_domains":["go.dev"]}`)
	if out := res.Output.(Output); len(out.Results[0].Links.Content) != 2 || !strings.Contains(res.Content[0].Text, "1 result left out") {
		t.Errorf("allowed_domains: %s", res.Content[0].Text)
	}

	broken := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { http.Error(w, "no", http.StatusForbidden) }))
	defer broken.Close()
	env = newEnv(t, nil, web.Config{Settings: web.Settings{SearXNG: broken.URL}})
	if _, errText := run(t, env, `{"query":"golang generics"}`); !strings.Contains(errText, "answered HTTP 403; a SearXNG instance answers JSON only when its settings list json under search.formats") {
		t.Errorf("403: %q", errText)
	}
}

// TestOutputKeepsClaudeCodesShape proves that the results read back from
// JSON, as a resumed session's transcript holds them, are what was written.
func TestOutputKeepsClaudeCodesShape(t *testing.T) {
	out := Output{Query: "q", Results: []Result{{Text: "a"}, {Links: &Links{ToolUseID: "s1", Content: []Hit{{Title: "T", URL: "https://x.dev"}}}}}, SearchCount: 1}
	data, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != `{"query":"q","results":["a",{"tool_use_id":"s1","content":[{"title":"T","url":"https://x.dev"}]}],"durationSeconds":0,"searchCount":1}` {
		t.Errorf("%s", data)
	}
	var back Output
	if err := json.Unmarshal(data, &back); err != nil || !reflect.DeepEqual(back, out) {
		t.Errorf("read back %+v, %v", back, err)
	}
}

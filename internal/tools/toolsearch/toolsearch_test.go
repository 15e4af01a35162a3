package toolsearch

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/goldenfile"
	"github.com/mini-claude/mini-claude/internal/tool"
)

// fake is a tool for the tests: a name, a description, a hint, parameters
// (each "name" of type string), and the deferral flags.
type fake struct {
	name, description, hint string
	params                  []string
	shouldDefer, alwaysLoad bool
}

func build(t testing.TB, f fake) tool.Tool {
	t.Helper()
	props := map[string]any{}
	for _, p := range f.params {
		props[p] = map[string]any{"type": "string", "description": "The " + p}
	}
	schema, err := json.Marshal(map[string]any{"type": "object", "properties": props})
	if err != nil {
		t.Fatal(err)
	}
	description := f.description
	if description == "" {
		description = "Does " + f.name + "."
	}
	tl, err := tool.BuildRaw(tool.Def[json.RawMessage, string]{
		Name: f.name, Description: description, SearchHint: f.hint, MaxResultSizeChars: 1000,
		ShouldDefer: f.shouldDefer, AlwaysLoad: f.alwaysLoad,
		IsReadOnly: tool.Always[json.RawMessage], IsConcurrencySafe: tool.Always[json.RawMessage],
		Call: func(context.Context, json.RawMessage, *tool.Env, tool.Progress) (string, error) { return f.name, nil },
	}, schema)
	if err != nil {
		t.Fatal(err)
	}
	return tl
}

func pool(t testing.TB, fakes ...fake) []tool.Tool {
	ts := []tool.Tool{build(t, fake{name: "Bash"}), build(t, fake{name: "Read"}), Tool}
	for _, f := range fakes {
		ts = append(ts, build(t, f))
	}
	return ts
}

func names(ts []tool.Tool) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.Name()
	}
	return out
}

func TestParsePolicy(t *testing.T) {
	tests := []struct {
		value   string
		want    Policy
		wantErr bool
	}{
		{"", Policy{}, false},
		{"auto", Policy{}, false},
		{"1", Policy{Mode: Always}, false},
		{"TRUE", Policy{Mode: Always}, false},
		{"0", Policy{Mode: Never}, false},
		{"false", Policy{Mode: Never}, false},
		{"auto:25", Policy{Percent: 25}, false},
		{"auto:0", Policy{Percent: 1}, false},
		{"auto:101", Policy{}, true},
		{"sometimes", Policy{}, true},
	}
	for _, tt := range tests {
		got, err := ParsePolicy(tt.value)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("ParsePolicy(%q) = %+v, %v; want %+v, error %v", tt.value, got, err, tt.want, tt.wantErr)
		}
		if err != nil && !strings.Contains(err.Error(), Env) {
			t.Errorf("error %q does not name %s", err, Env)
		}
	}
}

func TestOfferDefers(t *testing.T) {
	bigDescription := strings.Repeat("a long description ", 1200) // about 5,700 tokens each
	small := []fake{{name: "mcp__gh__create_issue"}, {name: "mcp__gh__list_issues"}}
	big := []fake{{name: "mcp__gh__a", description: bigDescription}, {name: "mcp__gh__b", description: bigDescription},
		{name: "mcp__gh__c", description: bigDescription}, {name: "mcp__gh__d", description: bigDescription}}
	tests := []struct {
		name         string
		pool         []tool.Tool
		policy       Policy
		wantSent     []string
		wantDeferred []string
	}{
		{"few MCP tools stay, ToolSearch is not sent", pool(t, small...), Policy{},
			[]string{"Bash", "Read", "mcp__gh__create_issue", "mcp__gh__list_issues"}, nil},
		{"always defers MCP tools", pool(t, small...), Policy{Mode: Always},
			[]string{"Bash", "Read", "ToolSearch"}, []string{"mcp__gh__create_issue", "mcp__gh__list_issues"}},
		{"MCP schemas over 10% of the window are deferred", pool(t, big...), Policy{},
			[]string{"Bash", "Read", "ToolSearch"}, []string{"mcp__gh__a", "mcp__gh__b", "mcp__gh__c", "mcp__gh__d"}},
		{"a larger share keeps them", pool(t, big...), Policy{Percent: 20},
			[]string{"Bash", "Read", "mcp__gh__a", "mcp__gh__b", "mcp__gh__c", "mcp__gh__d"}, nil},
		{"a small window defers few tools", pool(t, small...), Policy{Percent: 1, ContextTokens: 100},
			[]string{"Bash", "Read", "ToolSearch"}, []string{"mcp__gh__create_issue", "mcp__gh__list_issues"}},
		{"ShouldDefer is deferred in auto mode", pool(t, fake{name: "Cron", shouldDefer: true}), Policy{},
			[]string{"Bash", "Read", "ToolSearch"}, []string{"Cron"}},
		{"AlwaysLoad is never deferred", pool(t, fake{name: "mcp__x__keep", alwaysLoad: true}, fake{name: "mcp__x__go"}), Policy{Mode: Always},
			[]string{"Bash", "Read", "ToolSearch", "mcp__x__keep"}, []string{"mcp__x__go"}},
		{"never sends every tool but ToolSearch", pool(t, fake{name: "Cron", shouldDefer: true}, small[0]), Policy{Mode: Never},
			[]string{"Bash", "Read", "Cron", "mcp__gh__create_issue"}, nil},
		{"no deferral without ToolSearch", slices.DeleteFunc(pool(t, fake{name: "Cron", shouldDefer: true}), isToolSearch), Policy{Mode: Always},
			[]string{"Bash", "Read", "Cron"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sent, deferred := tt.policy.Offer(tt.pool, tool.NewSession(t.TempDir()), 0)
			if !slices.Equal(names(sent), tt.wantSent) || !slices.Equal(deferred, tt.wantDeferred) {
				t.Errorf("sent %v, deferred %v; want %v, %v", names(sent), deferred, tt.wantSent, tt.wantDeferred)
			}
		})
	}
}

// runSearch calls ToolSearch as the executor would.
func runSearch(t *testing.T, s *tool.Session, input string) string {
	t.Helper()
	call, err := Tool.Parse(json.RawMessage(input))
	if err != nil {
		t.Fatal(err)
	}
	env := &tool.Env{Session: s}
	if err := call.Validate(context.Background(), env); err != nil {
		return "invalid: " + err.Error()
	}
	res, err := call.Run(context.Background(), env, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res.Content[0].Text
}

func TestLoadedToolsFollowTheStablePrefixInLoadOrder(t *testing.T) {
	p := pool(t, fake{name: "mcp__a__one"}, fake{name: "mcp__a__two"}, fake{name: "mcp__b__three"})
	s := tool.NewSession(t.TempDir())
	first, _ := Policy{Mode: Always}.Offer(p, s, 0)
	runSearch(t, s, `{"query":"select:mcp__b__three"}`)
	runSearch(t, s, `{"query":"select:mcp__a__one,mcp__b__three"}`)
	second, deferred := Policy{Mode: Always}.Offer(p, s, 0)
	want := append(names(first), "mcp__b__three", "mcp__a__one")
	if !slices.Equal(names(second), want) {
		t.Errorf("sent %v, want %v", names(second), want)
	}
	if len(deferred) != 3 {
		t.Errorf("deferred %v: loaded tools stay listed, so the system prompt does not change", deferred)
	}
	if got := Loaded(s); !slices.Equal(got, []string{"mcp__b__three", "mcp__a__one"}) {
		t.Errorf("Loaded = %v", got)
	}
}

func TestSearchResults(t *testing.T) {
	deferred := []fake{
		{name: "NotebookEdit", hint: "edit jupyter notebook cells", params: []string{"notebook_path", "new_source"}},
		{name: "WebFetch", hint: "fetch a url and read the page", params: []string{"url", "prompt"}},
		{name: "CronCreate", hint: "schedule a recurring prompt", params: []string{"cron", "prompt"}},
		{name: "mcp__slack__send_message", description: "Sends a message to a Slack channel.", params: []string{"channel", "text"}},
		{name: "mcp__slack__list_channels", description: "Lists the channels of the workspace.", params: []string{"limit"}},
		{name: "mcp__github__create_issue", description: "Creates an issue in a repository.", params: []string{"repo", "title", "body"}},
	}
	for i := range deferred {
		deferred[i].shouldDefer = true
	}
	queries := []string{
		`{"query":"select:NotebookEdit"}`,
		`{"query":"select:WebFetch, nosuch ,Read"}`,
		`{"query":"select:nosuch"}`,
		`{"query":"jupyter"}`,
		`{"query":"slack"}`,
		`{"query":"slack","max_results":1}`,
		`{"query":"+slack channel"}`,
		`{"query":"mcp__github"}`,
		`{"query":"webfetch"}`,
		`{"query":"issue repo"}`,
		`{"query":"prompt"}`,
		`{"query":"zzzqqq"}`,
		`{"query":"  "}`,
		`{"query":"x","max_results":0}`,
	}
	var b strings.Builder
	for _, q := range queries {
		s := tool.NewSession(t.TempDir())
		Policy{}.Offer(pool(t, deferred...), s, 0)
		fmt.Fprintf(&b, "=== %s\n%s\nloaded: %v\n\n", q, runSearch(t, s, q), Loaded(s))
	}
	golden(t, "results.golden", b.String())
}

func TestNameParts(t *testing.T) {
	tests := map[string][]string{
		"NotebookEdit":             {"notebook", "edit"},
		"mcp__slack__send_message": {"mcp", "slack", "send", "message"},
		"WebFetch":                 {"web", "fetch"},
		"HTTPRequest":              {"http", "request"},
		"mcp__my-server__getURL":   {"mcp", "my", "server", "get", "url"},
	}
	for name, want := range tests {
		if got := nameParts(name); !slices.Equal(got, want) {
			t.Errorf("nameParts(%q) = %v, want %v", name, got, want)
		}
	}
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	goldenfile.Check(t, path, got)
}

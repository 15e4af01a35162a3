package llmtest

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/llm"
)

func TestCheckToolPairs(t *testing.T) {
	use := func(ids ...string) llm.Message {
		var blocks []llm.ContentBlock
		for _, id := range ids {
			blocks = append(blocks, ToolUse(id, "Read", `{}`))
		}
		return assistant(blocks...)
	}
	hi := llm.UserText("hi")
	tests := []struct {
		name string
		msgs []llm.Message
		want []string // one substring per expected violation
	}{
		{"no tools", []llm.Message{hi, assistant(Text("a")), hi}, nil},
		{"paired", []llm.Message{hi, use("a", "b"), user(result("b"), result("a"), Text("go on"))}, nil},
		{"missing result", []llm.Message{hi, use("a", "b"), user(result("a"))}, []string{`"b" has 0 tool_result`}},
		{"duplicate result", []llm.Message{hi, use("a"), user(result("a"), result("a"))}, []string{`"a" has 2 tool_result`}},
		{"unknown id", []llm.Message{hi, use("a"), user(result("a"), result("zz"))}, []string{`unknown tool_use id "zz"`}},
		{"result without any use", []llm.Message{hi, assistant(Text("x")), user(result("a"))}, []string{`unknown tool_use id "a"`}},
		{"text before result", []llm.Message{hi, use("a"), user(Text("first"), result("a"))}, []string{"must come before"}},
		{"ends after tool_use", []llm.Message{hi, use("a")}, []string{"conversation ends after them"}},
		{"result one message late", []llm.Message{hi, use("a"), assistant(Text("x")), user(result("a"))},
			[]string{"next message, which is not a user message", `unknown tool_use id "a"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := checkToolPairs(tt.msgs)
			if len(got) != len(tt.want) {
				t.Fatalf("violations = %q, want %d", got, len(tt.want))
			}
			for i, w := range tt.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("violation %d = %q, want it to contain %q", i, got[i], w)
				}
			}
		})
	}
}

func TestInvalidRequestsAreRejected(t *testing.T) {
	tests := []struct {
		name, body, want string
	}{
		{"not json", `{"model":`, "parse request body"},
		{"no stream", `{"model":"m","max_tokens":5,"messages":[{"role":"user","content":"x"}]}`, "only streaming"},
		{"no model", `{"max_tokens":5,"stream":true,"messages":[{"role":"user","content":"x"}]}`, "model: field required"},
		{"no max_tokens", `{"model":"m","stream":true,"messages":[{"role":"user","content":"x"}]}`, "max_tokens: must be positive"},
		{"no messages", `{"model":"m","max_tokens":5,"stream":true,"messages":[]}`, "at least one message"},
		{"forced tool not offered", `{"model":"m","max_tokens":5,"stream":true,"messages":[{"role":"user","content":"x"}],` +
			`"tools":[{"name":"Read","input_schema":{}}],"tool_choice":{"type":"tool","name":"web_search"}}`, "is not among the request"},
		{"unknown tool_choice type", `{"model":"m","max_tokens":5,"stream":true,"messages":[{"role":"user","content":"x"}],"tool_choice":{"type":"some"}}`, "tool_choice.type"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, err := Start()
			if err != nil {
				t.Fatal(err)
			}
			defer srv.Close()
			srv.Push(Turn{Blocks: []llm.ContentBlock{Text("unused")}})
			resp := post(t, context.Background(), srv.URL, "/v1/messages", []byte(tt.body))
			data, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != 400 || !strings.Contains(string(data), `"type":"invalid_request_error"`) || !strings.Contains(string(data), tt.want) {
				t.Errorf("got %d %s", resp.StatusCode, data)
			}
			v := srv.Violations()
			if len(v) != 1 || !strings.Contains(v[0], tt.want) {
				t.Errorf("violations = %q", v)
			}
			if reqs := srv.Requests(); len(reqs) != 1 || len(reqs[0].Violations) != 1 || srv.Pending() != 1 {
				t.Errorf("recorded %+v, pending %d", reqs, srv.Pending())
			}
		})
	}
}

// TestServerToolsAreToldFromClientTools proves that a request's server tools
// (web_search_20250305) are kept apart from its client tools, and that a
// tool_choice may force a server tool.
func TestServerToolsAreToldFromClientTools(t *testing.T) {
	srv := New(t)
	srv.Push(Turn{Blocks: []llm.ContentBlock{Text("ok")}})
	b := `{"model":"m","max_tokens":5,"stream":true,"messages":[{"role":"user","content":"x"}],` +
		`"tools":[{"name":"Read","input_schema":{"type":"object"}},{"type":"web_search_20250305","name":"web_search","max_uses":8}],` +
		`"tool_choice":{"type":"tool","name":"web_search"}}`
	resp := post(t, context.Background(), srv.URL, "/v1/messages", []byte(b))
	io.Copy(io.Discard, resp.Body)
	req := srv.Requests()[0]
	if len(req.Tools) != 1 || req.Tools[0].Name != "Read" || len(req.ServerTools) != 1 ||
		string(req.ServerTools[0]) != `{"type":"web_search_20250305","name":"web_search","max_uses":8}` ||
		string(req.ToolChoice) != `{"type":"tool","name":"web_search"}` {
		t.Errorf("tools %+v, server tools %s, tool_choice %s", req.Tools, req.ServerTools, req.ToolChoice)
	}
}

package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// TestTUIEscMidTurnThenANewPromptSendsAlternatingRoles interrupts a turn
// while the answer streams and while its tool runs: the next request still
// alternates user and assistant messages, the interrupted prompt and the new
// one joined in one user message (tool results first), on both APIs.
func TestTUIEscMidTurnThenANewPromptSendsAlternatingRoles(t *testing.T) {
	cases := []struct {
		name   string
		turn   llmtest.Turn
		wait   string
		before []string
	}{
		{name: "while the answer streams", turn: llmtest.Turn{Faults: []llmtest.Fault{{Hang: true}}, Blocks: []llm.ContentBlock{llmtest.Text("Done after all.")}},
			wait: "esc to interrupt", before: []string{"start the work"}},
		{name: "while a tool runs", turn: calls(llmtest.ToolUse("s1", "Sleep", `{"label":"long","ms":60000}`)),
			wait: "sleeping", before: []string{"start the work"}},
	}
	for _, provider := range providers {
		for _, c := range cases {
			t.Run(provider+" "+c.name, func(t *testing.T) {
				r := newRunFor(t, provider)
				r.srv.Push(c.turn, text("Done after all."))
				args := []string{}
				if provider != "anthropic" {
					args = append(args, "--provider", provider)
				}
				s := openScreen(t, r, args...)
				s.typeLine("start the work")
				s.waitFor(c.wait)
				// The spinner shows before the request leaves: Esc must
				// come once the server holds it.
				waitRequests(t, r.srv, 1)
				s.keys("Escape")
				s.waitFor("Interrupted")
				s.typeLine("do something else")
				s.waitFor("Done after all.")
				reqs := r.srv.Requests()
				last := reqs[len(reqs)-1]
				checkBodyRolesAlternate(t, provider, last.Body)
				msgs := last.Messages
				final := msgs[len(msgs)-1]
				if final.Role != llm.RoleUser || !strings.HasSuffix(final.Text(), "do something else") {
					t.Errorf("the last message is %s %q, want the new prompt", final.Role, final.Text())
				}
			})
		}
	}
}

// checkBodyRolesAlternate fails the test unless the messages of a request body
// alternate: no two user messages and no two assistant messages in a row
// (a chat completions request's tool messages and system prompt aside), and
// on the Messages API the first is the user's.
func checkBodyRolesAlternate(t *testing.T, provider string, body []byte) {
	t.Helper()
	var req struct {
		Messages []struct {
			Role string `json:"role"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatalf("request body: %v", err)
	}
	var roles []string
	for _, m := range req.Messages {
		if m.Role != "system" {
			roles = append(roles, m.Role)
		}
	}
	if provider == "anthropic" && (len(roles) == 0 || roles[0] != "user") {
		t.Errorf("the messages start with %v, want the user's", roles)
	}
	for i := 1; i < len(roles); i++ {
		if roles[i] == roles[i-1] && roles[i] != "tool" {
			t.Errorf("messages %d and %d are both %s: roles %v", i-1, i, roles[i], roles)
		}
	}
}

package agent_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/hooks"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
	"github.com/mini-claude/mini-claude/internal/permission"
)

// decision is a PermissionRequest hook printing the decision d.
func decision(d string) string {
	return `echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":` + d + `}}'`
}

func TestPermissionRequestHooksAnswerTheQuestionHeadless(t *testing.T) {
	tests := []struct {
		name, command string
		made          string
		result        string
	}{
		{"allow runs the call", decision(`{"behavior":"allow"}`), "made", "Created "},
		{"updatedInput replaces the input", decision(`{"behavior":"allow","updatedInput":{"path":"rewritten"}}`), "rewritten", "Created "},
		{"an invalid updatedInput refuses the call", decision(`{"behavior":"allow","updatedInput":{"path":42}}`), "",
			"PermissionRequest hook for Touch returned updatedInput that failed schema validation: "},
		{"deny refuses with the message", decision(`{"behavior":"deny","message":"Denied by PermissionRequest hook"}`), "", "Denied by PermissionRequest hook"},
		{"deny without a message", decision(`{"behavior":"deny"}`), "", "Permission denied by hook"},
		{"exit 2 decides nothing", `echo 'PermissionRequest says no' >&2; exit 2`, "", "Permission to use Touch has not been granted"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			h.srv.Push(touchTurn("t1", "made"), llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("done")}})
			a := h.agent(t, withHooks(h.cwd, [3]string{hooks.PermissionRequest, "Touch", tt.command}))
			a.Run(context.Background(), "touch it")
			got, _ := lastResultText(t, h, 1)
			if !strings.HasPrefix(got, tt.result) {
				t.Errorf("tool_result %q, want it to start with %q", got, tt.result)
			}
			for _, name := range []string{"made", "rewritten"} {
				if _, err := os.Stat(filepath.Join(h.cwd, name)); (err == nil) != (name == tt.made) {
					t.Errorf("%s exists: %v, want %v", name, err == nil, name == tt.made)
				}
			}
		})
	}
}

func TestAPermissionRequestDenyThatInterruptsEndsTheTurn(t *testing.T) {
	h := newHarness(t)
	h.srv.Push(touchTurn("t1", "made"), llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("done")}})
	a := h.agent(t, withHooks(h.cwd, [3]string{hooks.PermissionRequest, "", decision(`{"behavior":"deny","message":"Stop right there","interrupt":true}`)}))
	res := a.Run(context.Background(), "touch it")
	if res.Outcome != agent.Failed || res.Err == nil || len(h.srv.Requests()) != 1 {
		t.Fatalf("result %+v after %d requests, want the turn ended", res, len(h.srv.Requests()))
	}
	if got := resultText(a.Messages()[2].Content[0]); !strings.HasPrefix(got, "The user doesn't want to proceed with this tool use.") {
		t.Errorf("tool_result %q, want Claude Code's rejection", got)
	}
	var denied []agent.PermissionDenied
	for _, e := range h.events {
		if d, ok := e.(agent.PermissionDenied); ok {
			denied = append(denied, d)
		}
	}
	if len(denied) != 1 || denied[0].Message != "Stop right there" || !denied[0].ByHook {
		t.Errorf("denials %+v, want the hook's message, by the hook", denied)
	}
}

// countingPrompter allows every call and counts the questions.
type countingPrompter struct{ asked atomic.Int32 }

func (c *countingPrompter) Ask(context.Context, permission.Prompt) (permission.Answer, error) {
	c.asked.Add(1)
	return permission.Answer{Allow: true}, nil
}

func TestAPermissionRequestHookAnswersBeforeTheUserIsAsked(t *testing.T) {
	for _, tt := range []struct {
		command string
		asked   int32
	}{{decision(`{"behavior":"allow"}`), 0}, {decision(`{"behavior":"deny"}`), 0}, {"echo no opinion", 1}} {
		h := newHarness(t)
		log := filepath.Join(t.TempDir(), "hooks.jsonl")
		h.srv.Push(touchTurn("t1", "made"), llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("done")}})
		prompter := &countingPrompter{}
		a := h.agent(t, func(o *agent.Options) {
			withHooks(h.cwd, [3]string{hooks.PermissionRequest, "Touch", logThen(log, tt.command)})(o)
			o.Prompter = prompter
		})
		a.Run(context.Background(), "touch it")
		if got := prompter.asked.Load(); got != tt.asked {
			t.Errorf("%s: the user was asked %d times, want %d", tt.command, got, tt.asked)
		}
		in := loggedInputs(t, log)[0]
		want := []any{map[string]any{"type": "addRules", "rules": []any{map[string]any{"toolName": "Touch"}}, "behavior": "allow", "destination": "localSettings"}}
		if in["hook_event_name"] != "PermissionRequest" || in["tool_name"] != "Touch" || !reflect.DeepEqual(in["permission_suggestions"], want) {
			t.Errorf("input %v, want Touch and the rule the UI offers, in Claude Code's shape", in)
		}
	}
}

func TestPermissionSuggestionsAreTheRuleTheUIOffers(t *testing.T) {
	h := newHarness(t)
	log := filepath.Join(t.TempDir(), "hooks.jsonl")
	h.srv.Push(llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("b1", "Bash", `{"command":"npm run test -- --watch=false"}`)}},
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("done")}})
	a := h.agent(t, func(o *agent.Options) {
		withSubAgents(o)
		withHooks(h.cwd, [3]string{hooks.PermissionRequest, "Bash", logThen(log, "true")})(o)
	})
	a.Run(context.Background(), "test")
	got := loggedInputs(t, log)[0]["permission_suggestions"]
	want := []any{map[string]any{"type": "addRules", "rules": []any{map[string]any{"toolName": "Bash", "ruleContent": "npm run test:*"}},
		"behavior": "allow", "destination": "localSettings"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("permission_suggestions = %v, want %v", got, want)
	}
}

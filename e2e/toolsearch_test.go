package e2e

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// inventoryTools is a settings file defining n read-only command tools named
// like the tools of a large MCP server, deferred or not.
func inventoryTools(t *testing.T, n int, deferred bool) string {
	t.Helper()
	var entries []map[string]any
	for i := range n {
		entries = append(entries, map[string]any{
			"name":         fmt.Sprintf("inventory_lookup_item_%03d", i),
			"description":  fmt.Sprintf("Looks up item %d in the inventory service and prints it as JSON.", i),
			"inputSchema":  json.RawMessage(fmt.Sprintf(`{"type":"object","properties":{"id":{"type":"string","description":"Identifier of the item of kind %d"},"fields":{"type":"array","items":{"type":"string"},"description":"Fields to print; all when empty"}},"required":["id"],"additionalProperties":false}`, i)),
			"command":      fmt.Sprintf(`printf 'item %%s of kind %d\n' "$TOOL_INPUT_ID"`, i),
			"readOnly":     true,
			"deferLoading": deferred,
		})
	}
	b, err := json.Marshal(map[string]any{"tools": entries})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// toolsOf returns the elements of the tools array of a request body as sent,
// without the cache breakpoint the Anthropic client puts on the last tool
// (it marks where a cached prefix ends and is not part of the prefix).
func toolsOf(t *testing.T, body []byte) []string {
	t.Helper()
	var req struct {
		Tools []json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(req.Tools))
	for i, raw := range req.Tools {
		out[i] = strings.Replace(string(raw), `,"cache_control":{"type":"ephemeral"}`, "", 1)
	}
	return out
}

// firstBody runs the binary once with the settings given (none when empty)
// as the user's own, where a tool's readOnly is trusted, and returns the body
// of the run's first request.
func firstBody(t *testing.T, r *run, settings string) []byte {
	t.Helper()
	r.userSettings(settings)
	before := len(r.srv.Requests())
	r.srv.Push(text("ok"))
	if out := r.exec("-p", "hi"); out.code != 0 {
		t.Fatalf("exit %d: %s", out.code, out.stderr)
	}
	return r.srv.Requests()[before].Body
}

func TestTwoHundredDeferredToolsThroughTheBinary(t *testing.T) {
	for _, provider := range providers {
		t.Run(provider, func(t *testing.T) {
			r := newRunFor(t, provider)
			without := len(firstBody(t, r, `{}`))
			deferred := len(firstBody(t, r, inventoryTools(t, 200, true)))
			inline := len(firstBody(t, r, inventoryTools(t, 200, false)))
			cost := (deferred - without) / 4
			t.Logf("%s request body: %d bytes without the 200 tools; deferred +%d bytes (%d tokens at 4 bytes a token); inline +%d bytes (%d tokens)",
				provider, without, deferred-without, cost, inline-without, (inline-without)/4)
			if cost >= 2000 {
				t.Errorf("200 deferred tools cost %d tokens, want < 2000", cost)
			}

			r.userSettings(inventoryTools(t, 200, true))
			before := len(r.srv.Requests())
			target := "inventory_lookup_item_137"
			r.srv.Push(
				calls(llmtest.ToolUse("s1", "ToolSearch", `{"query":"lookup item 137","max_results":1}`)),
				calls(llmtest.ToolUse("c1", target, `{"id":"A-1"}`)),
				text("done"),
			)
			if out := r.exec("-p", "find item A-1"); out.code != 0 {
				t.Fatalf("exit %d: %s", out.code, out.stderr)
			}
			reqs := r.srv.Requests()[before:]
			first, second := toolsOf(t, reqs[0].Body), toolsOf(t, reqs[1].Body)
			if strings.Contains(strings.Join(first, ""), "inventory_") || !strings.Contains(strings.Join(first, ""), `"ToolSearch"`) {
				t.Errorf("first request sends deferred tools, or no ToolSearch")
			}
			if len(second) != len(first)+1 || !strings.Contains(second[len(first)], `"name":"`+target+`"`) {
				t.Fatalf("second request has %d tools after %d; want %s appended", len(second), len(first), target)
			}
			for i := range first {
				if first[i] != second[i] {
					t.Errorf("tool %d changed:\n%s\n%s", i, first[i], second[i])
				}
			}
			if reqs[0].System != reqs[1].System || !strings.Contains(reqs[0].System, "<available-deferred-tools>") {
				t.Error("the system prompt changed, or does not list the deferred tools")
			}
			if found := contentText(lastResults(t, r.srv, before+1)[0]); !strings.HasPrefix(found, "<functions>\n<function>") ||
				!strings.Contains(found, `"name":"`+target+`"`) || strings.Count(found, "<function>") != 1 {
				t.Errorf("ToolSearch result %q", found)
			}
			if got := lastResults(t, r.srv, before+2)[0]; contentText(got) != "item A-1 of kind 137" {
				t.Errorf("the loaded tool answered %q", contentText(got))
			}
		})
	}
}

func TestToolSearchPolicyFromTheEnvironment(t *testing.T) {
	r := newRun(t)
	r.userSettings(inventoryTools(t, 2, true))
	out := r.exec("system-prompt")
	if out.code != 0 || !strings.Contains(out.stdout, "<available-deferred-tools>\n") ||
		!strings.HasSuffix(strings.TrimSpace(out.stdout), "inventory_lookup_item_000\ninventory_lookup_item_001\n</available-deferred-tools>") {
		t.Errorf("system-prompt: exit %d, does not end with the deferred tools:\n%s", out.code, out.stdout)
	}

	r.setenv("MINI_CLAUDE_TOOL_SEARCH=0")
	r.srv.Push(text("ok"))
	if out := r.exec("-p", "hi"); out.code != 0 {
		t.Fatalf("exit %d: %s", out.code, out.stderr)
	}
	req := r.srv.Requests()[0]
	var sent []string
	for _, spec := range req.Tools {
		sent = append(sent, spec.Name)
	}
	if got := strings.Join(sent, ","); !strings.Contains(got, "inventory_lookup_item_000,inventory_lookup_item_001") || strings.Contains(got, "ToolSearch") ||
		strings.Contains(req.System, "<available-deferred-tools>") {
		t.Errorf("with MINI_CLAUDE_TOOL_SEARCH=0 the tools sent are %s", got)
	}

	r.setenv("MINI_CLAUDE_TOOL_SEARCH=sometimes")
	if out := r.exec("-p", "hi"); out.code != 2 || !strings.Contains(out.stderr, `MINI_CLAUDE_TOOL_SEARCH="sometimes": use 1`) {
		t.Errorf("bad value: exit %d, stderr %q", out.code, out.stderr)
	}
}

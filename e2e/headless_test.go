package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"os/exec"

	"github.com/mini-claude/mini-claude/internal/cli"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// testTools limits a run to the test tools, so expectations about the tool
// list hold whatever built-ins exist.
const testTools = "Fail,Panic,Sleep,Touch"

func text(s string) llmtest.Turn {
	return llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text(s)}}
}

func calls(blocks ...llm.ContentBlock) llmtest.Turn {
	return llmtest.Turn{Blocks: blocks}
}

// lastResults returns the tool_result blocks of the last message of request i.
func lastResults(t *testing.T, srv *llmtest.Server, i int) []llm.ContentBlock {
	t.Helper()
	reqs := srv.Requests()
	if len(reqs) <= i {
		t.Fatalf("%d requests reached the server, want more than %d", len(reqs), i)
	}
	msgs := reqs[i].Messages
	return msgs[len(msgs)-1].Content
}

func contentText(b llm.ContentBlock) string {
	var parts []string
	for _, c := range b.Content {
		parts = append(parts, c.Text)
	}
	return strings.Join(parts, "\n")
}

// lines decodes stream-json output, one object per line.
func lines(t *testing.T, out string) []map[string]any {
	t.Helper()
	var events []map[string]any
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		var ev map[string]any
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("line %q is not JSON: %v", line, err)
		}
		events = append(events, ev)
	}
	return events
}

func TestTextOnlyRun(t *testing.T) {
	for _, provider := range providers {
		t.Run(provider, func(t *testing.T) {
			r := newRunFor(t, provider)
			r.srv.Push(text("Hello from the model."))
			out := r.exec("-p", "say hello")
			if out.code != 0 || out.stdout != "Hello from the model.\n" || out.stderr != "" {
				t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
			}
			req := r.srv.Requests()[0]
			wantModel := llm.DefaultModel
			if provider == "openai" {
				wantModel = cli.DefaultOpenAIModel
			}
			if req.Messages[0].Text() != "say hello" || !strings.Contains(req.System, "mini-claude") || req.Model != wantModel || req.Path != r.apiPath() {
				t.Errorf("request: %s, model %q, first message %q, system mentions mini-claude: %v",
					req.Path, req.Model, req.Messages[0].Text(), strings.Contains(req.System, "mini-claude"))
			}
		})
	}
}

func TestPromptFromStdin(t *testing.T) {
	r := newRun(t)
	r.stdin = "line one\nline two\n"
	r.srv.Push(text("ok"))
	if out := r.exec("-p", "summarise"); out.code != 0 {
		t.Fatalf("exit %d: %s", out.code, out.stderr)
	}
	if got := r.srv.Requests()[0].Messages[0].Text(); got != "line one\nline two\n\nsummarise" {
		t.Errorf("prompt = %q", got)
	}
}

var sleepSpan = regexp.MustCompile(`start=(\d+) end=(\d+)`)

func TestParallelCallsOverlapAndReturnInCallOrder(t *testing.T) {
	for _, provider := range providers {
		t.Run(provider, func(t *testing.T) {
			r := newRunFor(t, provider)
			r.srv.Push(
				calls(
					llmtest.ToolUse("s1", "Sleep", `{"label":"a","ms":400}`),
					llmtest.ToolUse("s2", "Sleep", `{"label":"b","ms":200}`),
					llmtest.ToolUse("s3", "Sleep", `{"label":"c","ms":300}`),
				),
				text("all slept"),
			)
			out := r.exec("-p", "sleep", "--tools", "Sleep")
			if out.code != 0 || out.stdout != "all slept\n" {
				t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
			}
			results := lastResults(t, r.srv, 1)
			var latestStart, earliestEnd int64 = 0, 1 << 62
			for i, id := range []string{"s1", "s2", "s3"} {
				if results[i].ToolUseID != id {
					t.Fatalf("result %d answers %s, want %s (call order)", i, results[i].ToolUseID, id)
				}
				m := sleepSpan.FindStringSubmatch(contentText(results[i]))
				if m == nil {
					t.Fatalf("result %q has no span", contentText(results[i]))
				}
				start, _ := strconv.ParseInt(m[1], 10, 64)
				end, _ := strconv.ParseInt(m[2], 10, 64)
				latestStart, earliestEnd = max(latestStart, start), min(earliestEnd, end)
			}
			if latestStart >= earliestEnd {
				t.Errorf("calls did not overlap: latest start %d >= earliest end %d", latestStart, earliestEnd)
			}
			if tools := r.srv.Requests()[0].Tools; len(tools) != 1 || tools[0].Name != "Sleep" {
				t.Errorf("--tools Sleep sent %d tools", len(tools))
			}
		})
	}
}

func TestToolFailuresAreReportedToTheModel(t *testing.T) {
	for _, provider := range providers {
		t.Run(provider, func(t *testing.T) {
			r := newRunFor(t, provider)
			r.srv.Push(
				calls(
					llmtest.ToolUse("f", "Fail", `{"message":"disk on fire"}`),
					llmtest.ToolUse("u", "Nope", `{}`),
					llmtest.ToolUse("i", "Sleep", `{"ms":"soon"}`),
					llmtest.ToolUse("p", "Panic", `{"message":"boom"}`),
				),
				text("handled"),
			)
			out := r.exec("-p", "break", "--output-format", "json", "--tools", testTools)
			if out.code != 0 {
				t.Fatalf("exit %d: %s", out.code, out.stderr)
			}
			want := []string{
				"<tool_use_error>disk on fire</tool_use_error>",
				"<tool_use_error>Error: No such tool available: Nope. The available tools are: Fail, Panic, Sleep, Touch.</tool_use_error>",
				"<tool_use_error>InputValidationError: Sleep failed due to the following issues:\nThe required parameter `label` is missing\nThe parameter `ms` type is expected as `integer` but provided as `string`</tool_use_error>",
				"<tool_use_error>the Panic tool crashed (boom). This is a fault in the tool, not in your input: try another way to reach the goal</tool_use_error>",
			}
			for i, result := range lastResults(t, r.srv, 1) {
				if result.IsError != r.flagsErrors() || contentText(result) != want[i] {
					t.Errorf("result %d:\n got %q (error %v)\nwant %q", i, contentText(result), result.IsError, want[i])
				}
			}
		})
	}
}

func TestRateLimitThenSuccess(t *testing.T) {
	for _, provider := range providers {
		t.Run(provider, func(t *testing.T) {
			r := newRunFor(t, provider)
			r.srv.Push(llmtest.Turn{Faults: []llmtest.Fault{{Status: 429, RetryAfterMs: 20}}, Blocks: []llm.ContentBlock{llmtest.Text("made it")}})
			out := r.exec("-p", "hi", "--output-format", "stream-json", "--verbose")
			if out.code != 0 {
				t.Fatalf("exit %d: %s", out.code, out.stderr)
			}
			events := lines(t, out.stdout)
			retry := events[1]
			if retry["type"] != "system" || retry["subtype"] != "api_retry" || retry["attempt"] != 1.0 || retry["error_status"] != 429.0 {
				t.Errorf("second event = %v, want an api_retry for the 429", retry)
			}
			if last := events[len(events)-1]; last["result"] != "made it" || len(r.srv.Requests()) != 2 {
				t.Errorf("result %v after %d requests", last["result"], len(r.srv.Requests()))
			}
		})
	}
}

func TestStreamCutMidToolUseIsRequestedAgainNotHalfRun(t *testing.T) {
	for _, provider := range providers {
		t.Run(provider, func(t *testing.T) {
			r := newRunFor(t, provider)
			r.srv.Push(
				llmtest.Turn{
					Faults: []llmtest.Fault{{DropAfterEvents: 5}},
					Blocks: []llm.ContentBlock{llmtest.ToolUse("t1", "Touch", `{"path":"made-once.txt"}`)},
				},
				text("touched"),
			)
			out := r.exec("-p", "touch it", "--allowedTools", "Touch")
			if out.code != 0 || out.stdout != "touched\n" {
				t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
			}
			reqs := r.srv.Requests()
			if len(reqs) != 3 || len(reqs[1].Messages) != 1 {
				t.Fatalf("%d requests; the retry carried %d messages, want 3 requests and a fresh retry", len(reqs), len(reqs[1].Messages))
			}
			if results := lastResults(t, r.srv, 2); len(results) != 1 || results[0].ToolUseID != "t1" || results[0].IsError {
				t.Errorf("results after the retry = %+v, want one successful t1", results)
			}
			if _, err := os.Stat(filepath.Join(r.dir, "made-once.txt")); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestMaxTurns(t *testing.T) {
	for _, provider := range providers {
		t.Run(provider, func(t *testing.T) {
			r := newRunFor(t, provider)
			r.srv.Push(calls(llmtest.ToolUse("s", "Sleep", `{"label":"x","ms":1}`)))
			out := r.exec("-p", "loop", "--max-turns", "1", "--output-format", "json")
			if out.code != 1 {
				t.Fatalf("exit %d, want 1", out.code)
			}
			var res map[string]any
			if err := json.Unmarshal([]byte(out.stdout), &res); err != nil {
				t.Fatal(err)
			}
			if res["subtype"] != "error_max_turns" || res["is_error"] != true || res["num_turns"] != 2.0 || res["terminal_reason"] != "max_turns" {
				t.Errorf("result = %v", res)
			}
			if !strings.Contains(out.stderr, "maximum number of turns (1)") || strings.Count(out.stderr, "\n") != 1 {
				t.Errorf("stderr = %q, want one line about max turns", out.stderr)
			}
			if len(r.srv.Requests()) != 1 {
				t.Errorf("%d requests, want 1", len(r.srv.Requests()))
			}
		})
	}
}

func TestLoopDetectionStopsTheRun(t *testing.T) {
	r := newRun(t)
	for range 5 {
		r.srv.Push(calls(llmtest.ToolUse("", "Fail", `{"message":"again"}`)))
	}
	out := r.exec("-p", "loop")
	if out.code != 1 || !strings.Contains(out.stderr, "repeated the same failing tool call") {
		t.Fatalf("exit %d, stderr %q", out.code, out.stderr)
	}
	if warning := contentText(lastResults(t, r.srv, 3)[0]); !strings.Contains(warning, "has now failed 3 times") {
		t.Errorf("third failure result = %q, want the loop warning", warning)
	}
}

func TestHeadlessPermissionIsDeniedAndReported(t *testing.T) {
	r := newRun(t)
	r.srv.Push(calls(llmtest.ToolUse("w", "Touch", `{"path":"nope.txt"}`)), text("could not"))
	out := r.exec("-p", "touch", "--output-format", "stream-json", "--verbose")
	if out.code != 0 {
		t.Fatalf("exit %d: %s", out.code, out.stderr)
	}
	if _, err := os.Stat(filepath.Join(r.dir, "nope.txt")); err == nil {
		t.Error("the denied call ran")
	}
	events := lines(t, out.stdout)
	var denied map[string]any
	for _, ev := range events {
		if ev["subtype"] == "permission_denied" {
			denied = ev
		}
	}
	if denied == nil || denied["tool_name"] != "Touch" || denied["tool_use_id"] != "w" {
		t.Errorf("permission_denied event = %v", denied)
	}
	result := events[len(events)-1]
	denials, _ := result["permission_denials"].([]any)
	if len(denials) != 1 || denials[0].(map[string]any)["tool_input"].(map[string]any)["path"] != "nope.txt" {
		t.Errorf("permission_denials = %v", result["permission_denials"])
	}
	if msg := contentText(lastResults(t, r.srv, 1)[0]); !strings.Contains(msg, "--allowedTools Touch") {
		t.Errorf("the model was told %q, want how to grant it", msg)
	}
}

func TestStreamJSONFieldByField(t *testing.T) {
	r := newRun(t)
	r.srv.Push(
		calls(llmtest.Text("Sleeping."), llmtest.ToolUse("s1", "Sleep", `{"label":"a","ms":1}`), llmtest.ToolUse("s2", "Fail", `{"message":"no"}`)),
		text("Done."),
	)
	out := r.exec("-p", "go", "--output-format", "stream-json", "--verbose", "--model", "claude-sonnet-4-5", "--tools", testTools)
	if out.code != 0 {
		t.Fatalf("exit %d: %s", out.code, out.stderr)
	}
	events := lines(t, out.stdout)
	kinds := []string{}
	for _, ev := range events {
		kinds = append(kinds, fmt.Sprint(ev["type"]))
	}
	if got := strings.Join(kinds, " "); got != "system assistant assistant assistant user user assistant result" {
		t.Fatalf("event types = %s", got)
	}
	init := events[0]
	sessionID, _ := init["session_id"].(string)
	if init["subtype"] != "init" || init["cwd"] != r.dir || init["model"] != "claude-sonnet-4-5" ||
		init["permissionMode"] != "default" || len(sessionID) != 36 || init["apiKeySource"] != "ANTHROPIC_API_KEY" {
		t.Errorf("init = %v", init)
	}
	if tools, _ := init["tools"].([]any); len(tools) != 4 || tools[0] != "Fail" {
		t.Errorf("init tools = %v", init["tools"])
	}
	if servers, ok := init["mcp_servers"].([]any); !ok || len(servers) != 0 {
		t.Errorf("mcp_servers = %v, want []", init["mcp_servers"])
	}
	for i, ev := range events[1:7] {
		if ev["session_id"] != sessionID || len(fmt.Sprint(ev["uuid"])) != 36 {
			t.Errorf("event %d: session %v uuid %v", i+1, ev["session_id"], ev["uuid"])
		}
	}
	first := events[1]["message"].(map[string]any)
	content := first["content"].([]any)
	if first["role"] != "assistant" || first["model"] != "claude-sonnet-4-5" || len(content) != 1 ||
		content[0].(map[string]any)["text"] != "Sleeping." || !strings.HasPrefix(fmt.Sprint(first["id"]), "msg_") {
		t.Errorf("first assistant event = %v", first)
	}
	if id := events[2]["message"].(map[string]any)["id"]; id != first["id"] {
		t.Errorf("blocks of one message have ids %v and %v", first["id"], id)
	}
	toolUse := events[2]["message"].(map[string]any)["content"].([]any)[0].(map[string]any)
	if toolUse["type"] != "tool_use" || toolUse["id"] != "s1" || toolUse["name"] != "Sleep" || toolUse["input"].(map[string]any)["label"] != "a" {
		t.Errorf("tool_use event = %v", toolUse)
	}
	// User events come as each call finishes, as in Claude Code; the API message keeps call order.
	userEvents := map[string]map[string]any{}
	for _, ev := range events[4:6] {
		block := ev["message"].(map[string]any)["content"].([]any)[0].(map[string]any)
		if ev["message"].(map[string]any)["role"] != "user" {
			t.Errorf("user event has role %v", ev["message"].(map[string]any)["role"])
		}
		block["tool_use_result"] = ev["tool_use_result"]
		userEvents[fmt.Sprint(block["tool_use_id"])] = block
	}
	if ok := userEvents["s1"]; ok == nil || ok["is_error"] != nil || !strings.HasPrefix(fmt.Sprint(ok["tool_use_result"]), "a start=") {
		t.Errorf("s1 user event = %v", ok)
	}
	if failed := userEvents["s2"]; failed == nil || failed["is_error"] != true || failed["tool_use_result"] != "Error: no" {
		t.Errorf("s2 user event = %v", failed)
	}
	if results := lastResults(t, r.srv, 1); results[0].ToolUseID != "s1" || results[1].ToolUseID != "s2" {
		t.Errorf("the API message is not in call order: %s, %s", results[0].ToolUseID, results[1].ToolUseID)
	}
	res := events[7]
	checkResult(t, res, "success", false, "Done.", sessionID)
	if res["num_turns"] != 2.0 || res["stop_reason"] != "end_turn" {
		t.Errorf("num_turns %v stop_reason %v", res["num_turns"], res["stop_reason"])
	}
}

func checkResult(t *testing.T, res map[string]any, subtype string, isError bool, result, sessionID string) {
	t.Helper()
	usage, _ := res["usage"].(map[string]any)
	if res["type"] != "result" || res["subtype"] != subtype || res["is_error"] != isError || res["result"] != result ||
		res["session_id"] != sessionID || usage["input_tokens"] == nil || usage["output_tokens"] == nil {
		t.Errorf("result = %v", res)
	}
	for _, key := range []string{"duration_ms", "duration_api_ms", "num_turns", "total_cost_usd"} {
		if _, ok := res[key].(float64); !ok {
			t.Errorf("result[%s] = %v, want a number", key, res[key])
		}
	}
	if denials, ok := res["permission_denials"].([]any); !ok || len(denials) != 0 {
		t.Errorf("permission_denials = %v, want []", res["permission_denials"])
	}
}

func TestJSONOutputIsOnlyTheResult(t *testing.T) {
	r := newRun(t)
	r.srv.Push(llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("42")}, Usage: llm.Usage{InputTokens: 1000, OutputTokens: 100}})
	out := r.exec("-p", "answer", "--output-format", "json")
	if out.code != 0 || strings.Count(out.stdout, "\n") != 1 {
		t.Fatalf("exit %d, stdout %q", out.code, out.stdout)
	}
	var res map[string]any
	if err := json.Unmarshal([]byte(out.stdout), &res); err != nil {
		t.Fatal(err)
	}
	checkResult(t, res, "success", false, "42", res["session_id"].(string))
	if cost := res["total_cost_usd"].(float64); cost <= 0 {
		t.Errorf("total_cost_usd = %v, want > 0 for a priced model", cost)
	}
}

func TestAPIErrorAfterRetriesExitsOne(t *testing.T) {
	r := newRun(t)
	r.setenv("MINI_CLAUDE_MAX_RETRIES=1")
	r.srv.Push(llmtest.Turn{Faults: []llmtest.Fault{{Status: 500}, {Status: 500}}, Blocks: []llm.ContentBlock{llmtest.Text("unreached")}})
	out := r.exec("-p", "hi", "--output-format", "json")
	var res map[string]any
	json.Unmarshal([]byte(out.stdout), &res)
	if out.code != 1 || res["subtype"] != "error_during_execution" || res["is_error"] != true || res["api_error_status"] != 500.0 {
		t.Errorf("exit %d, result %v", out.code, res)
	}
	if strings.Count(out.stderr, "\n") != 1 || !strings.Contains(out.stderr, "500") {
		t.Errorf("stderr = %q, want one line naming the 500", out.stderr)
	}
}

func TestUsageAndConfigurationErrorsExitTwo(t *testing.T) {
	tests := []struct {
		name string
		env  string
		args []string
		want string
	}{
		{"no key", "ANTHROPIC_API_KEY=", []string{"-p", "hi"}, "ANTHROPIC_API_KEY"},
		{"bad flag", "", []string{"-p", "hi", "--frobnicate"}, "unknown flag: --frobnicate"},
		{"bad format", "", []string{"-p", "hi", "--output-format", "yaml"}, "--output-format"},
		{"bad mode", "", []string{"-p", "hi", "--permission-mode", "yolo"}, "unknown permission mode"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRun(t)
			if tt.env != "" {
				r.setenv(tt.env)
			}
			out := r.exec(tt.args...)
			if out.code != 2 || !strings.Contains(out.stderr, tt.want) || strings.Count(out.stderr, "\n") != 1 || out.stdout != "" {
				t.Errorf("exit %d, stdout %q, stderr %q; want 2 and one line containing %q", out.code, out.stdout, out.stderr, tt.want)
			}
			if len(r.srv.Requests()) != 0 {
				t.Error("a request was sent")
			}
		})
	}
}

func TestInterruptExits130(t *testing.T) {
	r := newRun(t)
	r.srv.Push(calls(llmtest.ToolUse("s", "Sleep", `{"label":"long","ms":60000}`)))
	cmd := exec.Command(binary, "-p", "sleep long")
	cmd.Dir, cmd.Env = r.dir, r.env
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for len(r.srv.Requests()) == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGINT)
	done := make(chan error)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		t.Fatal("the binary did not stop on SIGINT")
	}
	if code := cmd.ProcessState.ExitCode(); code != 130 {
		t.Errorf("exit code = %d, want 130", code)
	}
}

func TestToolsAndSystemPromptNeedNoKeyOrNetwork(t *testing.T) {
	r := newRun(t)
	r.setenv("ANTHROPIC_API_KEY=")
	r.setenv("ANTHROPIC_BASE_URL=http://127.0.0.1:1")
	os.WriteFile(filepath.Join(r.dir, "CLAUDE.md"), []byte("Always answer in French."), 0o644)
	out := r.exec("tools", "--disallowedTools", "Panic")
	if out.code != 0 {
		t.Fatalf("tools: exit %d: %s", out.code, out.stderr)
	}
	want := []string{
		`NAME\s+READ-ONLY\s+CONCURRENCY-SAFE\s+DEFERRED\s+ENABLED`,
		`Fail\s+yes\s+yes\s+no\s+yes`,
		`Panic\s+yes\s+no\s+no\s+no`,
		`Sleep\s+yes\s+yes\s+no\s+yes`,
		`Touch\s+no\s+no\s+no\s+yes`,
	}
	for _, pattern := range want {
		if !regexp.MustCompile(pattern).MatchString(out.stdout) {
			t.Errorf("tools output lacks %q:\n%s", pattern, out.stdout)
		}
	}
	out = r.exec("system-prompt", "--append-system-prompt", "APPENDED")
	if out.code != 0 || !strings.Contains(out.stdout, "Always answer in French.") || !strings.Contains(out.stdout, r.dir) ||
		!strings.HasSuffix(withoutDeferredTools(strings.TrimSpace(out.stdout)), "APPENDED") {
		t.Errorf("system-prompt: exit %d\n%s", out.code, out.stdout)
	}
}

// withoutDeferredTools is a system prompt without the list of deferred
// tools (WebFetch, WebSearch) the agent puts after it.
func withoutDeferredTools(system string) string {
	if i := strings.LastIndex(system, "\n\n<available-deferred-tools>"); i >= 0 && strings.HasSuffix(system, "</available-deferred-tools>") {
		return system[:i]
	}
	return system
}

func TestSystemPromptFlagsReachTheModel(t *testing.T) {
	r := newRun(t)
	r.srv.Push(text("a"), text("b"))
	r.exec("-p", "x", "--system-prompt", "You are a test.")
	r.exec("-p", "x", "--append-system-prompt", "Extra rule.")
	reqs := r.srv.Requests()
	if withoutDeferredTools(reqs[0].System) != "You are a test." {
		t.Errorf("--system-prompt sent %q", reqs[0].System)
	}
	if !strings.HasSuffix(withoutDeferredTools(reqs[1].System), "Extra rule.") || !strings.Contains(reqs[1].System, "mini-claude") {
		t.Errorf("--append-system-prompt sent %q", reqs[1].System)
	}
}

package agent_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/examples/wordcount"
	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/anthropic"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
	"github.com/mini-claude/mini-claude/internal/permission"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools/testtools"
)

// harness runs an agent against the scripted model server over real HTTP.
type harness struct {
	srv    *llmtest.Server
	cwd    string
	mu     sync.Mutex
	events []agent.Event
}

func newHarness(t *testing.T) *harness {
	return &harness{srv: llmtest.New(t), cwd: t.TempDir()}
}

func (h *harness) agent(t *testing.T, configure func(*agent.Options)) *agent.Agent {
	t.Helper()
	client, err := anthropic.New(anthropic.Config{APIKey: "test-key", BaseURL: h.srv.URL, BaseDelay: time.Millisecond, MaxDelay: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	opts := agent.Options{
		Client: client, Model: "claude-opus-5-5", System: "test system prompt",
		Tools:       append(testtools.All(), wordcount.Tool),
		Permissions: &permission.Context{Mode: permission.ModeDefault},
		Env:         tool.Env{Cwd: h.cwd},
		OnEvent: func(e agent.Event) {
			h.mu.Lock()
			defer h.mu.Unlock()
			h.events = append(h.events, e)
		},
	}
	if configure != nil {
		configure(&opts)
	}
	return agent.New(opts)
}

// results returns the tool_result blocks the agent sent back in the request of
// the given index.
func (h *harness) results(t *testing.T, request int) []llm.ContentBlock {
	t.Helper()
	reqs := h.srv.Requests()
	if len(reqs) <= request {
		t.Fatalf("only %d requests reached the server, want request %d", len(reqs), request)
	}
	msgs := reqs[request].Messages
	last := msgs[len(msgs)-1]
	if last.Role != llm.RoleUser {
		t.Fatalf("last message of request %d is %s, want user", request, last.Role)
	}
	return last.Content
}

func resultText(b llm.ContentBlock) string {
	var s []string
	for _, c := range b.Content {
		s = append(s, c.Text)
	}
	return strings.Join(s, "\n")
}

func sleepCall(id, label string, ms int, serial bool) llm.ContentBlock {
	return llmtest.ToolUse(id, "Sleep", fmt.Sprintf(`{"label":%q,"ms":%d,"serial":%v}`, label, ms, serial))
}

var interval = regexp.MustCompile(`start=(\d+) end=(\d+)`)

func span(t *testing.T, b llm.ContentBlock) (int64, int64) {
	t.Helper()
	m := interval.FindStringSubmatch(resultText(b))
	if m == nil {
		t.Fatalf("result %q has no start/end", resultText(b))
	}
	start, _ := strconv.ParseInt(m[1], 10, 64)
	end, _ := strconv.ParseInt(m[2], 10, 64)
	return start, end
}

func TestTextOnlyRun(t *testing.T) {
	h := newHarness(t)
	h.srv.Push(llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("Hello there.")}})
	res := h.agent(t, nil).Run(context.Background(), "hi")
	if res.Outcome != agent.Completed || res.Text != "Hello there." || res.NumTurns != 1 {
		t.Fatalf("result = %+v, want completed with the text after 1 turn", res)
	}
	req := h.srv.Requests()[0]
	if req.System != "test system prompt" || len(req.Tools) != 5 || req.Messages[0].Text() != "hi" {
		t.Errorf("request system %q, %d tools, first message %q", req.System, len(req.Tools), req.Messages[0].Text())
	}
	if res.Usage != llmtest.DefaultUsage || res.CostUSD <= 0 {
		t.Errorf("usage %+v cost %v, want the server's usage and a positive cost", res.Usage, res.CostUSD)
	}
}

func TestConcurrencySafeCallsOverlapAndReturnInOrder(t *testing.T) {
	h := newHarness(t)
	h.srv.Push(
		llmtest.Turn{Blocks: []llm.ContentBlock{
			sleepCall("c1", "one", 300, false), sleepCall("c2", "two", 300, false), sleepCall("c3", "three", 300, false),
		}},
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("done")}},
	)
	res := h.agent(t, nil).Run(context.Background(), "sleep thrice")
	if res.Outcome != agent.Completed {
		t.Fatalf("outcome %v: %v", res.Outcome, res.Err)
	}
	results := h.results(t, 1)
	if len(results) != 3 {
		t.Fatalf("got %d results in one message, want 3", len(results))
	}
	var latestStart, earliestEnd int64 = 0, 1 << 62
	for i, want := range []string{"c1", "c2", "c3"} {
		if results[i].ToolUseID != want || results[i].IsError {
			t.Errorf("result %d answers %s (error %v), want %s in call order", i, results[i].ToolUseID, results[i].IsError, want)
		}
		start, end := span(t, results[i])
		latestStart, earliestEnd = max(latestStart, start), min(earliestEnd, end)
	}
	if latestStart >= earliestEnd {
		t.Errorf("the three calls did not overlap: latest start %d, earliest end %d", latestStart, earliestEnd)
	}
}

func TestUnsafeCallIsABarrier(t *testing.T) {
	h := newHarness(t)
	h.srv.Push(
		llmtest.Turn{Blocks: []llm.ContentBlock{
			sleepCall("a", "a", 100, false), sleepCall("b", "b", 100, true), sleepCall("c", "c", 100, false),
		}},
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("done")}},
	)
	h.agent(t, nil).Run(context.Background(), "go")
	results := h.results(t, 1)
	_, aEnd := span(t, results[0])
	bStart, bEnd := span(t, results[1])
	cStart, _ := span(t, results[2])
	if bStart < aEnd || cStart < bEnd {
		t.Errorf("serial call overlapped: a ends %d, b runs %d-%d, c starts %d", aEnd, bStart, bEnd, cStart)
	}
}

func TestFailuresBecomeErrorResults(t *testing.T) {
	h := newHarness(t)
	h.srv.Push(
		llmtest.Turn{Blocks: []llm.ContentBlock{
			llmtest.ToolUse("f", "Fail", `{"message":"disk on fire"}`),
			llmtest.ToolUse("p", "Panic", `{"message":"boom"}`),
			llmtest.ToolUse("u", "NoSuchTool", `{}`),
			llmtest.ToolUse("i", "Sleep", `{"label":1,"bogus":true}`),
			llmtest.ToolUse("v", "WordCount", `{"file_path":"missing.txt"}`),
		}},
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("recovered")}},
	)
	res := h.agent(t, nil).Run(context.Background(), "break things")
	if res.Outcome != agent.Completed || res.Text != "recovered" {
		t.Fatalf("the session did not go on: %+v", res)
	}
	want := []string{
		"<tool_use_error>disk on fire</tool_use_error>",
		"the Panic tool crashed (boom)",
		"No such tool available: NoSuchTool. The available tools are: Sleep, Fail, Panic, Touch, WordCount.",
		"InputValidationError: Sleep failed due to the following issues:\nThe parameter `label` type is expected as `string` but provided as `number`\nThe required parameter `ms` is missing\nAn unexpected parameter `bogus` was provided",
		"file missing.txt does not exist",
	}
	for i, result := range h.results(t, 1) {
		if !result.IsError || !strings.Contains(resultText(result), want[i]) {
			t.Errorf("result %d = %q (error %v), want an error containing %q", i, resultText(result), result.IsError, want[i])
		}
	}
}

func TestPermissionDecisions(t *testing.T) {
	tests := []struct {
		name        string
		perm        permission.Context
		wantCreated bool
		wantText    string
	}{
		{"headless ask is refused", permission.Context{Mode: permission.ModeDefault}, false, "Permission to use Touch has not been granted"},
		{"allow rule", permission.Context{Mode: permission.ModeDefault, Allow: []permission.Rule{{Tool: "Touch"}}}, true, "Created"},
		{"plan mode refuses writes", permission.Context{Mode: permission.ModePlan}, false, "plan mode only allows read-only tools"},
		{"deny beats bypass", permission.Context{Mode: permission.ModeBypassPermissions, Deny: []permission.Rule{{Tool: "Touch"}}}, false, "denied by the rule Touch"},
		{"bypass", permission.Context{Mode: permission.ModeBypassPermissions}, true, "Created"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			h.srv.Push(
				llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("t", "Touch", `{"path":"new.txt"}`)}},
				llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("ok")}},
			)
			res := h.agent(t, func(o *agent.Options) { o.Permissions = &tt.perm }).Run(context.Background(), "touch")
			_, err := os.Stat(filepath.Join(h.cwd, "new.txt"))
			if created := err == nil; created != tt.wantCreated {
				t.Errorf("file created = %v, want %v", created, tt.wantCreated)
			}
			result := h.results(t, 1)[0]
			if !strings.Contains(resultText(result), tt.wantText) || result.IsError == tt.wantCreated {
				t.Errorf("result = %q (error %v), want one containing %q", resultText(result), result.IsError, tt.wantText)
			}
			if denied := len(res.Denials) == 1 && res.Denials[0].ToolUseID == "t"; denied == tt.wantCreated {
				t.Errorf("denials = %+v", res.Denials)
			}
		})
	}
}

type answering struct{ answer permission.Answer }

func (a answering) Ask(context.Context, permission.Prompt) (permission.Answer, error) {
	return a.answer, nil
}

func TestPrompterAnswers(t *testing.T) {
	for _, allow := range []bool{true, false} {
		h := newHarness(t)
		h.srv.Push(
			llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("t", "Touch", `{"path":"x"}`)}},
			llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("ok")}},
		)
		prompter := answering{permission.Answer{Allow: allow, Message: "use another name"}}
		h.agent(t, func(o *agent.Options) { o.Prompter = prompter }).Run(context.Background(), "touch")
		result := h.results(t, 1)[0]
		if allow == result.IsError || (!allow && resultText(result) != "use another name") {
			t.Errorf("allow=%v: result %q (error %v)", allow, resultText(result), result.IsError)
		}
	}
}

func TestImagesGoAfterThePromptsText(t *testing.T) {
	h := newHarness(t)
	h.srv.Push(llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("Red.")}})
	image := llm.ContentBlock{Type: llm.BlockImage, Source: &llm.ImageSource{Type: "base64", MediaType: "image/png", Data: "AAA"}}
	h.agent(t, nil).Run(context.Background(), "what colour?", image)
	content := h.srv.Requests()[0].Messages[0].Content
	last := content[len(content)-1]
	if len(content) < 2 || content[len(content)-2].Text != "what colour?" || last.Type != llm.BlockImage || last.Source.Data != "AAA" {
		t.Errorf("the message holds %+v, want the text then the image", content)
	}
}

// interrupting is asked while the turn is interrupted: it ends the turn and
// gives up waiting, as a program's or a user's interrupt does.
type interrupting struct{ cancel context.CancelFunc }

func (p interrupting) Ask(ctx context.Context, _ permission.Prompt) (permission.Answer, error) {
	p.cancel()
	<-ctx.Done()
	return permission.Answer{}, ctx.Err()
}

func TestAQuestionOpenWhenTheTurnIsInterruptedRefusesTheCallInClaudeCodesWords(t *testing.T) {
	h := newHarness(t)
	h.srv.Push(llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("t", "Touch", `{"path":"x"}`)}})
	ctx, cancel := context.WithCancel(context.Background())
	a := h.agent(t, func(o *agent.Options) { o.Prompter = interrupting{cancel} })
	res := a.Run(ctx, "touch")
	if res.Outcome != agent.Interrupted {
		t.Fatalf("outcome = %v (%v), want interrupted", res.Outcome, res.Err)
	}
	msgs := a.Messages()
	result := msgs[len(msgs)-1].Content[0]
	if !result.IsError || !strings.HasPrefix(resultText(result), "The user doesn't want to proceed with this tool use.") {
		t.Errorf("result %q (error %v), want Claude Code's rejection", resultText(result), result.IsError)
	}
}

func TestMaxTurns(t *testing.T) {
	h := newHarness(t)
	h.srv.Push(llmtest.Turn{Blocks: []llm.ContentBlock{sleepCall("s", "s", 1, false)}})
	res := h.agent(t, func(o *agent.Options) { o.MaxTurns = 1 }).Run(context.Background(), "go")
	if res.Outcome != agent.MaxTurnsReached || res.NumTurns != 1 || !strings.Contains(res.Err.Error(), "maximum number of turns (1)") {
		t.Fatalf("result = %+v, want max turns after 1 turn", res)
	}
	if len(h.srv.Requests()) != 1 {
		t.Errorf("%d requests, want 1", len(h.srv.Requests()))
	}
}

func TestLoopDetection(t *testing.T) {
	h := newHarness(t)
	for range 5 {
		h.srv.Push(llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("", "Fail", `{"message":"same"}`)}})
	}
	res := h.agent(t, nil).Run(context.Background(), "loop")
	if res.Outcome != agent.Failed || !errors.Is(res.Err, agent.ErrLoop) {
		t.Fatalf("result = %+v, want a loop stop", res)
	}
	if n := len(h.srv.Requests()); n != 5 {
		t.Errorf("%d requests, want 5", n)
	}
	for req, wantWarning := range map[int]bool{2: false, 3: true, 4: true} {
		got := strings.Contains(resultText(h.results(t, req)[0]), "has now failed")
		if got != wantWarning {
			t.Errorf("request %d carries the warning = %v, want %v", req, got, wantWarning)
		}
	}
}

func TestRetryIsReportedAndRunSucceeds(t *testing.T) {
	h := newHarness(t)
	h.srv.Push(llmtest.Turn{
		Faults: []llmtest.Fault{{Status: 429, RetryAfterMs: 5}},
		Blocks: []llm.ContentBlock{llmtest.Text("after retry")},
	})
	res := h.agent(t, nil).Run(context.Background(), "hi")
	if res.Outcome != agent.Completed || res.Text != "after retry" {
		t.Fatalf("result = %+v", res)
	}
	retries := 0
	for _, e := range h.events {
		if r, ok := e.(agent.StreamRetry); ok && r.Attempt == 1 {
			retries++
		}
	}
	if retries != 1 {
		t.Errorf("%d retry events, want 1", retries)
	}
}

func TestCancelKillsRunningToolAndKeepsTranscriptValid(t *testing.T) {
	h := newHarness(t)
	h.srv.Push(llmtest.Turn{Blocks: []llm.ContentBlock{sleepCall("long", "long", 60_000, false)}})
	ctx, cancel := context.WithCancel(context.Background())
	a := h.agent(t, func(o *agent.Options) {
		inner := o.OnEvent
		o.OnEvent = func(e agent.Event) {
			inner(e)
			if _, ok := e.(agent.ToolStarted); ok {
				cancel()
			}
		}
	})
	done := make(chan agent.Result)
	go func() { done <- a.Run(ctx, "sleep") }()
	var res agent.Result
	select {
	case res = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the run did not stop after cancel")
	}
	if res.Outcome != agent.Interrupted {
		t.Fatalf("outcome = %v (%v), want interrupted", res.Outcome, res.Err)
	}
	msgs := a.Messages()
	last := msgs[len(msgs)-1]
	if last.Role != llm.RoleUser || last.Content[0].ToolUseID != "long" || !last.Content[0].IsError {
		t.Errorf("last message = %+v, want the interrupted call's error result", last)
	}
}

func TestCancelDuringStream(t *testing.T) {
	h := newHarness(t)
	h.srv.Push(llmtest.Turn{Faults: []llmtest.Fault{{Hang: true}}, Blocks: []llm.ContentBlock{llmtest.Text("never")}})
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	res := h.agent(t, nil).Run(ctx, "hang")
	if res.Outcome != agent.Interrupted {
		t.Fatalf("outcome = %v (%v), want interrupted", res.Outcome, res.Err)
	}
}

type noteInput struct {
	Note string `json:"note"`
	Cd   string `json:"cd,omitempty"`
}

// noter queues a notice and may move the session's cwd; it reports the cwd it ran in.
var noter = tool.MustBuild(tool.Def[noteInput, string]{
	Name: "Noter", Description: "queues a notice", MaxResultSizeChars: 1000,
	IsReadOnly: tool.Always[noteInput], IsConcurrencySafe: tool.Never[noteInput],
	Call: func(_ context.Context, in noteInput, env *tool.Env, _ tool.Progress) (string, error) {
		env.Session.Notify(in.Note)
		if in.Cd != "" {
			env.Session.SetCwd(in.Cd)
		}
		return "ran in " + env.Cwd, nil
	},
})

func TestSessionNoticesAndCwdReachTheNextTurn(t *testing.T) {
	h := newHarness(t)
	h.srv.Push(
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("n1", "Noter", `{"note":"task 7 finished","cd":"/elsewhere"}`)}},
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("n2", "Noter", `{"note":"second"}`)}},
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("ok")}},
	)
	h.agent(t, func(o *agent.Options) { o.Tools = []tool.Tool{noter} }).Run(context.Background(), "note")
	first := h.results(t, 1)
	if len(first) != 2 || first[1].Type != llm.BlockText || first[1].Text != "<system-reminder>\ntask 7 finished\n</system-reminder>" {
		t.Fatalf("second request ends with %+v, want the tool result then the notice", first)
	}
	if got := resultText(h.results(t, 2)[0]); got != "ran in /elsewhere" {
		t.Errorf("second call %q, want it to run in the cwd the first one set", got)
	}
}

type printInput struct {
	Chars int    `json:"chars" jsonschema_description:"how many characters to print"`
	Fail  string `json:"fail,omitempty" jsonschema_description:"fail with this output instead"`
}

// printer returns as many characters as asked, under a limit of 100.
func printer(limit int) tool.Tool {
	return tool.MustBuild(tool.Def[printInput, string]{
		Name: "Print", Description: "prints characters", MaxResultSizeChars: limit,
		IsReadOnly: tool.Always[printInput], IsConcurrencySafe: tool.Always[printInput],
		Call: func(_ context.Context, in printInput, _ *tool.Env, _ tool.Progress) (string, error) {
			if in.Fail != "" {
				return "", &tool.OutputError{Text: in.Fail}
			}
			return strings.Repeat("x", in.Chars), nil
		},
	})
}

func TestExecutorStoresLargeResultsAndPassesOutputErrors(t *testing.T) {
	home := t.TempDir()
	t.Setenv("MINI_CLAUDE_HOME", home)
	tests := []struct {
		name, input string
		limit       int
		want        string
		wantError   bool
	}{
		{"within the limit", `{"chars":100}`, 100, strings.Repeat("x", 100), false},
		{"over the limit", `{"chars":101}`, 100, "<persisted-output>\nOutput too large (101 bytes). Full output saved to: ", false},
		{"unlimited", `{"chars":5000}`, tool.Unlimited, strings.Repeat("x", 5000), false},
		{"empty", `{"chars":0}`, 100, "(Print completed with no output)", false},
		{"output error", `{"chars":0,"fail":"Exit code 2\nls: cannot access 'x'"}`, 100, "Exit code 2\nls: cannot access 'x'", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			h.srv.Push(
				llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("toolu_p", "Print", tt.input)}},
				llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("ok")}},
			)
			h.agent(t, func(o *agent.Options) {
				o.Tools = []tool.Tool{printer(tt.limit)}
				o.Env.SessionID = "s1"
			}).Run(context.Background(), "print")
			result := h.results(t, 1)[0]
			got := resultText(result)
			if !strings.HasPrefix(got, tt.want) || result.IsError != tt.wantError {
				t.Fatalf("result %q (error %v), want it to start with %q (error %v)", got, result.IsError, tt.want, tt.wantError)
			}
			if !strings.Contains(got, "<persisted-output>") {
				return
			}
			path := filepath.Join(home, "projects", strings.NewReplacer("/", "-", "_", "-", ".", "-").Replace(h.cwd), "s1", "tool-results", "toolu_p.txt")
			if data, err := os.ReadFile(path); err != nil || string(data) != strings.Repeat("x", 101) || !strings.Contains(got, path) {
				t.Errorf("stored file %s: %v, %d bytes; result %q", path, err, len(data), got)
			}
		})
	}
}

func TestPoolIsAskedBeforeEachRequest(t *testing.T) {
	h := newHarness(t)
	h.srv.Push(
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("n1", "Noter", `{"note":"first"}`)}},
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("w1", "WordCount", `{"file_path":"words.txt"}`)}},
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("ok")}},
	)
	if err := os.WriteFile(filepath.Join(h.cwd, "words.txt"), []byte("a b"), 0o644); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	pool := []tool.Tool{noter}
	res := h.agent(t, func(o *agent.Options) {
		o.Tools = nil
		o.Pool = func() []tool.Tool {
			mu.Lock()
			defer mu.Unlock()
			current := pool
			pool = []tool.Tool{noter, wordcount.Tool}
			return current
		}
	}).Run(context.Background(), "go")
	if res.Outcome != agent.Completed {
		t.Fatalf("run ended %v: %v", res.Outcome, res.Err)
	}
	reqs := h.srv.Requests()
	if len(reqs[0].Tools) != 1 || len(reqs[1].Tools) != 2 {
		t.Errorf("requests offered %d then %d tools, want 1 then 2", len(reqs[0].Tools), len(reqs[1].Tools))
	}
	if got := h.results(t, 2)[0]; got.IsError {
		t.Errorf("call of the tool that joined the pool failed: %s", resultText(got))
	}
}

func TestHistoryIsSentBeforeThePrompt(t *testing.T) {
	h := newHarness(t)
	h.srv.Push(llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("resumed")}})
	history := []llm.Message{
		llm.UserText("first"),
		{Role: llm.RoleAssistant, Content: []llm.ContentBlock{llmtest.ToolUse("t1", "Sleep", `{"label":"a","ms":1}`)}},
		{Role: llm.RoleUser, Content: []llm.ContentBlock{llm.ToolResultBlock("t1", []llm.ContentBlock{llm.TextBlock("interrupted")}, true)}},
	}
	a := h.agent(t, func(o *agent.Options) { o.History = history })
	res := a.Run(context.Background(), "go on")
	if res.Outcome != agent.Completed {
		t.Fatalf("result %+v", res)
	}
	sent := h.srv.Requests()[0].Messages
	if len(sent) != 3 || len(sent[2].Content) != 2 || sent[2].Content[0].Type != llm.BlockToolResult || sent[2].Content[1].Text != "go on" {
		t.Fatalf("sent %+v, want the history with the prompt after the interrupted result in its last message", sent)
	}
	var prompt agent.UserMessage
	var reply agent.AssistantMessage
	for _, e := range h.events {
		switch e := e.(type) {
		case agent.UserMessage:
			prompt = e
		case agent.AssistantMessage:
			reply = e
		}
	}
	if len(prompt.Message.Content) != 1 || prompt.Message.Text() != "go on" {
		t.Errorf("the UserMessage event holds %+v, want the new prompt alone", prompt.Message)
	}
	if reply.Model != "claude-opus-5-5" || reply.Usage != llmtest.DefaultUsage {
		t.Errorf("AssistantMessage model %q usage %+v", reply.Model, reply.Usage)
	}
}

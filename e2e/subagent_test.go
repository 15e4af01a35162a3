package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

func agentCall(id, description, prompt, extra string) llm.ContentBlock {
	return llmtest.ToolUse(id, "Agent", fmt.Sprintf(`{"description":%q,"prompt":%q%s}`, description, prompt, extra))
}

// request returns the request of the conversation started by prompt with i
// assistant messages in its history.
func request(t *testing.T, srv *llmtest.Server, prompt string, i int) llmtest.Request {
	t.Helper()
	for _, r := range srv.Requests() {
		if llmtest.FirstUserText(prompt)(r) && r.AssistantTurns() == i {
			return r
		}
	}
	t.Fatalf("no request of the conversation %q with %d assistant messages", prompt, i)
	return llmtest.Request{}
}

func lastOf(r llmtest.Request) []llm.ContentBlock { return r.Messages[len(r.Messages)-1].Content }

func TestSubAgentsRunInParallel(t *testing.T) {
	r := newRun(t)
	r.srv.Route(llmtest.FirstUserText("survey the code"),
		calls(agentCall("a1", "Survey alpha", "task alpha", ""), agentCall("a2", "Survey beta", "task beta", "")),
		text("both surveyed"))
	for _, name := range []string{"alpha", "beta"} {
		r.srv.Route(llmtest.FirstUserText("task "+name),
			calls(llmtest.ToolUse("s-"+name, "Sleep", fmt.Sprintf(`{"label":%q,"ms":500}`, name))),
			text(name+" report"))
	}
	out := r.exec("-p", "survey the code", "--output-format", "stream-json", "--verbose", "--tools", "Agent,Sleep")
	if out.code != 0 {
		t.Fatalf("exit %d: %s", out.code, out.stderr)
	}
	var latestStart, earliestEnd int64 = 0, 1 << 62
	for _, name := range []string{"alpha", "beta"} {
		m := sleepSpan.FindStringSubmatch(contentText(lastOf(request(t, r.srv, "task "+name, 1))[0]))
		if m == nil {
			t.Fatalf("sub-agent %s: no Sleep span", name)
		}
		start, _ := strconv.ParseInt(m[1], 10, 64)
		end, _ := strconv.ParseInt(m[2], 10, 64)
		latestStart, earliestEnd = max(latestStart, start), min(earliestEnd, end)
	}
	if latestStart >= earliestEnd {
		t.Errorf("the sub-agents did not overlap: latest start %d, earliest end %d", latestStart, earliestEnd)
	}
	results := lastOf(request(t, r.srv, "survey the code", 1))
	for i, name := range []string{"alpha", "beta"} {
		if got := contentText(results[i]); results[i].IsError || !strings.Contains(got, "\n  "+name+" report\nagentId: ") {
			t.Errorf("Agent result %d = %q", i, got)
		}
	}
	events := lines(t, out.stdout)
	if tools := events[0]["tools"].([]any); len(tools) != 2 || tools[0] != "Task" || fmt.Sprint(events[0]["agents"]) != "[general-purpose]" {
		t.Errorf("init lists tools %v and agents %v, want the Agent tool as Task, as Claude Code does", tools, events[0]["agents"])
	}
	var started, notified, subLines, subResults int
	for _, ev := range events {
		switch {
		case ev["subtype"] == "task_started":
			started++
		case ev["subtype"] == "task_notification" && ev["status"] == "completed":
			notified++
		case ev["parent_tool_use_id"] == "a1" || ev["parent_tool_use_id"] == "a2":
			if id, _ := ev["agent_id"].(string); !strings.HasPrefix(id, "a") {
				t.Errorf("sub-agent line without agent_id: %v", ev)
			}
			if out, _ := ev["tool_use_result"].(string); strings.Contains(out, "start=") {
				subResults++
			}
			subLines++
		}
	}
	// Per sub-agent: its prompt, the Sleep call, its result, the report.
	if started != 2 || notified != 2 || subLines != 8 || subResults != 2 {
		t.Errorf("%d task_started, %d task_notification, %d sub-agent lines, %d with tool_use_result; want 2, 2, 8, 2",
			started, notified, subLines, subResults)
	}
	result := events[len(events)-1]
	usage := result["usage"].(map[string]any)
	model := result["modelUsage"].(map[string]any)[llm.DefaultModel].(map[string]any)
	// Six requests of 100 input tokens: two of the parent, two of each sub-agent.
	if usage["input_tokens"] != 200.0 || model["inputTokens"] != 600.0 {
		t.Errorf("usage %v, modelUsage %v: want the parent's own usage and everyone's per model", usage, model)
	}
	if want := llm.Cost(llm.DefaultModel, llm.Usage{InputTokens: 600, OutputTokens: 300}); fmt.Sprintf("%.6f", result["total_cost_usd"]) != fmt.Sprintf("%.6f", want) {
		t.Errorf("total_cost_usd %v, want %v", result["total_cost_usd"], want)
	}
}

func TestRestrictedAgentTypeCannotUseBash(t *testing.T) {
	r := newRun(t)
	agents := filepath.Join(r.dir, ".mini-claude", "agents")
	if err := os.MkdirAll(agents, 0o755); err != nil {
		t.Fatal(err)
	}
	def := "---\nname: reader\ndescription: Reads files and reports.\ntools: Read\n---\nYou read files and report what they say.\n"
	if err := os.WriteFile(filepath.Join(agents, "reader.md"), []byte(def), 0o644); err != nil {
		t.Fatal(err)
	}
	r.trust(false)
	r.srv.Route(llmtest.FirstUserText("check the notes"),
		calls(agentCall("a1", "Read notes", "task notes", `,"subagent_type":"reader"`)),
		calls(agentCall("a2", "Wrong type", "task wrong", `,"subagent_type":"wizard"`)),
		text("checked"))
	r.srv.Route(llmtest.FirstUserText("task notes"),
		calls(llmtest.ToolUse("b1", "Bash", `{"command":"touch pwned"}`)),
		text("Bash is not available to me"))
	out := r.exec("-p", "check the notes", "--dangerously-skip-permissions")
	if out.code != 0 || out.stdout != "checked\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	first := request(t, r.srv, "task notes", 0)
	if len(first.Tools) != 1 || first.Tools[0].Name != "Read" || !strings.HasPrefix(first.System, "You read files and report what they say.") {
		t.Errorf("the reader got %d tools and system %.60q", len(first.Tools), first.System)
	}
	denied := lastOf(request(t, r.srv, "task notes", 1))[0]
	if !denied.IsError || !strings.Contains(contentText(denied), "No such tool available: Bash. The available tools are: Read.") {
		t.Errorf("Bash in the reader: %q (error %v)", contentText(denied), denied.IsError)
	}
	if _, err := os.Stat(filepath.Join(r.dir, "pwned")); err == nil {
		t.Error("the restricted sub-agent ran Bash")
	}
	parent := request(t, r.srv, "check the notes", 0)
	for _, spec := range parent.Tools {
		if spec.Name == "Agent" && !strings.Contains(spec.Description, "\n- reader: Reads files and reports. (Tools: Read)") {
			t.Errorf("the Agent tool's description does not list the reader type:\n%s", spec.Description)
		}
	}
	wrong := lastOf(request(t, r.srv, "check the notes", 2))[0]
	if !wrong.IsError || !strings.Contains(contentText(wrong), `agent type "wizard" not found. Available agent types: general-purpose, reader.`) {
		t.Errorf("unknown type: %q", contentText(wrong))
	}
}

func TestHeadlessWaitsForBackgroundAgents(t *testing.T) {
	for _, format := range []string{"text", "json", "stream-json"} {
		t.Run(format, func(t *testing.T) {
			r := newRun(t)
			r.srv.Route(llmtest.FirstUserText("start the audit"),
				calls(agentCall("bg", "Audit deps", "task audit", `,"run_in_background":true`)),
				text("The audit runs in the background."),
				text("The audit found nothing."))
			r.srv.Route(llmtest.FirstUserText("task audit"),
				calls(llmtest.ToolUse("s", "Sleep", `{"label":"audit","ms":400}`)),
				text("no vulnerable dependencies"))
			args := []string{"-p", "start the audit", "--tools", "Agent,Sleep", "--output-format", format}
			if format == "stream-json" {
				args = append(args, "--verbose")
			}
			out := r.exec(args...)
			if out.code != 0 {
				t.Fatalf("exit %d: %s", out.code, out.stderr)
			}
			launched := lastOf(request(t, r.srv, "start the audit", 1))[0]
			if !strings.HasPrefix(contentText(launched), "Async agent launched successfully.\nagentId: a") {
				t.Errorf("launch result %q", contentText(launched))
			}
			notice := lastOf(request(t, r.srv, "start the audit", 2))
			if len(notice) != 1 || !strings.Contains(notice[0].Text, "<status>completed</status>") || !strings.Contains(notice[0].Text, "<result>no vulnerable dependencies</result>") {
				t.Fatalf("the notice turn got %+v", notice)
			}
			switch format {
			case "text":
				if out.stdout != "The audit runs in the background.\n\nThe audit found nothing.\n" {
					t.Errorf("stdout %q", out.stdout)
				}
			case "json":
				if !strings.Contains(out.stdout, `"result":"The audit found nothing."`) || strings.Count(out.stdout, "\n") != 1 {
					t.Errorf("stdout %q, want one result, the last", out.stdout)
				}
			case "stream-json":
				var results []map[string]any
				for _, ev := range lines(t, out.stdout) {
					if ev["type"] == "result" {
						results = append(results, ev)
					}
				}
				if len(results) != 2 || results[1]["result"] != "The audit found nothing." {
					t.Fatalf("results %v, want one per turn", results)
				}
				model := results[1]["modelUsage"].(map[string]any)[llm.DefaultModel].(map[string]any)
				if model["inputTokens"] != 500.0 {
					t.Errorf("final modelUsage %v, want the whole session's 500 input tokens", model)
				}
			}
		})
	}
}

package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// Plan mode through the Agent SDK (testdata/sdk/scenarios/plan.mjs): the
// program's canUseTool answers ExitPlanMode (approving, with or without
// setMode acceptEdits, or refusing with feedback) and AskUserQuestion (with
// updatedInput's answers), as it did for Claude Code 2.1.332
// (testdata/sdk/golden/plan_*).

// planScenarioPrefix names the plan-mode scenarios, which this file's test runs.
const planScenarioPrefix = "plan_"

// planFileRe finds the plan file the plan-mode reminder names in a request:
// ~/.claude/plans/<slug>.md for Claude Code, ~/.mini-claude/plans/<slug>.md for mini-claude.
var planFileRe = regexp.MustCompile(`/[^"\s\\]*/plans/[a-z0-9-]+\.md`)

// approvedPlan is the result of the approved plan in the scenarios.
const approvedPlan = `User has approved your plan. You can now start coding. Start with updating your todo list if applicable\n\nYour plan has been saved to: <plan>\nYou can refer back to it if needed during implementation.\n\n## Approved Plan:\n# Plan\n\nWrite b.txt holding \"planned\".\n`

// approvedPlanLine is its digest line; mini-claude's holds the note that plan
// mode ended, which Claude Code sends the model with the result (see its
// requests.jsonl) but leaves out of the line the program gets.
var approvedPlanLine = map[string]string{
	`tool_result is_error=false "` + approvedPlan + `"`: `tool_result is_error=false "` + approvedPlan +
		`\n<system-reminder>\n## Exited Plan Mode\n\nYou have exited plan mode. You can now make edits, run tools, and take actions. The plan file is located at <plan> if you need to reference it.\n</system-reminder>"`,
}

// planDifferences are the lines of a plan scenario's digest mini-claude gives
// otherwise, with the line it gives ("" for none), by scenario.
var planDifferences = map[string]map[string]string{
	"plan_exit_accept_edits": approvedPlanLine,
	"plan_exit_default":      approvedPlanLine,
	// Plan mode holds after the refusal, and mini-claude refuses the Write
	// in plan mode whoever could answer, as it does in -p and in the UI;
	// Claude Code asks the program (decision_reason_type "mode").
	"plan_exit_deny": {
		`canUseTool Write {"content":"planned\n","file_path":"<cwd>/b.txt"}`:                                                                       "",
		`probe {"requiresUserInteraction":false,"toolName":"Write"}`:                                                                               "",
		`tool_result is_error=false "File created successfully at: <cwd>/b.txt (file state is current in your context — no need to Read it back)"`: `tool_result is_error=true "Cannot write to <cwd>/b.txt while in plan mode."`,
		`result success is_error=false num_turns=4 result="Done." denied=[ExitPlanMode]`:                                                           `result success is_error=false num_turns=4 result="Done." denied=[ExitPlanMode Write]`,
		`probe {"content":"planned\n","name":"b.txt"}`:                                                                                             `probe {"content":null,"name":"b.txt"}`,
	},
}

// planControlDifferences are the control requests of a recording mini-claude
// does not send (see planDifferences).
var planControlDifferences = map[string][]string{"plan_exit_deny": {"can_use_tool Write"}}

// servePlanned serves turns by history with "<plan>" in their tool inputs
// standing for the plan file, whose name the binary chooses at random and
// tells the model in its first request.
func servePlanned(srv *llmtest.Server, turns []llmtest.Turn) {
	var mu sync.Mutex
	plan := ""
	srv.ServeFunc(func(req llmtest.Request) llmtest.Turn {
		mu.Lock()
		if m := planFileRe.Find(req.Body); m != nil && plan == "" {
			plan = string(m)
		}
		path := plan
		mu.Unlock()
		t := turns[min(req.AssistantTurns(), len(turns)-1)]
		blocks := make([]llm.ContentBlock, len(t.Blocks))
		for i, b := range t.Blocks {
			if b.Type == llm.BlockToolUse {
				b.Input = json.RawMessage(bytes.ReplaceAll(b.Input, []byte("<plan>"), []byte(path)))
			}
			blocks[i] = b
		}
		t.Blocks = blocks
		return t
	})
}

func TestAgentSDKPlanModeGivesWhatClaudeCodeGives(t *testing.T) {
	npm := sdkNPM(t)
	files, _ := filepath.Glob(filepath.Join(sdkScenarios, planScenarioPrefix+"*.json"))
	if len(files) == 0 {
		t.Fatal("no plan-mode scenarios")
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got, ctl, reqs := runSDKScenario(t, npm, name)
			want := expectedDigest(digestFile(t, filepath.Join(sdkGolden, name, "sdk.jsonl")), planDifferences[name])
			if !slices.Equal(got, want) {
				t.Errorf("the program saw\n  %s\nwant (Claude Code's)\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
			}
			wantCtl := slices.DeleteFunc(goldenControls(t, name), func(c string) bool { return slices.Contains(planControlDifferences[name], c) })
			if !slices.Equal(ctl, wantCtl) {
				t.Errorf("the binary asked the program %v, want %v", ctl, wantCtl)
			}
			checkSDKRequests(t, name, reqs)
			checkPlanTools(t, name, reqs)
		})
	}
}

// planTools are the tools whose offer plan mode through the SDK decides.
var planTools = []string{"AskUserQuestion", "ExitPlanMode"}

// checkPlanTools compares, request by request, how the two tools were
// offered: "offered" (in the request's tools), "deferred" (named for
// ToolSearch: Claude Code in a reminder of the first message, mini-claude
// after its system prompt) or "absent".
func checkPlanTools(t *testing.T, name string, got []llmtest.Request) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(sdkGolden, name, "requests.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		var r struct {
			Tools    []string `json:"tools"`
			Messages []struct {
				Content json.RawMessage `json:"content"`
			} `json:"messages"`
		}
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatal(err)
		}
		deferred := ""
		if len(r.Messages) > 0 {
			deferred = deferredList(string(r.Messages[0].Content), "The following deferred tools are now available via ToolSearch.", "</system-reminder>")
		}
		want = append(want, offers(r.Tools, deferred))
	}
	for i, req := range got {
		if i >= len(want) {
			break
		}
		var names []string
		for _, tool := range req.Tools {
			names = append(names, tool.Name)
		}
		if g := offers(names, deferredList(req.System, "<available-deferred-tools>", "</available-deferred-tools>")); g != want[i] {
			t.Errorf("request %d: %s, want (Claude Code's) %s", i+1, g, want[i])
		}
	}
}

// deferredList is the text between start and the end that follows it, "" without start.
func deferredList(text, start, end string) string {
	_, after, ok := strings.Cut(text, start)
	if !ok {
		return ""
	}
	list, _, _ := strings.Cut(after, end)
	return list
}

// offers says how each of planTools is offered, given the request's tools
// and its list of deferred tools, one name a line.
func offers(tools []string, deferred string) string {
	var out []string
	for _, name := range planTools {
		how := "absent"
		switch {
		case slices.Contains(tools, name):
			how = "offered"
		case slices.Contains(strings.Split(deferred, "\n"), name), slices.Contains(strings.Split(deferred, `\n`), name):
			how = "deferred"
		}
		out = append(out, name+" "+how)
	}
	return strings.Join(out, ", ")
}

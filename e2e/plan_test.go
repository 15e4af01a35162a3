package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// Plan mode and the questions to the user (ExitPlanMode, AskUserQuestion),
// headless; tui_plan_test.go drives the same through the UI.

// planFileOf is the plan file the plan-mode reminder of a request names.
func planFileOf(t *testing.T, req llmtest.Request) string {
	t.Helper()
	_, rest, ok := strings.Cut(req.Messages[0].Text(), "You should create your plan at ")
	path, _, ok2 := strings.Cut(rest, " using the Write tool.")
	if !ok || !ok2 {
		t.Fatalf("the first request does not name a plan file: %q", req.Messages[0].Text())
	}
	return path
}

// planScript serves turns by the number of assistant messages so far; a
// turn's input may name PLANFILE, the plan file of the session, and PROJ.
func planScript(t *testing.T, r *run, turns ...llmtest.Turn) {
	t.Helper()
	var plan string
	r.srv.ServeFunc(func(req llmtest.Request) llmtest.Turn {
		if plan == "" {
			plan = planFileOf(t, req)
		}
		i := req.AssistantTurns()
		if i >= len(turns) {
			return text("Finished.")
		}
		turn := llmtest.Turn{}
		for _, b := range turns[i].Blocks {
			if b.Type == llm.BlockToolUse {
				b.Input = json.RawMessage(strings.NewReplacer("PLANFILE", plan, "PROJ", r.dir).Replace(string(b.Input)))
			}
			turn.Blocks = append(turn.Blocks, b)
		}
		return turn
	})
}

func TestHeadlessPlanModeRefusesWritesAndTellsTheModelItIsPlanning(t *testing.T) {
	r := newRun(t)
	planScript(t, r,
		calls(llmtest.ToolUse("w1", "Write", `{"file_path":"PROJ/new.txt","content":"x\n"}`)),
		calls(llmtest.ToolUse("w2", "Write", `{"file_path":"PLANFILE","content":"# Plan\n\n1. Create new.txt\n"}`)),
		calls(llmtest.ToolUse("x1", "ExitPlanMode", `{}`)),
		calls(llmtest.ToolUse("q1", "AskUserQuestion", `{"questions":[{"question":"Which color?","header":"Color","multiSelect":false,"options":[{"label":"Red","description":"warm"},{"label":"Blue","description":"cool"}]}]}`)),
	)
	out := r.exec("-p", "Do the task.", "--permission-mode", "plan", "--output-format", "stream-json", "--verbose")
	if out.code != 0 {
		t.Fatalf("exit %d: %s", out.code, out.stderr)
	}
	first := r.srv.Requests()[0]
	if !strings.Contains(first.Messages[0].Text(), "<system-reminder>\nPlan mode is active. The user indicated that they do not want you to execute yet") {
		t.Errorf("the prompt does not tell the model that plan mode is active:\n%s", first.Messages[0].Text())
	}
	var names []string
	for _, spec := range first.Tools {
		names = append(names, spec.Name)
	}
	if slices.Contains(names, "ExitPlanMode") || slices.Contains(names, "AskUserQuestion") {
		t.Errorf("-p offers %v; Claude Code offers neither ExitPlanMode nor AskUserQuestion there", names)
	}
	if strings.Contains(first.System, "ExitPlanMode") {
		t.Error("ExitPlanMode is listed among the deferred tools")
	}
	// Recorded from Claude Code 2.1.332 (e2e/testdata/plan/headless.json).
	want := []string{
		"Cannot write to " + filepath.Join(r.dir, "new.txt") + " while in plan mode.",
		"File created successfully at: ",
		"<tool_use_error>Error: No such tool available: ExitPlanMode. ExitPlanMode is disabled for this session, in subagents as well as here.</tool_use_error>",
		"<tool_use_error>Error: No such tool available: AskUserQuestion. AskUserQuestion is disabled for this session, in subagents as well as here.</tool_use_error>",
	}
	for i, w := range want {
		res := lastResults(t, r.srv, i+1)[0]
		if got := contentText(res); !strings.HasPrefix(got, w) {
			t.Errorf("request %d: result %q, want %q", i+1, got, w)
		}
	}
	if _, err := os.Stat(filepath.Join(r.dir, "new.txt")); err == nil {
		t.Error("plan mode let new.txt be written")
	}
	for line := range strings.SplitSeq(out.stdout, "\n") {
		var init struct {
			Subtype        string   `json:"subtype"`
			Tools          []string `json:"tools"`
			PermissionMode string   `json:"permissionMode"`
		}
		if json.Unmarshal([]byte(line), &init) != nil || init.Subtype != "init" {
			continue
		}
		if init.PermissionMode != "plan" || slices.Contains(init.Tools, "ExitPlanMode") || slices.Contains(init.Tools, "AskUserQuestion") {
			t.Errorf("init event: %s", line)
		}
	}
}

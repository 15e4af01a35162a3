package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// writePlan and exitPlan are the model writing its plan and asking for approval.
var (
	writePlan = calls(llmtest.ToolUse("w1", "Write", `{"file_path":"PLANFILE","content":"# Plan\n\n1. Create **b.txt**\n"}`))
	exitPlan  = calls(llmtest.ToolUse("x1", "ExitPlanMode", `{}`))
)

func TestTUIApprovedPlanWithAcceptEditsRunsTheEditsWithoutAsking(t *testing.T) {
	r := newRun(t)
	planScript(t, r, writePlan, exitPlan,
		calls(llmtest.ToolUse("w2", "Write", `{"file_path":"PROJ/b.txt","content":"b\n"}`)),
		calls(llmtest.ToolUse("w3", "Write", `{"file_path":"PROJ/c.txt","content":"c\n"}`)))
	s := openScreen(t, r, "--permission-mode", "plan")
	s.waitFor("plan (shift+tab)")
	s.typeLine("Plan the change")
	s.waitFor("Ready to code?", "1. Create b.txt", "1. Yes, auto-accept edits", "2. Yes, manually approve edits", "3. Tell the model what to change")
	s.keys("Enter")
	shot := s.waitFor("Finished.", "acceptEdits (shift+tab)")
	if strings.Contains(shot, "wants permission") {
		t.Errorf("an edit asked after the plan was approved with auto-accept:\n%s", shot)
	}
	for _, name := range []string{"b.txt", "c.txt"} {
		if _, err := os.Stat(filepath.Join(r.dir, name)); err != nil {
			t.Errorf("%s was not written: %v", name, err)
		}
	}
	if got := contentText(lastResults(t, r.srv, 2)[0]); !strings.HasPrefix(got, "User has approved your plan. You can now start coding.") ||
		!strings.Contains(got, "## Approved Plan:\n# Plan\n\n1. Create **b.txt**\n") || !strings.Contains(got, "## Exited Plan Mode") {
		t.Errorf("ExitPlanMode's result: %q", got)
	}
}

func TestTUIRejectedPlanSendsTheFeedbackAndKeepsPlanning(t *testing.T) {
	r := newRun(t)
	planScript(t, r, writePlan, exitPlan, text("I will also plan c.txt."))
	s := openScreen(t, r, "--permission-mode", "plan")
	s.typeLine("Plan the change")
	s.waitFor("Ready to code?")
	s.keys("Down", "Down")
	s.run("send-keys", "-t", "0", "-l", "Also create c.txt")
	s.keys("Enter")
	s.waitFor("I will also plan c.txt.", "plan (shift+tab)")
	res := lastResults(t, r.srv, 2)[0]
	// Claude Code's rejection, recorded from 2.1.332 (e2e/testdata/plan/tui.json).
	want := "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). To tell you how to proceed, the user said:\nAlso create c.txt"
	if got := contentText(res); got != want || !res.IsError {
		t.Errorf("the model was told %q (error %v), want %q", got, res.IsError, want)
	}
}

func TestTUIAskUserQuestionIsAnsweredWithAnOptionOrInOwnWords(t *testing.T) {
	question := `{"questions":[{"question":"Which database?","header":"Database","multiSelect":false,"options":[{"label":"SQLite","description":"A file"},{"label":"Postgres","description":"A server"}]}]}`
	cases := []struct {
		name string
		keys func(s *screen)
		want string
	}{
		// An option is taken as it is; the user's own words are to be read (Claude Code 2.1.332's texts).
		{"option", func(s *screen) { s.keys("Down", "Enter") },
			`Your questions have been answered: "Which database?"="Postgres". You can now continue with these answers in mind.`},
		{"other", func(s *screen) {
			s.keys("Down", "Down")
			s.run("send-keys", "-t", "0", "-l", "MySQL please")
			s.keys("Enter")
		}, `The user answered: "Which database?"="MySQL please". Read the answers carefully — they may request clarification, changes, or that you not proceed — and follow what they actually say.`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newRun(t)
			r.srv.Push(calls(llmtest.ToolUse("q1", "AskUserQuestion", question)), text("Finished."))
			s := openScreen(t, r)
			s.typeLine("Pick a database")
			s.waitFor("Which database?", "1. SQLite", "2. Postgres", "3. Type something.")
			c.keys(s)
			shot := s.waitFor("Finished.")
			res := lastResults(t, r.srv, 1)[0]
			if got := contentText(res); got != c.want || res.IsError {
				t.Errorf("the model was told %q, want %q", got, c.want)
			}
			if !strings.Contains(shot, "Which database? →") {
				t.Errorf("the answer is not shown:\n%s", shot)
			}
		})
	}
}

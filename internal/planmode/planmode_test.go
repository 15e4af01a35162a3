package planmode

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/tool"
)

func TestRemindersFollowClaudeCodesSchedule(t *testing.T) {
	s := tool.NewSession(t.TempDir())
	Attach(s, t.TempDir())
	st := Of(s)
	var got []string
	for range 13 {
		switch r := st.Prompt("plan", "Plan the change"); {
		case r == "":
			got = append(got, "-")
		case strings.Contains(r, "Plan mode is active."):
			got = append(got, "full")
		case strings.Contains(r, "Plan mode still active"):
			got = append(got, "short")
		}
	}
	// Recorded from Claude Code 2.1.332: the full text with the first
	// prompt, the short one with the seventh.
	if want := "full - - - - - short - - - - - short"; strings.Join(got, " ") != want {
		t.Errorf("reminders = %s, want %s", strings.Join(got, " "), want)
	}
	if r := st.Prompt("default", "go"); !strings.Contains(r, "## Exited Plan Mode") {
		t.Errorf("leaving plan mode sent %q, want the exited note", r)
	}
	if r := st.Prompt("default", "go"); r != "" {
		t.Errorf("the exited note came twice: %q", r)
	}
}

func TestPlanFileIsNamedAfterThePromptAndTheReminderSaysWhetherItExists(t *testing.T) {
	s := tool.NewSession(t.TempDir())
	dir := t.TempDir()
	Attach(s, dir)
	first := Of(s).Prompt("plan", "Do the task, now!")
	path := Of(s).Path()
	if filepath.Dir(path) != dir || !strings.HasPrefix(filepath.Base(path), "do-the-task-") {
		t.Fatalf("plan file %s, want do-the-task-… in %s", path, dir)
	}
	if !strings.Contains(first, "No plan file exists yet. You should create your plan at "+path+" using the Write tool.") {
		t.Errorf("reminder does not say where to create the plan:\n%s", first)
	}
	if err := os.WriteFile(path, []byte("# Plan\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if full := Full(path); !strings.Contains(full, "A plan file already exists at "+path+". You can read it and make incremental edits using the Edit tool.") {
		t.Errorf("reminder does not say the plan file exists:\n%s", full)
	}
	if exited := Of(s).Exited(); !strings.Contains(exited, "The plan file is located at "+path) {
		t.Errorf("exited note = %q", exited)
	}
}

func TestFullReminderIsClaudeCodesWithMiniClaudesAgentTypes(t *testing.T) {
	recorded, err := os.ReadFile(filepath.Join("testdata", "claude_reminder.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := string(recorded)
	for _, r := range [][2]string{
		{"only use the Explore subagent type.", "only use the general-purpose subagent type, to explore."},
		{"3 Explore agents", "3 general-purpose agents"},
		{"Launch Plan agent(s)", "Launch general-purpose agent(s)"},
		{"1 Plan agent", "1 general-purpose agent"},
	} {
		want = strings.Replace(want, r[0], r[1], 1)
	}
	if got := wrap(Full("<plan_file>")) + "\n"; got != want {
		t.Errorf("reminder differs from the recording:\n%s\nwant\n%s", got, want)
	}
}

package tui

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/llm"
)

func TestResumePickerSwitchesTheConversation(t *testing.T) {
	choices := []SessionChoice{
		{ID: "new-one", FirstPrompt: "fix the tests", Modified: time.Now(), Messages: 4},
		{ID: "old-one", FirstPrompt: "explain the repo", Modified: time.Now().Add(-3 * time.Hour), Messages: 2},
	}
	var resumed string
	attached := "<system-reminder>\nResult of calling the Read tool:\n1\tpackage main\n</system-reminder>"
	m := testModel(t, Options{
		Sessions: func() ([]SessionChoice, error) { return choices, nil },
		Resume: func(id string) (Resumed, error) {
			resumed = id
			return Resumed{ID: id, Messages: []llm.Message{{Role: llm.RoleUser, Content: []llm.ContentBlock{llm.TextBlock(attached), llm.TextBlock("explain the repo")}},
				{Role: llm.RoleAssistant, Content: []llm.ContentBlock{{Type: llm.BlockText, Text: "It is a coding agent."}}}}}, nil
		},
	})
	typeText(m, "/resume")
	press(m, "enter")
	shot := screenOf(m)
	for _, want := range []string{"Resume a session", "❯ just now · 4 messages · fix the tests", "3h ago · 2 messages · explain the repo"} {
		if !strings.Contains(shot, want) {
			t.Fatalf("the picker does not show %q:\n%s", want, shot)
		}
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyDown})
	press(m, "enter")
	shot = screenOf(m)
	if resumed != "old-one" || m.picker != nil {
		t.Fatalf("resumed %q, picker open %v", resumed, m.picker != nil)
	}
	for _, want := range []string{"> explain the repo", "● It is a coding agent.", "Resumed session old-one (2 messages)."} {
		if !strings.Contains(shot, want) {
			t.Fatalf("the resumed conversation does not show %q:\n%s", want, shot)
		}
	}
	if strings.Contains(shot, "Result of calling") {
		t.Errorf("the file a mention attached is shown as a prompt:\n%s", shot)
	}
	if m.ctxUsed != len(attached+"explain the repoIt is a coding agent.")/4 {
		t.Errorf("context used %d after resuming, want the conversation's estimate", m.ctxUsed)
	}
	if strings.Contains(shot, "> /resume") {
		t.Errorf("the old conversation stayed on screen:\n%s", shot)
	}
}

func TestResumePickerCancelsAndReportsEmptyLists(t *testing.T) {
	var listed []SessionChoice
	m := testModel(t, Options{
		Sessions:    func() ([]SessionChoice, error) { return listed, nil },
		Resume:      func(string) (Resumed, error) { return Resumed{}, errors.New("unexpected") },
		PickSession: true,
	})
	m.Init()
	if !strings.Contains(screenOf(m), "No other session of this project to resume.") {
		t.Fatalf("an empty list was not reported:\n%s", screenOf(m))
	}
	listed = []SessionChoice{{ID: "a", FirstPrompt: "x", Modified: time.Now(), Messages: 2}}
	typeText(m, "/resume")
	press(m, "enter", "esc")
	if m.picker != nil || strings.Contains(screenOf(m), "Resume a session") {
		t.Fatalf("Esc did not close the picker:\n%s", screenOf(m))
	}
}

func TestTodosCommand(t *testing.T) {
	todos := ""
	m := testModel(t, Options{Todos: func() string { return todos }})
	typeText(m, "/todos")
	press(m, "enter")
	if !strings.Contains(screenOf(m), "No todos.") {
		t.Fatalf("an empty list:\n%s", screenOf(m))
	}
	todos = "1. [in_progress] Run the tests"
	typeText(m, "/todos")
	press(m, "enter")
	if !strings.Contains(screenOf(m), "1. [in_progress] Run the tests") {
		t.Fatalf("the list:\n%s", screenOf(m))
	}
}

func TestCompactCommandRunsBetweenTurnsAndShowsTheOutcome(t *testing.T) {
	got := make(chan string, 1)
	m := testModel(t, Options{Compact: func(_ context.Context, instructions string) error {
		got <- instructions
		return nil
	}})
	typeText(m, "/compact keep the test names")
	_, cmd := m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if m.turn == nil || cmd == nil {
		t.Fatal("/compact did not start")
	}
	for _, c := range cmd().(tea.BatchMsg) {
		if msg, ok := c().(compactDoneMsg); ok {
			m.Update(eventMsg{agent.Compacted{MessagesSummarized: 6, PreTokens: 9000, PostTokens: 700}})
			m.Update(msg)
		}
	}
	if <-got != "keep the test names" || m.turn != nil {
		t.Fatalf("compact ran with the wrong instructions or stayed running")
	}
	if !strings.Contains(screenOf(m), "Conversation compacted: 6 messages summarised (about 9000 → 700 tokens).") {
		t.Fatalf("the compaction is not shown:\n%s", screenOf(m))
	}
}

func TestCompactFailureIsShownOnce(t *testing.T) {
	m := testModel(t, Options{})
	m.turn = &turnState{cancel: func() {}, compacting: true}
	m.Update(eventMsg{agent.CompactionFailed{Err: errors.New("boom")}})
	m.Update(compactDoneMsg{err: errors.New("boom")})
	if n := strings.Count(screenOf(m), "not compacted: boom"); n != 1 {
		t.Fatalf("the failure is shown %d times:\n%s", n, screenOf(m))
	}
}

func TestSubAgentLines(t *testing.T) {
	m := testModel(t, Options{})
	m.Update(eventMsg{agent.SubAgentStarted{AgentID: "a1", Type: "Explore", Description: "find the config"}})
	m.Update(eventMsg{agent.SubAgentFinished{AgentID: "a1", ToolUses: 3, Result: agent.Result{Outcome: agent.Completed, Duration: 2 * time.Second}}})
	shot := screenOf(m)
	for _, want := range []string{"Agent Explore: find the config started", "Agent Explore: find the config finished · 3 tool uses · 2s"} {
		if !strings.Contains(shot, want) {
			t.Fatalf("missing %q:\n%s", want, shot)
		}
	}
}

func TestPromptOfABareResumeWaitsForThePicker(t *testing.T) {
	sent := make(chan string, 1)
	m := testModel(t, Options{
		Sessions: func() ([]SessionChoice, error) {
			return []SessionChoice{{ID: "s1", FirstPrompt: "old", Modified: time.Now(), Messages: 2}}, nil
		},
		Resume:        func(id string) (Resumed, error) { return Resumed{ID: id}, nil },
		Run:           func(_ context.Context, prompt string) agent.Result { sent <- prompt; return agent.Result{} },
		PickSession:   true,
		InitialPrompt: "continue the work",
	})
	m.Init()
	if m.turn != nil || m.picker == nil {
		t.Fatal("the prompt went out before a session was picked")
	}
	_, cmd := m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if m.turn == nil || cmd == nil {
		t.Fatal("picking did not send the prompt")
	}
	for _, c := range cmd().(tea.BatchMsg) {
		if msg, ok := c().(turnDoneMsg); ok {
			m.Update(msg)
		}
	}
	if got := <-sent; got != "continue the work" || !strings.Contains(screenOf(m), "Resumed session s1") {
		t.Fatalf("sent %q:\n%s", got, screenOf(m))
	}
}

func TestMentionAttachedLines(t *testing.T) {
	m := testModel(t, Options{Cwd: "/repo"})
	m.Update(eventMsg{agent.MentionAttached{Path: "/repo/internal/main.go"}})
	m.Update(eventMsg{agent.MentionAttached{Path: "/repo/docs", Directory: true}})
	m.Update(eventMsg{agent.MentionAttached{Path: "/elsewhere/x.txt"}})
	shot := screenOf(m)
	for _, want := range []string{"Read internal/main.go", "Listed docs", "Read /elsewhere/x.txt"} {
		if !strings.Contains(shot, want) {
			t.Errorf("missing %q:\n%s", want, shot)
		}
	}
}

// TestResumePickerListsTheSessionsMatchingASearch: `-r TERM` (and
// `/resume TERM`) lists the sessions whose first prompt or id holds it.
func TestResumePickerListsTheSessionsMatchingASearch(t *testing.T) {
	sessions := func() ([]SessionChoice, error) {
		return []SessionChoice{
			{ID: "aaa-1", FirstPrompt: "Fix the greeting", Modified: time.Now(), Messages: 2},
			{ID: "bbb-2", FirstPrompt: "add a test", Modified: time.Now(), Messages: 4},
			{ID: "ccc-3", FirstPrompt: "greeting in French", Modified: time.Now(), Messages: 6},
		}, nil
	}
	resume := func(id string) (Resumed, error) { return Resumed{ID: id}, nil }
	m := testModel(t, Options{Sessions: sessions, Resume: resume, PickSession: true, PickSearch: "GREETING"})
	m.Init()
	s := screenOf(m)
	if !strings.Contains(s, `matching "GREETING"`) || !strings.Contains(s, "Fix the greeting") || !strings.Contains(s, "greeting in French") || strings.Contains(s, "add a test") {
		t.Fatalf("the picker for GREETING shows:\n%s", s)
	}
	press(m, "esc")
	m.cmdResume(" bbb ")
	if s := screenOf(m); !strings.Contains(s, "add a test") || strings.Contains(s, "Fix the greeting") {
		t.Fatalf("/resume bbb shows:\n%s", s)
	}
	press(m, "esc")
	m.cmdResume("nothing like it")
	if s := screenOf(m); m.picker != nil || !strings.Contains(s, `No session of this project matches "nothing like it".`) {
		t.Fatalf("a search matching nothing shows:\n%s", s)
	}
}

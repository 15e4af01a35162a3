package tui

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mini-claude/mini-claude/internal/agent"
)

// runningModel is a model whose turn is running; the turns it starts later
// record their prompt in sent and end at once.
func runningModel(t *testing.T, sent *[]string) (*model, *bool) {
	t.Helper()
	m := testModel(t, Options{Commands: customSet(), Run: func(_ context.Context, prompt string) agent.Result {
		*sent = append(*sent, prompt)
		return agent.Result{Outcome: agent.Completed}
	}})
	cancelled := false
	m.turn = &turnState{cancel: func() { cancelled = true }, started: time.Now()}
	return m, &cancelled
}

// enter types text and presses Enter.
func enter(m *model, text string) tea.Cmd {
	typeText(m, text)
	return press(m, "enter")
}

// endTurns ends the running turn with outcome and then every turn the queue
// starts after it, running each one's command as the program would.
func endTurns(m *model, outcome agent.Outcome) {
	msgs := []tea.Msg{turnDoneMsg{result: agent.Result{Outcome: outcome}}}
	for len(msgs) > 0 {
		var cmd tea.Cmd
		_, cmd = m.Update(msgs[0])
		msgs = append(msgs[1:], turnsDone(cmd)...)
	}
}

// turnsDone runs cmd and returns the turnDoneMsgs it yields.
func turnsDone(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		var out []tea.Msg
		for _, c := range msg {
			out = append(out, turnsDone(c)...)
		}
		return out
	case turnDoneMsg:
		return []tea.Msg{msg}
	}
	return nil
}

func TestPromptsEnteredDuringATurnRunInOrderAfterIt(t *testing.T) {
	var sent []string
	m, _ := runningModel(t, &sent)
	enter(m, "first follow-up")
	enter(m, "second follow-up")
	if m.input.Value() != "" {
		t.Errorf("the input kept %q after a prompt was queued", m.input.Value())
	}
	shot := screenOf(m)
	for _, want := range []string{"queued: first follow-up", "queued: second follow-up"} {
		if !strings.Contains(shot, want) {
			t.Errorf("the screen lacks %q:\n%s", want, shot)
		}
	}
	if strings.Contains(shot, "A turn is running") {
		t.Errorf("a queued prompt was refused:\n%s", shot)
	}
	if len(sent) != 0 {
		t.Fatalf("sent %q while the turn ran", sent)
	}
	endTurns(m, agent.Completed)
	if want := []string{"first follow-up", "second follow-up"}; !slices.Equal(sent, want) {
		t.Errorf("sent %q, want %q", sent, want)
	}
	if len(m.queue) != 0 || strings.Contains(screenOf(m), "queued:") {
		t.Errorf("the queue is still shown after it was sent:\n%s", screenOf(m))
	}
}

func TestUpPullsTheQueueBackIntoTheInput(t *testing.T) {
	var sent []string
	m, _ := runningModel(t, &sent)
	enter(m, "one")
	enter(m, "two")
	if !strings.Contains(screenOf(m), queuePlaceholder) {
		t.Errorf("the empty input does not say how to edit the queue:\n%s", screenOf(m))
	}
	press(m, "up")
	if got := m.input.Value(); got != "one\ntwo" || len(m.queue) != 0 {
		t.Fatalf("input %q, queue %q after up; want both entries in the input", got, m.queue)
	}
	if m.turn == nil {
		t.Error("up interrupted the turn")
	}
	m.setInput("")
	endTurns(m, agent.Completed)
	if len(sent) != 0 {
		t.Errorf("a queued prompt taken back into the input was sent: %q", sent)
	}
}

func TestEscInterruptsAndKeepsTheQueueFromGoingOut(t *testing.T) {
	var sent []string
	m, cancelled := runningModel(t, &sent)
	enter(m, "queued before the interruption")
	typeText(m, "draft")
	press(m, "esc")
	if !*cancelled {
		t.Error("Esc did not cancel the turn")
	}
	if got := m.input.Value(); got != "queued before the interruption\ndraft" {
		t.Errorf("input %q after Esc, want the queued prompt then the draft", got)
	}
	m.setInput("")
	enter(m, "entered after the interruption")
	endTurns(m, agent.Interrupted)
	if want := []string{"entered after the interruption"}; !slices.Equal(sent, want) {
		t.Errorf("sent %q, want %q", sent, want)
	}
}

func TestCtrlCDuringATurnKeepsTheQueueInTheInput(t *testing.T) {
	var sent []string
	m, cancelled := runningModel(t, &sent)
	enter(m, "keep me")
	m.Update(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	if !*cancelled || m.input.Value() != "keep me" {
		t.Fatalf("cancelled %v, input %q after Ctrl+C", *cancelled, m.input.Value())
	}
	m.Update(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	if m.input.Value() != "" || m.quitting {
		t.Errorf("the second Ctrl+C did not only clear the input: %q, quitting %v", m.input.Value(), m.quitting)
	}
}

func TestCommandsEnteredDuringATurn(t *testing.T) {
	cases := []struct {
		name   string
		line   string
		queued bool
	}{
		{"a command that changes the session waits", "/model other", true},
		{"a custom command waits, to go to the model", "/review a.go", true},
		{"a command that only shows runs at once", "/cost", false},
		{"a shell command runs at once", "!true", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var sent []string
			m, _ := runningModel(t, &sent)
			enter(m, c.line)
			if got := slices.Contains(m.queue, c.line); got != c.queued {
				t.Errorf("queued = %v, want %v (queue %q)", got, c.queued, m.queue)
			}
		})
	}
}

func TestAQueuedCommandRunsBeforeTheNextPrompt(t *testing.T) {
	var sent []string
	m, _ := runningModel(t, &sent)
	var models []string
	m.opts.SetModel = func(name string) error {
		models = append(models, name)
		return nil
	}
	enter(m, "/model other")
	enter(m, "then this")
	endTurns(m, agent.Completed)
	if !slices.Equal(models, []string{"other"}) || !slices.Equal(sent, []string{"then this"}) {
		t.Errorf("models %q, sent %q", models, sent)
	}
	if m.model != "other" {
		t.Errorf("the status line's model is %q", m.model)
	}
}

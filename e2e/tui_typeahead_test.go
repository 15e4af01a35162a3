package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// Type-ahead in the UI: what is entered while a turn runs waits under the
// input and goes out after the turn, each entry a turn of its own.

func TestTUIPromptsTypedDuringATurnRunInOrderAfterIt(t *testing.T) {
	r := newRun(t)
	gate := make(chan struct{})
	first := text("First answer.")
	first.Gate = gate
	r.srv.Push(first, text("Second answer."), text("Third answer."))
	s := openScreen(t, r)
	s.typeLine("first prompt")
	s.waitFor("esc to interrupt")
	s.typeLine("second prompt")
	s.typeLine("third prompt")
	shot := s.waitFor("queued: second prompt", "queued: third prompt")
	if strings.Contains(shot, "A turn is running") {
		t.Errorf("a prompt typed during the turn was refused:\n%s", shot)
	}
	waitRequests(t, r.srv, 1)
	if n := len(r.srv.Requests()); n != 1 {
		t.Fatalf("%d requests while the first turn ran, want 1", n)
	}
	close(gate)
	shot = s.waitFor("First answer.", "Second answer.", "Third answer.")
	if strings.Contains(shot, "queued:") {
		t.Errorf("the queue is still shown once it was sent:\n%s", shot)
	}
	reqs := r.srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want one per prompt", len(reqs))
	}
	for i, want := range []string{"first prompt", "second prompt", "third prompt"} {
		msgs := reqs[i].Messages
		last := msgs[len(msgs)-1]
		if last.Role != llm.RoleUser || last.Text() != want || reqs[i].AssistantTurns() != i {
			t.Errorf("request %d ends with %s %q after %d answers, want the user's %q after %d",
				i, last.Role, last.Text(), reqs[i].AssistantTurns(), want, i)
		}
	}
}

func TestTUIUpTakesAQueuedPromptBackForEditing(t *testing.T) {
	r := newRun(t)
	gate := make(chan struct{})
	first := text("First answer.")
	first.Gate = gate
	r.srv.Push(first, text("Edited answer."))
	s := openScreen(t, r)
	s.typeLine("first prompt")
	s.waitFor("esc to interrupt")
	s.typeLine("typo prmpt")
	s.waitFor("queued: typo prmpt", "Press up to edit queued messages")
	s.keys("Up")
	s.waitFor("> typo prmpt")
	s.keys("C-u")
	s.typeLine("fixed prompt")
	s.waitFor("queued: fixed prompt")
	close(gate)
	s.waitFor("Edited answer.")
	reqs := r.srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	if got := reqs[1].Messages[len(reqs[1].Messages)-1].Text(); got != "fixed prompt" {
		t.Errorf("the queued prompt went out as %q, want the edited one", got)
	}
}

// waitRequests waits until srv received n requests; the spinner shows
// before a turn's request leaves.
func waitRequests(t *testing.T, srv *llmtest.Server, n int) {
	t.Helper()
	deadline := time.Now().Add(screenTimeout)
	for len(srv.Requests()) < n {
		if time.Now().After(deadline) {
			t.Fatalf("%d requests arrived, want %d", len(srv.Requests()), n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

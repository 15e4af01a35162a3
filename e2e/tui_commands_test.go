package e2e

import (
	"strings"
	"testing"
)

// The UI lists the folder's commands and skills in /help and as "/" is
// typed, with their descriptions; Tab completes one; sent, it reaches the
// model expanded; an unknown name is answered with the nearest.
func TestTUIListsCompletesAndRunsCustomCommands(t *testing.T) {
	r := newRun(t)
	teamFolder(t, r)
	r.trust(false)
	r.srv.Push(textTurn("Reviewed: no bugs."))
	s := openScreen(t, r)
	s.run("send-keys", "-t", "0", "-l", "/re")
	shot := s.waitFor("/review <file>", "Review a file for bugs", "/resume")
	if strings.Contains(shot, "/team:deploy") {
		t.Errorf("the completion lists /team:deploy for /re:\n%s", shot)
	}
	s.keys("v", "Tab")
	s.waitFor("> /review ")
	s.typeLine("src/auth.go")
	s.waitFor("> /review src/auth.go", "Reviewed: no bugs.")
	if got := userTexts(r.srv.Requests()[0]); got[len(got)-1] != "Review src/auth.go for bugs and security problems.\n" {
		t.Errorf("the model got %q", got)
	}
	s.typeLine("/reveiw x")
	s.waitFor("Unknown command: /reveiw. Did you mean /review?")
	if n := len(r.srv.Requests()); n != 1 {
		t.Errorf("the unknown command reached the model: %d requests", n)
	}
	s.typeLine("/help")
	s.waitFor("Custom commands and skills:", "/review <file> Review a file for bugs (project command)",
		"/team:deploy Deploy to an environment (project command)", "Extract text and tables from PDF files. (project skill)")
}

package tui

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/commands"
)

func customSet() *commands.Set {
	return commands.NewSet([]commands.Command{
		{Name: "review", Description: "Review a file for bugs", ArgumentHint: "<file>", UserInvocable: true, Scope: commands.Project},
		{Name: "team:deploy", Description: "Deploy to an environment", UserInvocable: true, Scope: commands.Project},
		{Name: "pdf", Skill: true, Description: "Extract text from PDFs", UserInvocable: true, Scope: commands.User},
	})
}

func TestHelpListsTheCustomCommandsWithTheirDescriptions(t *testing.T) {
	m := testModel(t, Options{Commands: customSet()})
	typeText(m, "/help")
	press(m, "enter")
	s := screenOf(m)
	for _, want := range []string{"Custom commands and skills:", "/pdf", "Extract text from PDFs (user skill)",
		"/review <file> Review a file for bugs (project command)", "/team:deploy Deploy to an environment (project command)"} {
		if !strings.Contains(s, want) {
			t.Errorf("/help lacks %q:\n%s", want, s)
		}
	}
}

func TestTheSlashCompletionListsMatchingCommandsWithDescriptions(t *testing.T) {
	m := testModel(t, Options{Commands: customSet()})
	typeText(m, "/re")
	s := screenOf(m)
	for _, want := range []string{"/resume", "/review <file>", "Review a file for bugs"} {
		if !strings.Contains(s, want) {
			t.Errorf("the completion lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "/team:deploy") {
		t.Errorf("the completion lists a command that does not match:\n%s", s)
	}
	press(m, "v")
	m.Update(tea.KeyPressMsg{Code: tea.KeyTab})
	if got := m.input.Value(); got != "/review " {
		t.Errorf("Tab completed to %q, want /review", got)
	}
}

func TestATypedCustomCommandGoesToTheModel(t *testing.T) {
	sent := make(chan string, 1)
	m := testModel(t, Options{Commands: customSet(), Run: func(_ context.Context, prompt string) agent.Result {
		sent <- prompt
		return agent.Result{}
	}})
	typeText(m, "/review src/auth.go")
	cmd := press(m, "enter")
	if cmd == nil {
		t.Fatal("no turn started")
	}
	go func() {
		for _, c := range cmd().(tea.BatchMsg) {
			c()
		}
	}()
	if got := <-sent; got != "/review src/auth.go" {
		t.Errorf("sent %q", got)
	}
}

func TestAnUnknownCommandNamesTheNearest(t *testing.T) {
	m := testModel(t, Options{Commands: customSet()})
	typeText(m, "/reveiw x")
	press(m, "enter")
	if s := screenOf(m); !strings.Contains(s, "Unknown command: /reveiw. Did you mean /review?") {
		t.Errorf("screen:\n%s", s)
	}
}

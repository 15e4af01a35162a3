package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

func TestSetupScreen(t *testing.T) {
	local := "llamacpp at http://127.0.0.1:8080/v1 · qwen3-coder"
	cases := []struct {
		name   string
		locals []string
		keys   []tea.Msg
		want   *SetupAnswer
	}{
		{name: "Enter takes the local server found", locals: []string{local},
			keys: []tea.Msg{key("enter")}, want: &SetupAnswer{Local: 0}},
		{name: "a pasted key", locals: []string{local},
			keys: []tea.Msg{key("2"), tea.PasteMsg{Content: " sk-ant-123\n"}, key("enter")}, want: &SetupAnswer{Key: "sk-ant-123", Local: -1}},
		{name: "without a server the key comes first", keys: []tea.Msg{key("enter"), key("k"), key("enter")},
			want: &SetupAnswer{Key: "k", Local: -1}},
		{name: "an empty key is not taken; Esc goes back to the list", keys: []tea.Msg{key("enter"), key("enter"), key("esc"), key("down"), key("enter")}},
		{name: "Quit", locals: []string{local}, keys: []tea.Msg{key("3")}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := newSetupModel(Setup{KeyName: "Anthropic API key", KeyFile: "~/.mini-claude/credentials.json", Locals: c.locals})
			m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
			quit := false
			for _, k := range c.keys {
				if _, cmd := m.Update(k); cmd != nil {
					if _, ok := cmd().(tea.QuitMsg); ok {
						quit = true
					}
				}
			}
			if !quit {
				t.Fatalf("the screen did not close:\n%s", ansi.Strip(m.View().Content))
			}
			if (m.answer == nil) != (c.want == nil) || (m.answer != nil && *m.answer != *c.want) {
				t.Errorf("answer %+v, want %+v", m.answer, c.want)
			}
		})
	}
}

func TestSetupScreenMasksTheKey(t *testing.T) {
	m := newSetupModel(Setup{KeyName: "Anthropic API key", KeyFile: "/home/u/.mini-claude/credentials.json"})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	shot := ansi.Strip(m.View().Content)
	for _, want := range []string{"Paste an Anthropic API key", "No local model server answered", "/home/u/.mini-claude/credentials.json"} {
		if !strings.Contains(shot, want) {
			t.Errorf("the screen lacks %q:\n%s", want, shot)
		}
	}
	m.Update(key("enter"))
	m.Update(tea.PasteMsg{Content: "sk-secret"})
	if shot := ansi.Strip(m.View().Content); strings.Contains(shot, "sk-secret") || !strings.Contains(shot, "•••") {
		t.Errorf("the key shows while typed:\n%s", shot)
	}
}

// key is the press of a key by its name, as press spells them.
func key(name string) tea.Msg {
	switch name {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	}
	return tea.KeyPressMsg{Code: rune(name[0]), Text: name}
}

package tui

import (
	"encoding/json"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mini-claude/mini-claude/internal/permission"
)

// keysOf turns names into key presses: "enter", "down", "up", or text typed.
func keysOf(names ...string) []tea.KeyPressMsg {
	var out []tea.KeyPressMsg
	for _, n := range names {
		switch n {
		case "enter":
			out = append(out, tea.KeyPressMsg{Code: tea.KeyEnter})
		case "down":
			out = append(out, tea.KeyPressMsg{Code: tea.KeyDown})
		case "up":
			out = append(out, tea.KeyPressMsg{Code: tea.KeyUp})
		default:
			for _, r := range n {
				out = append(out, tea.KeyPressMsg{Code: r, Text: string(r)})
			}
		}
	}
	return out
}

// play sends the keys to the form and returns its final answer.
func play(t *testing.T, f form, keys ...string) permission.Answer {
	t.Helper()
	for _, k := range keysOf(keys...) {
		if a, done, _ := f.key(k); done {
			return a
		}
	}
	t.Fatalf("no answer after %v; dialog:\n%s", keys, f.view(80))
	return permission.Answer{}
}

func TestPlanDialogAnswers(t *testing.T) {
	prompt := permission.Prompt{Tool: "ExitPlanMode", Input: json.RawMessage(`{"plan":"# Plan\n\n1. Create **b.txt**\n","planFilePath":"/p.md"}`)}
	tests := []struct {
		name string
		keys []string
		want permission.Answer
	}{
		{"auto-accept edits", []string{"enter"}, permission.Answer{Allow: true, Mode: permission.ModeAcceptEdits}},
		{"approve each edit", []string{"down", "enter"}, permission.Answer{Allow: true, Mode: permission.ModeDefault}},
		{"keep planning", []string{"down", "down", "Also create c.txt", "enter"},
			permission.Answer{Message: rejectionText("Also create c.txt")}},
		{"by number", []string{"2"}, permission.Answer{Allow: true, Mode: permission.ModeDefault}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := formFor(prompt)
			if view := ansi.Strip(f.view(80)); !strings.Contains(view, "Ready to code?") || !strings.Contains(view, "1. Create b.txt") {
				t.Errorf("the dialog does not show the plan:\n%s", view)
			}
			got := play(t, f, tt.keys...)
			if got.Allow != tt.want.Allow || got.Mode != tt.want.Mode || got.Message != tt.want.Message {
				t.Errorf("answer %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestQuestionDialogAnswers(t *testing.T) {
	input := `{"questions":[
	 {"question":"Which color?","header":"Color","multiSelect":false,"options":[{"label":"Red","description":"warm"},{"label":"Blue","description":"cool"}]},
	 {"question":"Which features?","header":"Features","multiSelect":true,"options":[{"label":"Dark mode","description":"d"},{"label":"Search","description":"s"},{"label":"Export","description":"e"}]}]}`
	tests := []struct {
		name string
		keys []string
		want map[string]string
	}{
		{"options", []string{"enter", "enter", "down", "down", "enter", "down", "down", "enter"},
			map[string]string{"Which color?": "Red", "Which features?": "Dark mode, Export"}},
		{"other", []string{"down", "down", "Green", "enter", "down", "down", "down", "Print", "enter", "down", "enter"},
			map[string]string{"Which color?": "Green", "Which features?": "Print"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := play(t, formFor(permission.Prompt{Tool: "AskUserQuestion", Input: json.RawMessage(input)}), tt.keys...)
			var in struct {
				Questions []json.RawMessage `json:"questions"`
				Answers   map[string]string `json:"answers"`
			}
			if !got.Allow || json.Unmarshal(got.UpdatedInput, &in) != nil {
				t.Fatalf("answer %+v", got)
			}
			if len(in.Questions) != 2 || len(in.Answers) != 2 || in.Answers["Which color?"] != tt.want["Which color?"] || in.Answers["Which features?"] != tt.want["Which features?"] {
				t.Errorf("updated input %s, want answers %v", got.UpdatedInput, tt.want)
			}
		})
	}
}

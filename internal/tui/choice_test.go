package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

func TestQuestionAnswers(t *testing.T) {
	q := Question{Title: "Trust?", Lines: []string{"/repo"}, Answers: []string{"Yes", "No"}, Default: 1}
	tests := []struct {
		name string
		keys []string
		want int
	}{
		{"Enter picks the default", []string{"enter"}, 1},
		{"up then Enter picks the first", []string{"up", "enter"}, 0},
		{"down wraps around", []string{"down", "enter"}, 0},
		{"a number picks its answer at once", []string{"1"}, 0},
		{"a number past the answers is ignored", []string{"7", "enter"}, 1},
		{"Esc leaves without an answer", []string{"esc"}, -1},
	}
	for _, tt := range tests {
		c := &choice{q: q, selected: q.Default, picked: -1}
		if cmd := press(c, tt.keys...); cmd == nil {
			t.Errorf("%s: the question did not end", tt.name)
		}
		if c.picked != tt.want {
			t.Errorf("%s: picked %d, want %d", tt.name, c.picked, tt.want)
		}
	}
}

func TestQuestionViewShowsItsLinesAndMarksTheSelection(t *testing.T) {
	c := &choice{q: Question{Title: "Trust this folder?", Lines: []string{"It defines: MCP server db"}, Answers: []string{"Yes", "No"}, Default: 1}, selected: 1}
	v := c.View()
	if !v.AltScreen {
		t.Error("the question is not drawn full screen")
	}
	text := v.Content
	for _, want := range []string{"Trust this folder?", "MCP server db", "1. Yes", "❯ 2. No"} {
		if !strings.Contains(text, want) {
			t.Errorf("view lacks %q:\n%s", want, text)
		}
	}
}

// However short the terminal, the question never grows past it: the middle
// of its lines gives way first, and the answers stay drawn to the last.
func TestQuestionViewFitsTheTerminalKeepingTheAnswers(t *testing.T) {
	lines := []string{"/repo", "MCP server evil"}
	for i := range 40 {
		lines = append(lines, fmt.Sprintf("allow rule Read(./docs/page%d.md)", i))
	}
	lines = append(lines, "Trust it only if you wrote these files.")
	q := Question{Title: "Do you trust the files in this folder?", Lines: lines, Answers: []string{"Yes", "No"}, Default: 1}
	tests := []struct {
		name   string
		height int
		want   []string
		hidden []string
	}{
		{"a tall terminal shows every line", 60,
			[]string{"Do you trust", "page39.md", "1. Yes", "❯ 2. No", "Enter to confirm"}, []string{"more lines"}},
		{"a short one clips the middle of the lines", 20,
			[]string{"Do you trust", "/repo", "MCP server evil", "page4.md", "… 33 more lines", "page38.md", "Trust it only if", "1. Yes", "❯ 2. No", "Enter to confirm"},
			[]string{"page5.md", "page37.md"}},
		{"one with room for a single line of them says how many are hidden", 10,
			[]string{"Do you trust", "… 43 more lines", "1. Yes", "❯ 2. No", "Enter to confirm"}, []string{"/repo"}},
		{"a smaller one drops the blank rows and counts the lines", 9,
			[]string{"Do you trust", "… 43 more lines", "1. Yes", "❯ 2. No", "Enter to confirm"}, []string{"/repo"}},
		{"a tiny one keeps the title, the answers and the hint", 6,
			[]string{"Do you trust", "1. Yes", "❯ 2. No", "Enter to confirm"}, []string{"/repo", "more lines"}},
		{"a tinier one keeps the answers", 4, []string{"1. Yes", "❯ 2. No"}, []string{"/repo", "Do you trust"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &choice{q: q, selected: 1, picked: -1}
			c.Update(tea.WindowSizeMsg{Width: 100, Height: tt.height})
			text := c.View().Content
			if rows := strings.Count(text, "\n") + 1; rows > tt.height {
				t.Errorf("the view has %d rows, more than the terminal's %d:\n%s", rows, tt.height, text)
			}
			for _, want := range tt.want {
				if !strings.Contains(text, want) {
					t.Errorf("the view lacks %q:\n%s", want, text)
				}
			}
			for _, hidden := range tt.hidden {
				if strings.Contains(text, hidden) {
					t.Errorf("the view shows %q:\n%s", hidden, text)
				}
			}
		})
	}
}

// A title longer than the terminal is wide, such as a question about a
// server with a long name, is wrapped and counted, not left to push the
// answers down.
func TestQuestionViewCountsAWrappedTitle(t *testing.T) {
	title := "Start the MCP server \"" + strings.Repeat("x", 300) + "\" of this folder?"
	c := &choice{q: Question{Title: title, Lines: []string{"a", "b", "c", "d", "e", "f"}, Answers: []string{"Yes", "No"}, Default: 1}, selected: 1}
	c.Update(tea.WindowSizeMsg{Width: 60, Height: 14})
	text := c.View().Content
	if rows := strings.Count(text, "\n") + 1; rows > 14 || !strings.Contains(text, "❯ 2. No") || !strings.Contains(text, "of this folder?") {
		t.Errorf("a long title in a 60x14 terminal gives %d rows:\n%s", rows, text)
	}
}

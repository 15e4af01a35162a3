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

func TestAQuestionTooLongForTheTerminalStillShowsItsAnswers(t *testing.T) {
	var lines []string
	for i := range 60 {
		lines = append(lines, fmt.Sprintf("item %d", i))
	}
	c := &choice{q: Question{Title: "Trust?", Lines: lines, Answers: []string{"Yes", "No"}, Default: 1}, selected: 1}
	c.Update(tea.WindowSizeMsg{Width: 80, Height: 20})
	view := c.View().Content
	for _, want := range []string{"Trust?", "item 0", "item 59", "more lines", "1. Yes", "2. No", "Enter to confirm"} {
		if !strings.Contains(view, want) {
			t.Errorf("view lacks %q:\n%s", want, view)
		}
	}
	if n := strings.Count(view, "\n") + 1; n > 20 {
		t.Errorf("the view is %d rows in a 20-row terminal", n)
	}
}

package tui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/mini-claude/mini-claude/internal/tool"
)

// Question is a choice put to the user before a session opens, such as
// whether to trust the folder: a title, lines saying what it is about, and
// the answers.
type Question struct {
	Title   string
	Lines   []string
	Answers []string
	// Default is the answer selected at first, and the one Enter picks at once.
	Default int
	// In and Out are the terminal; nil means the process's standard streams.
	In  io.Reader
	Out io.Writer
}

// ErrNoAnswer is returned by Ask when the user left the question with Esc or Ctrl+C.
var ErrNoAnswer = errors.New("the question was left without an answer")

// Ask shows the question full screen and returns the index of the answer the
// user picked (arrows and Enter, or the answer's number), or ErrNoAnswer.
func Ask(ctx context.Context, q Question) (int, error) {
	c := &choice{q: q, selected: q.Default, picked: -1}
	var opts []tea.ProgramOption
	if q.In != nil {
		opts = append(opts, tea.WithInput(q.In))
	}
	if q.Out != nil {
		opts = append(opts, tea.WithOutput(q.Out))
	}
	p := tea.NewProgram(c, opts...)
	stop := context.AfterFunc(ctx, p.Quit)
	defer stop()
	if _, err := p.Run(); err != nil && !errors.Is(err, tea.ErrProgramKilled) {
		return 0, err
	}
	if c.picked < 0 {
		return 0, ErrNoAnswer
	}
	return c.picked, nil
}

// choice is the bubbletea model of Ask.
type choice struct {
	q        Question
	selected int
	picked   int
	width    int
	height   int
}

func (c *choice) Init() tea.Cmd { return nil }

func (c *choice) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		c.width, c.height = msg.Width, msg.Height
	case tea.KeyPressMsg:
		n := len(c.q.Answers)
		switch key := msg.String(); key {
		case "up", "k", "shift+tab":
			c.selected = (c.selected + n - 1) % n
		case "down", "j", "tab":
			c.selected = (c.selected + 1) % n
		case "enter":
			c.picked = c.selected
			return c, tea.Quit
		case "esc", "ctrl+c":
			return c, tea.Quit
		default:
			if len(key) == 1 && key[0] >= '1' && int(key[0]-'1') < n {
				c.picked = int(key[0] - '1')
				return c, tea.Quit
			}
		}
	}
	return c, nil
}

func (c *choice) View() tea.View {
	width := c.width
	if width <= 0 {
		width = 80
	}
	inner := max(20, width-4)
	var body []string
	for _, l := range c.q.Lines {
		body = append(body, wrap(l, inner)...)
	}
	if c.height > 0 {
		body = clipMiddle(body, c.height-len(c.q.Answers)-7)
	}
	lines := append([]string{boldStyle.Render(c.q.Title), ""}, body...)
	lines = append(lines, "")
	for i, a := range c.q.Answers {
		label := fmt.Sprintf("%d. %s", i+1, a)
		if i == c.selected {
			lines = append(lines, accentStyle.Render(tool.Clip("❯ "+label, inner)))
		} else {
			lines = append(lines, tool.Clip("  "+label, inner))
		}
	}
	lines = append(lines, "", dimStyle.Render("Enter to confirm · Esc to exit"))
	v := tea.NewView(dialogBorder.Width(width).Render(strings.Join(lines, "\n")))
	v.AltScreen = true
	return v
}

// clipMiddle keeps lines within room rows, cutting from the middle and
// saying how many were cut, so that a question's title, its end and its
// answers always show, however much it lists.
func clipMiddle(lines []string, room int) []string {
	room = max(room, 3)
	if len(lines) <= room {
		return lines
	}
	head := (room - 1) / 2
	tail := room - 1 - head
	cut := len(lines) - head - tail
	return append(append(lines[:head:head], dimStyle.Render(fmt.Sprintf("… %d more lines", cut))), lines[len(lines)-tail:]...)
}

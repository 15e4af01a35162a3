package tui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/mini-claude/mini-claude/internal/render"
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
	// width and height are the terminal's, 0 until it reports them.
	width, height int
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

// View draws the question in a box that fits the terminal: when its lines
// are too many, the middle of Lines gives way, so that the title, the
// answers and the hint always show.
func (c *choice) View() tea.View {
	width := c.width
	if width <= 0 {
		width = 80
	}
	inner := max(20, width-4)
	var title, body []string
	for _, l := range wrap(c.q.Title, inner) {
		title = append(title, boldStyle.Render(l))
	}
	for _, l := range c.q.Lines {
		body = append(body, wrap(l, inner)...)
	}
	// The box's border takes two of the terminal's rows.
	rows := fitRows(title, body, c.answerRows(inner), dimStyle.Render("Enter to confirm · Esc to exit"), c.height-2)
	v := tea.NewView(dialogBorder.Width(width).Render(strings.Join(rows, "\n")))
	v.AltScreen = true
	return v
}

// answerRows are the answers, numbered, the selected one marked, one row each.
func (c *choice) answerRows(inner int) []string {
	rows := make([]string, len(c.q.Answers))
	for i, a := range c.q.Answers {
		label := fmt.Sprintf("%d. %s", i+1, a)
		if i == c.selected {
			rows[i] = accentStyle.Render(render.Clip("❯ "+label, inner))
		} else {
			rows[i] = render.Clip("  "+label, inner)
		}
	}
	return rows
}

// fitRows lays out a question in at most room rows (room <= 0: unknown, no
// limit): the title, the body, the answers and the hint, a blank row between
// each. When they do not fit, the middle of the body gives way to a row saying
// how many are hidden. On a screen too small even for that, the blank rows
// go, and the body is only counted: the answers are kept first, then the
// hint, then as much of the title and the count as there is room for.
func fitRows(title, body, answers []string, hint string, room int) []string {
	layout := func(body []string) []string {
		return slices.Concat(title, []string{""}, body, []string{""}, answers, []string{"", hint})
	}
	all := layout(body)
	if room <= 0 || len(all) <= room {
		return all
	}
	if keep := len(body) - (len(all) - room); keep >= 1 {
		return layout(clipMiddle(body, keep))
	}
	tail := answers
	if room > len(answers) {
		tail = append(slices.Clone(answers), hint)
	}
	head := slices.Concat(title, []string{hiddenRow(len(body))})
	head = head[:min(len(head), max(0, room-len(tail)))]
	rows := slices.Concat(head, tail)
	return rows[max(0, len(rows)-room):]
}

// clipMiddle returns n rows of lines, n < len(lines): its first and last rows
// around one saying how many were left out of the middle. It keeps about
// twice as many rows of the start as of the end, since a question puts what
// matters most first and its closing words last.
func clipMiddle(lines []string, n int) []string {
	tail := (n - 1) / 3
	head := n - 1 - tail
	return slices.Concat(lines[:head], []string{hiddenRow(len(lines) - head - tail)}, lines[len(lines)-tail:])
}

// hiddenRow is the row that stands for n rows of a question left out.
func hiddenRow(n int) string {
	return dimStyle.Render(fmt.Sprintf("… %d more lines", n))
}

package tui

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mini-claude/mini-claude/internal/render"
)

// RewindPoint is an earlier prompt /rewind can go back before.
type RewindPoint struct {
	ID     string
	Prompt string
	// Files counts the files the prompt's tool calls changed.
	Files int
}

// RewindPlan is what restoring the code to before a prompt would change.
type RewindPlan struct {
	// Files are the files that would be written back or deleted.
	Files []string
	// Outside are those of Files someone changed since mini-claude last
	// wrote them, which are restored only when the user says so.
	Outside []string
}

// RewindChoice is what the user chose to restore.
type RewindChoice struct {
	Code, Conversation bool
	// Overwrite restores the files changed outside mini-claude too.
	Overwrite bool
}

// RewindOutcome is what a rewind did.
type RewindOutcome struct {
	// Conversation is the conversation after the rewind, to show again;
	// nil when it was left as it was.
	Conversation *Resumed
	// Restored, Deleted and Kept are the files written back, deleted (a
	// later prompt had created them), and left as they are (changed outside).
	Restored, Deleted, Kept []string
}

// The texts of the dialog, Claude Code's where it has them.
const (
	rewindTitle      = "Rewind"
	rewindSubtitle   = "Restore the code and/or conversation to the point before…"
	rewindNothing    = "Nothing to rewind to yet."
	rewindBashNotice = "Changes made by Bash commands are not tracked, so they are not undone."
)

// The options for a chosen prompt, in Claude Code's words.
var rewindOptions = []string{"Restore code and conversation", "Restore conversation", "Restore code", "Never mind"}

// The options when files changed outside mini-claude.
var outsideOptions = []string{"Keep them, restore the rest", "Restore them too, losing those changes", "Never mind"}

// rewinder is the open /rewind dialog: the list of prompts, then the
// options for the chosen one, then, when files changed outside, whether to
// overwrite them.
type rewinder struct {
	points   []RewindPoint
	selected int
	// chosen is the prompt picked from the list, nil while listing.
	chosen *RewindPoint
	plan   RewindPlan
	// option is the selected option of the current stage.
	option int
	// choice is the restore waiting for an answer about outside changes, nil before.
	choice *RewindChoice
}

func (m *model) cmdRewind(string) tea.Cmd {
	m.openRewind()
	return nil
}

// openRewind opens the list of the prompts to go back before, the latest selected.
func (m *model) openRewind() {
	if m.opts.RewindPoints == nil || m.opts.Rewind == nil {
		m.info("This session cannot rewind.")
		return
	}
	points := m.opts.RewindPoints()
	if len(points) == 0 {
		m.info(rewindNothing)
		return
	}
	m.rewind = &rewinder{points: points, selected: len(points) - 1}
}

// rewindKey handles a key while the rewind dialog is open.
func (m *model) rewindKey(k tea.KeyPressMsg) tea.Cmd {
	r := m.rewind
	n := r.count()
	switch key := k.String(); key {
	case "up", "k", "shift+tab":
		r.move(n - 1)
	case "down", "j", "tab":
		r.move(1)
	case "esc", "ctrl+c":
		r.back(m)
	case "enter":
		return m.rewindPick()
	default:
		if r.chosen != nil && len(key) == 1 && key[0] >= '1' && int(key[0]-'1') < n {
			r.option = int(key[0] - '1')
			return m.rewindPick()
		}
	}
	return nil
}

// count is the number of rows to choose from at the current stage.
func (r *rewinder) count() int {
	switch {
	case r.choice != nil:
		return len(outsideOptions)
	case r.chosen != nil:
		return len(rewindOptions)
	}
	return len(r.points)
}

func (r *rewinder) move(by int) {
	n := r.count()
	if r.chosen == nil {
		r.selected = (r.selected + by) % n
		return
	}
	r.option = (r.option + by) % n
}

// back goes one stage back: from the options to the list, from the list out.
func (r *rewinder) back(m *model) {
	switch {
	case r.choice != nil:
		r.choice, r.option = nil, 0
	case r.chosen != nil:
		r.chosen, r.option = nil, 0
	default:
		m.rewind = nil
	}
}

// rewindPick acts on Enter: choose the prompt, then the option, then the
// answer about files changed outside; the last answer starts the rewind.
func (m *model) rewindPick() tea.Cmd {
	r := m.rewind
	switch {
	case r.chosen == nil:
		p := r.points[r.selected]
		plan := RewindPlan{}
		if m.opts.RewindPlan != nil {
			var err error
			if plan, err = m.opts.RewindPlan(p.ID); err != nil {
				m.rewind = nil
				m.conv.add(&block{kind: blockError, text: "The checkpoints could not be read: " + err.Error()})
				return nil
			}
		}
		r.chosen, r.plan, r.option = &p, plan, 0
	case r.choice != nil:
		c := *r.choice
		switch r.option {
		case 0:
			return m.runRewind(c)
		case 1:
			c.Overwrite = true
			return m.runRewind(c)
		}
		m.rewind = nil
	default:
		c := [...]RewindChoice{{Code: true, Conversation: true}, {Conversation: true}, {Code: true}}
		if r.option >= len(c) {
			m.rewind = nil
			return nil
		}
		if c[r.option].Code && len(r.plan.Outside) > 0 {
			r.choice, r.option = &c[r.option], 0
			return nil
		}
		return m.runRewind(c[r.option])
	}
	return nil
}

// rewindDoneMsg says a rewind ended, with what it did.
type rewindDoneMsg struct {
	prompt RewindPoint
	choice RewindChoice
	out    RewindOutcome
	err    error
}

// runRewind carries out the choice off the program's goroutine (the
// agent's events of it come back through the program), as a turn: no prompt
// is sent meanwhile.
func (m *model) runRewind(c RewindChoice) tea.Cmd {
	chosen := *m.rewind.chosen
	m.rewind = nil
	m.turn = &turnState{cancel: func() {}, started: time.Now()}
	rewind := m.opts.Rewind
	return m.work.cmd(func() tea.Msg {
		out, err := rewind(chosen.ID, c)
		return rewindDoneMsg{prompt: chosen, choice: c, out: out, err: err}
	})
}

// rewindDone says what the rewind did; a restored conversation is shown
// again and its prompt put back in the input, to edit and send again, before
// whatever the user typed or queued meanwhile (which then waits there too).
func (m *model) rewindDone(msg rewindDoneMsg) {
	m.turn = nil
	if msg.err != nil {
		m.conv.add(&block{kind: blockError, text: "The rewind did not finish: " + msg.err.Error()})
	}
	if msg.out.Conversation != nil {
		m.conv.clear()
		m.showConversation(*msg.out.Conversation)
		m.queue = append([]string{msg.prompt.Prompt}, m.queue...)
		m.editQueued()
	}
	m.info(m.rewindReport(msg.prompt.Prompt, msg.choice, msg.out))
}

// rewindReport says what a rewind did, file by file.
func (m *model) rewindReport(prompt string, c RewindChoice, out RewindOutcome) string {
	what := "code and conversation"
	switch {
	case !c.Code:
		what = "conversation"
	case !c.Conversation:
		what = "code"
	}
	lines := []string{fmt.Sprintf("Rewound the %s to before %q.", what, promptLine(prompt))}
	for _, part := range []struct {
		label string
		files []string
	}{
		{"Restored", out.Restored},
		{"Deleted (created since)", out.Deleted},
		{"Kept (changed outside mini-claude)", out.Kept},
	} {
		if len(part.files) > 0 {
			lines = append(lines, fmt.Sprintf("%s: %s", part.label, strings.Join(m.relative(part.files), ", ")))
		}
	}
	if c.Code && len(out.Restored)+len(out.Deleted)+len(out.Kept) == 0 {
		lines = append(lines, "The code had not changed; nothing was restored.")
	}
	return strings.Join(lines, "\n")
}

// relative shows paths under the working directory relative to it.
func (m *model) relative(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = p
		if rel, err := filepath.Rel(m.opts.Cwd, p); err == nil && !strings.HasPrefix(rel, "..") {
			out[i] = rel
		}
	}
	return out
}

func promptLine(s string) string {
	return render.Clip(strings.Join(strings.Fields(s), " "), 60)
}

// view draws the dialog's current stage.
func (r *rewinder) view(m *model, width, rows int) string {
	inner := max(20, width-4)
	var lines []string
	row := func(i, selected int, label string) string {
		if i == selected {
			return accentStyle.Render(render.Clip("❯ "+label, inner))
		}
		return render.Clip("  "+label, inner)
	}
	switch {
	case r.choice != nil:
		lines = append(lines, boldStyle.Render("Files changed outside mini-claude"),
			"These files changed since mini-claude last wrote them; restoring them would lose those changes:")
		for _, f := range m.relative(r.plan.Outside) {
			lines = append(lines, "  "+warnStyle.Render(f))
		}
		lines = append(lines, "")
		for i, o := range outsideOptions {
			lines = append(lines, row(i, r.option, fmt.Sprintf("%d. %s", i+1, o)))
		}
	case r.chosen != nil:
		lines = append(lines, boldStyle.Render(rewindTitle), "Restore to the point before you sent this message:",
			dimStyle.Render("│ ")+render.Clip(promptLine(r.chosen.Prompt), inner-2), "")
		for i, o := range rewindOptions {
			lines = append(lines, row(i, r.option, fmt.Sprintf("%d. %s", i+1, o)))
		}
		lines = append(lines, "")
		lines = append(lines, dimStyle.Render(r.conversationEffect()), dimStyle.Render(m.codeEffect(r)))
		if r.option == 0 || r.option == 2 {
			if len(r.plan.Outside) > 0 {
				lines = append(lines, warnStyle.Render(fmt.Sprintf("Changed outside mini-claude since: %s (you will be asked).", strings.Join(m.relative(r.plan.Outside), ", "))))
			}
		}
		lines = append(lines, dimStyle.Render(rewindBashNotice))
	default:
		lines = append(lines, boldStyle.Render(rewindTitle), rewindSubtitle, "")
		height := max(3, rows-6)
		start := max(0, min(r.selected-height/2, len(r.points)-height))
		for i := start; i < min(len(r.points), start+height); i++ {
			p := r.points[i]
			changes := "No code changes"
			if p.Files == 1 {
				changes = "1 file changed"
			} else if p.Files > 1 {
				changes = fmt.Sprintf("%d files changed", p.Files)
			}
			lines = append(lines, row(i, r.selected, promptLine(p.Prompt)+" · "+changes))
		}
		lines = append(lines, "", dimStyle.Render(rewindBashNotice))
	}
	lines = append(lines, dimStyle.Render("Enter to choose · Esc to go back"))
	return dialogBorder.Width(width).Render(strings.Join(lines, "\n"))
}

// conversationEffect says what the selected option does to the conversation.
func (r *rewinder) conversationEffect() string {
	if r.option <= 1 {
		return "The conversation goes back to before this message."
	}
	return "The conversation will be unchanged."
}

// codeEffect says what the selected option does to the files.
func (m *model) codeEffect(r *rewinder) string {
	if r.option != 0 && r.option != 2 {
		return "The code will be unchanged."
	}
	files := m.relative(r.plan.Files)
	switch len(files) {
	case 0:
		return "The code has not changed (nothing will be restored)."
	case 1:
		return fmt.Sprintf("The code will be restored in %s.", files[0])
	case 2:
		return fmt.Sprintf("The code will be restored in %s and %s.", files[0], files[1])
	}
	return fmt.Sprintf("The code will be restored in %s and %d other files.", files[0], len(files)-1)
}

// doubleEscDelay is how soon a second Esc on an empty prompt must follow the first to open /rewind.
const doubleEscDelay = 800 * time.Millisecond

// doubleEsc opens /rewind on the second of two quick presses of Esc on an
// empty prompt between turns, as Claude Code does.
func (m *model) doubleEsc() {
	if !m.escAt.IsZero() && time.Since(m.escAt) < doubleEscDelay {
		m.escAt = time.Time{}
		m.openRewind()
		return
	}
	m.escAt = time.Now()
}

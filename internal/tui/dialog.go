package tui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/mini-claude/mini-claude/internal/permission"
	"github.com/mini-claude/mini-claude/internal/render"
	"github.com/mini-claude/mini-claude/internal/tool"
)

// The answers of the permission dialog, in the order shown.
const (
	answerYes = iota
	answerAlways
	answerNo
	answerNoWithMessage
)

// dialog is an open permission question; the agent waits on reply.
type dialog struct {
	prompt   permission.Prompt
	reply    chan permission.Answer
	selected int
	// typing is set once "no, and tell the model" is chosen: the message is
	// typed into message.
	typing  bool
	message textinput.Model
	// head is the drawn call, reason and change, kept for headWidth: the
	// change is read from disk and coloured, too slow for every frame.
	head      []string
	headWidth int
	// sessionOnly says a "don't ask again" answer lasts this session only:
	// there is no settings file it may be saved to (an untrusted folder).
	sessionOnly bool
	// form, when set, is the dialog of a question to the user (a plan to
	// approve, AskUserQuestion's questions), which answers in its stead.
	form form
}

func newDialog(p permission.Prompt, reply chan permission.Answer, sessionOnly bool) *dialog {
	in := textinput.New()
	in.Placeholder = "what the model should do instead"
	return &dialog{prompt: p, reply: reply, message: in, sessionOnly: sessionOnly, form: formFor(p)}
}

// answers are the dialog's answers, in the order shown: no "don't ask
// again" for a question a hook asks, which it asks every time.
func (d *dialog) answers() []int {
	if d.prompt.Hook != "" {
		return []int{answerYes, answerNo, answerNoWithMessage}
	}
	return []int{answerYes, answerAlways, answerNo, answerNoWithMessage}
}

// label is how the dialog words an answer.
func (d *dialog) label(answer int) string {
	switch answer {
	case answerYes:
		return "Yes"
	case answerAlways:
		always := "Yes, and don't ask again"
		if d.sessionOnly {
			always += " this session"
		}
		if d.prompt.Rule != "" {
			always += " for " + d.prompt.Rule
		}
		return always
	case answerNo:
		return "No"
	}
	return "No, and tell the model what to do instead"
}

// dialogKey handles a key while the dialog is open: arrows or digits choose,
// Enter answers, Esc refuses and interrupts the turn.
func (m *model) dialogKey(k tea.KeyPressMsg) tea.Cmd {
	d := m.dialog
	if d.form != nil {
		return m.formKey(k)
	}
	if d.typing {
		switch k.String() {
		case "enter":
			m.answer(answerNoWithMessage)
		case "esc":
			d.typing = false
			d.message.Blur()
		default:
			var cmd tea.Cmd
			d.message, cmd = d.message.Update(k)
			return cmd
		}
		return nil
	}
	answers := d.answers()
	key := k.String()
	switch key {
	case "up", "shift+tab", "k":
		d.selected = (d.selected + len(answers) - 1) % len(answers)
	case "down", "tab", "j":
		d.selected = (d.selected + 1) % len(answers)
	case "y":
		m.answer(answerYes)
	case "a":
		if slices.Contains(answers, answerAlways) {
			m.answer(answerAlways)
		}
	case "n":
		m.answer(answerNo)
	case "enter":
		return m.answerSelected()
	case "esc", "ctrl+c":
		m.answer(answerNo)
		m.interrupt()
	default:
		if n, err := strconv.Atoi(key); err == nil && n >= 1 && n <= len(answers) {
			d.selected = n - 1
			return m.answerSelected()
		}
	}
	return nil
}

func (m *model) answerSelected() tea.Cmd {
	d := m.dialog
	choice := d.answers()[d.selected]
	if choice == answerNoWithMessage {
		d.typing = true
		return d.message.Focus()
	}
	m.answer(choice)
	return nil
}

// answer sends the choice to the waiting agent and closes the dialog. "Yes,
// don't ask again" saves the rule to the project's local settings, answers
// the same question in this turn at once, and joins the session's rules
// before the next turn.
func (m *model) answer(choice int) {
	d := m.dialog
	m.dialog = nil
	var a permission.Answer
	switch choice {
	case answerYes:
		a.Allow = true
	case answerAlways:
		a.Allow = true
		m.rememberRule(d.prompt)
	case answerNo:
		a.Message = fmt.Sprintf("The user refused this %s call. Do not retry it the same way; ask the user how to proceed.", d.prompt.Tool)
	case answerNoWithMessage:
		text := strings.TrimSpace(d.message.Value())
		a.Message = fmt.Sprintf("The user refused this %s call and said: %s", d.prompt.Tool, text)
		if text == "" {
			a.Message = fmt.Sprintf("The user refused this %s call. Do not retry it the same way; ask the user how to proceed.", d.prompt.Tool)
		}
	}
	d.reply <- a
}

func (m *model) rememberRule(p permission.Prompt) {
	rule := p.Rule
	if rule == "" {
		rule = p.Tool
	}
	m.remember(rule)
	m.pendingRules = append(m.pendingRules, rule)
	if m.opts.AddAllowRule == nil {
		m.conv.add(&block{kind: blockNotice, text: "Allowed " + rule + " for this session"})
		return
	}
	path, err := m.opts.AddAllowRule(rule)
	if err != nil {
		m.conv.add(&block{kind: blockError, text: "The rule " + rule + " is allowed for this session but could not be saved: " + err.Error()})
		return
	}
	m.conv.add(&block{kind: blockNotice, text: "Added the rule " + rule + " to " + path})
}

// view draws the dialog: the tool and its call, the exact part asked about,
// the reason, and the answers.
func (d *dialog) view(r *renderer, width int) string {
	if d.form != nil {
		return d.form.view(width)
	}
	inner := max(20, width-4)
	lines := append([]string(nil), d.callLines(r, inner)...)
	lines = append(lines, "", "Do you want to proceed?")
	for i, answer := range d.answers() {
		label := fmt.Sprintf("%d. %s", i+1, d.label(answer))
		if i == d.selected {
			lines = append(lines, accentStyle.Render(render.Clip("❯ "+label, inner)))
		} else {
			lines = append(lines, render.Clip("  "+label, inner))
		}
	}
	if d.typing {
		lines = append(lines, "", d.message.View())
	}
	lines = append(lines, dimStyle.Render("Enter to answer · Esc to refuse and interrupt"))
	return dialogBorder.Width(width).Render(strings.Join(lines, "\n"))
}

// callLines draws what the dialog asks about — the tool and its call, the
// exact part asked about, the reason and the change — once per width.
func (d *dialog) callLines(r *renderer, inner int) []string {
	if d.head != nil && d.headWidth == inner {
		return d.head
	}
	var rend render.Renderer = render.Generic()
	if t := r.tools(d.prompt.Tool); t != nil {
		rend = render.Of(t)
	}
	lines := []string{boldStyle.Render(d.prompt.Tool + " wants permission")}
	lines = append(lines, render.Clip(d.prompt.Tool+"("+rend.RenderUse(d.prompt.Input, false)+")", inner))
	if d.prompt.Subject != "" {
		lines = append(lines, warnStyle.Render(render.Clip("Asks for: "+d.prompt.Subject, inner)))
	}
	if d.prompt.Hook != "" {
		lines = append(lines, warnStyle.Render(render.Clip("Hook "+d.prompt.Hook+" requires confirmation for this command:", inner)))
	}
	if d.prompt.Reason != "" {
		lines = append(lines, wrap(dimStyle.Render(d.prompt.Reason), inner)...)
	}
	queued := rend.RenderQueued(d.prompt.Input, tool.RenderOptions{Width: inner - 2})
	if queued.String() != render.Generic().RenderQueued(nil, tool.RenderOptions{}).String() {
		lines = append(lines, styleText(render.Condense(queued, 8))...)
	}
	d.head, d.headWidth = lines, inner
	return lines
}

// formKey hands a key to the dialog's form and sends its answer when it has
// one; Esc refuses and interrupts the turn, as in every dialog.
func (m *model) formKey(k tea.KeyPressMsg) tea.Cmd {
	d := m.dialog
	if s := k.String(); s == "esc" || s == "ctrl+c" {
		m.dialog = nil
		d.reply <- permission.Answer{Message: fmt.Sprintf("The user refused this %s call. Do not retry it the same way; ask the user how to proceed.", d.prompt.Tool)}
		m.interrupt()
		return nil
	}
	answer, done, cmd := d.form.key(k)
	if done {
		m.dialog = nil
		d.reply <- answer
	}
	return cmd
}

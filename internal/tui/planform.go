package tui

import (
	"encoding/json"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/mini-claude/mini-claude/internal/permission"
	"github.com/mini-claude/mini-claude/internal/render"
)

// form is a permission question that is a question to the user, asked with
// a dialog of its own (ExitPlanMode's plan approval, AskUserQuestion): it
// takes the keys and says when it has the answer.
type form interface {
	// key handles a key; done says the answer is final.
	key(k tea.KeyPressMsg) (answer permission.Answer, done bool, cmd tea.Cmd)
	view(width int) string
}

// formFor returns the dialog for a prompt that is a question to the user,
// nil for a plain permission question.
func formFor(p permission.Prompt) form {
	switch p.Tool {
	case "ExitPlanMode":
		return newPlanForm(p)
	case "AskUserQuestion":
		return newQuestionForm(p)
	}
	return nil
}

// rejectionText is Claude Code's answer to a call the user refused with
// feedback, which the model reads as the call's result.
func rejectionText(feedback string) string {
	return "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, " +
		"the new_string was NOT written to the file). To tell you how to proceed, the user said:\n" + feedback
}

// The plan dialog's answers, in Claude Code's words and order.
var planChoices = []string{"Yes, auto-accept edits", "Yes, manually approve edits", "Tell the model what to change"}

// planForm shows the plan as markdown and asks whether to go ahead.
type planForm struct {
	plan, path string
	selected   int
	feedback   textinput.Model
}

func newPlanForm(p permission.Prompt) *planForm {
	var in struct {
		Plan         string `json:"plan"`
		PlanFilePath string `json:"planFilePath"`
	}
	_ = json.Unmarshal(p.Input, &in) // an input without a plan shows an empty one
	fb := textinput.New()
	fb.Placeholder = planChoices[2]
	return &planForm{plan: in.Plan, path: in.PlanFilePath, feedback: fb}
}

func (f *planForm) key(k tea.KeyPressMsg) (permission.Answer, bool, tea.Cmd) {
	typing := f.selected == 2
	switch k.String() {
	case "up":
		f.selected = (f.selected + 2) % 3
	case "down", "tab":
		f.selected = (f.selected + 1) % 3
	case "enter":
		switch f.selected {
		case 0:
			return permission.Answer{Allow: true, Mode: permission.ModeAcceptEdits}, true, nil
		case 1:
			return permission.Answer{Allow: true, Mode: permission.ModeDefault}, true, nil
		}
		if text := strings.TrimSpace(f.feedback.Value()); text != "" {
			return permission.Answer{Message: rejectionText(text)}, true, nil
		}
	case "1", "2":
		if !typing {
			f.selected = int(k.String()[0] - '1')
			return f.key(tea.KeyPressMsg{Code: tea.KeyEnter})
		}
		fallthrough
	default:
		if !typing {
			if k.String() == "3" {
				f.selected = 2
			}
			break
		}
		var cmd tea.Cmd
		f.feedback, cmd = f.feedback.Update(k)
		return permission.Answer{}, false, cmd
	}
	if f.selected == 2 {
		return permission.Answer{}, false, f.feedback.Focus()
	}
	f.feedback.Blur()
	return permission.Answer{}, false, nil
}

func (f *planForm) view(width int) string {
	inner := max(20, width-4)
	lines := []string{boldStyle.Render("Ready to code?"), "", "Here is the model's plan:", dimStyle.Render(strings.Repeat("╌", inner))}
	plan := renderMarkdown(f.plan, inner)
	if len(plan) == 0 {
		plan = []string{dimStyle.Render("(the plan file is empty)")}
	}
	lines = append(lines, plan...)
	lines = append(lines, dimStyle.Render(strings.Repeat("╌", inner)), "", "The model has written up a plan and is ready to execute. Would you like to proceed?")
	for i, label := range planChoices {
		if i == 2 && f.selected == 2 {
			label = f.feedback.View()
		}
		lines = append(lines, choiceLine(i, label, i == f.selected, inner))
	}
	hint := "Enter to choose · Esc to keep planning and interrupt"
	if f.path != "" {
		hint += " · " + f.path
	}
	lines = append(lines, dimStyle.Render(render.Clip(hint, inner)))
	return dialogBorder.Width(width).Render(strings.Join(lines, "\n"))
}

// choiceLine draws the i-th answer of a dialog, marked when selected.
func choiceLine(i int, label string, selected bool, width int) string {
	text := fmt.Sprintf("%d. %s", i+1, label)
	if selected {
		return accentStyle.Render(render.Clip("❯ "+text, width))
	}
	return render.Clip("  "+text, width)
}

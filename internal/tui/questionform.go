package tui

import (
	"encoding/json"
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/mini-claude/mini-claude/internal/permission"
	"github.com/mini-claude/mini-claude/internal/render"
)

// otherLabel is the row where the user answers in their own words, as
// Claude Code words it; the model never lists it.
const otherLabel = "Type something."

// question is one of AskUserQuestion's questions.
type question struct {
	Question string `json:"question"`
	Header   string `json:"header"`
	Options  []struct {
		Label       string `json:"label"`
		Description string `json:"description"`
	} `json:"options"`
	MultiSelect bool `json:"multiSelect"`
}

// questionForm asks AskUserQuestion's questions one after the other; the
// answers go back as the call's input with "answers" filled in.
type questionForm struct {
	input     map[string]any
	questions []question
	answers   map[string]string
	// current is the question shown, selected its highlighted row and
	// checked the options ticked of a multi-select question.
	current, selected int
	checked           map[int]bool
	other             textinput.Model
}

func newQuestionForm(p permission.Prompt) *questionForm {
	f := &questionForm{answers: map[string]string{}, checked: map[int]bool{}, other: textinput.New()}
	f.other.Placeholder = otherLabel
	var in struct {
		Questions []question `json:"questions"`
	}
	_ = json.Unmarshal(p.Input, &in)      // validated before the question was asked
	_ = json.Unmarshal(p.Input, &f.input) // the same input, kept whole for the answer
	f.questions = in.Questions
	return f
}

// rows is the number of rows of the current question: its options, the
// other row, and for a multi-select question the Submit row.
func (f *questionForm) rows() int {
	q := f.questions[f.current]
	if q.MultiSelect {
		return len(q.Options) + 2
	}
	return len(q.Options) + 1
}

func (f *questionForm) key(k tea.KeyPressMsg) (permission.Answer, bool, tea.Cmd) {
	if len(f.questions) == 0 {
		return f.finish()
	}
	q := f.questions[f.current]
	onOther := f.selected == len(q.Options)
	switch k.String() {
	case "up":
		f.selected = (f.selected + f.rows() - 1) % f.rows()
	case "down", "tab":
		f.selected = (f.selected + 1) % f.rows()
	case "enter", "space":
		if k.String() == "space" && onOther {
			return f.typeKey(k)
		}
		return f.choose()
	default:
		if onOther {
			return f.typeKey(k)
		}
	}
	if f.selected == len(q.Options) {
		return permission.Answer{}, false, f.other.Focus()
	}
	f.other.Blur()
	return permission.Answer{}, false, nil
}

func (f *questionForm) typeKey(k tea.KeyPressMsg) (permission.Answer, bool, tea.Cmd) {
	var cmd tea.Cmd
	f.other, cmd = f.other.Update(k)
	return permission.Answer{}, false, cmd
}

// choose acts on the selected row: answers a single-select question, ticks
// an option of a multi-select one, or submits its ticks.
func (f *questionForm) choose() (permission.Answer, bool, tea.Cmd) {
	q := f.questions[f.current]
	other := strings.TrimSpace(f.other.Value())
	switch {
	case f.selected < len(q.Options) && q.MultiSelect:
		f.checked[f.selected] = !f.checked[f.selected]
		return permission.Answer{}, false, nil
	case f.selected < len(q.Options):
		f.answers[q.Question] = q.Options[f.selected].Label
	case f.selected == len(q.Options) && other == "":
		return permission.Answer{}, false, nil
	case f.selected == len(q.Options) && !q.MultiSelect:
		f.answers[q.Question] = other
	default:
		var picked []string
		for i, o := range q.Options {
			if f.checked[i] {
				picked = append(picked, o.Label)
			}
		}
		if other != "" {
			picked = append(picked, other)
		}
		if len(picked) == 0 {
			return permission.Answer{}, false, nil
		}
		f.answers[q.Question] = strings.Join(picked, ", ")
	}
	if f.current++; f.current < len(f.questions) {
		f.selected, f.checked = 0, map[int]bool{}
		f.other.Reset()
		f.other.Blur()
		return permission.Answer{}, false, nil
	}
	return f.finish()
}

// finish allows the call with the answers added to its input.
func (f *questionForm) finish() (permission.Answer, bool, tea.Cmd) {
	if f.input == nil {
		f.input = map[string]any{}
	}
	f.input["answers"] = f.answers
	updated, err := json.Marshal(f.input)
	if err != nil {
		return permission.Answer{Message: "The user's answers could not be encoded: " + err.Error()}, true, nil
	}
	return permission.Answer{Allow: true, UpdatedInput: updated}, true, nil
}

func (f *questionForm) view(width int) string {
	inner := max(20, width-4)
	if len(f.questions) == 0 {
		return dialogBorder.Width(width).Render("No questions")
	}
	var tabs []string
	for i, q := range f.questions {
		mark := "☐ "
		if i < f.current {
			mark = "☒ "
		}
		tabs = append(tabs, mark+q.Header)
	}
	q := f.questions[f.current]
	lines := []string{render.Clip(strings.Join(tabs, "  "), inner), "", boldStyle.Render(render.Clip(q.Question, inner))}
	for i, o := range q.Options {
		label := o.Label
		if q.MultiSelect {
			box := "[ ] "
			if f.checked[i] {
				box = "[✔] "
			}
			label = box + label
		}
		lines = append(lines, choiceLine(i, label, i == f.selected, inner))
		if o.Description != "" {
			lines = append(lines, dimStyle.Render(render.Clip("     "+o.Description, inner)))
		}
	}
	other := otherLabel
	if f.selected == len(q.Options) || f.other.Value() != "" {
		other = f.other.View()
	}
	lines = append(lines, choiceLine(len(q.Options), other, f.selected == len(q.Options), inner))
	if q.MultiSelect {
		lines = append(lines, choiceLine(len(q.Options)+1, "Submit", f.selected == len(q.Options)+1, inner))
	}
	lines = append(lines, dimStyle.Render("Enter to select · ↑/↓ to navigate · Esc to cancel"))
	return dialogBorder.Width(width).Render(strings.Join(lines, "\n"))
}

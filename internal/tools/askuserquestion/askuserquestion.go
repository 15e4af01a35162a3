// Package askuserquestion is the AskUserQuestion tool: the model asks the
// user one to four multiple-choice questions. The call is a permission ask
// (tool.Def.RequiresUserInteraction): whoever answers asks — the terminal
// UI's question dialog, an SDK client's can_use_tool — answer by allowing
// the call with the input's "answers" filled in (Claude Code's updatedInput),
// and the tool turns them into Claude Code's result text.
package askuserquestion

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/mini-claude/mini-claude/internal/tool"
)

// Option is one choice of a question.
type Option struct {
	Label       string `json:"label" jsonschema_description:"The display text for this option that the user will see and select. Should be concise (1-5 words) and clearly describe the choice."`
	Description string `json:"description" jsonschema_description:"Explanation of what this option means or what will happen if chosen. Useful for providing context about trade-offs or implications."`
	Preview     string `json:"preview,omitempty" jsonschema_description:"Optional preview content rendered when this option is focused. Use for mockups, code snippets, or visual comparisons that help users compare options. See the tool description for the expected content format."`
}

// Question is one question, with its options; the user may always answer
// in their own words instead ("Other").
type Question struct {
	Question    string   `json:"question" jsonschema_description:"The complete question to ask the user. Should be clear, specific, and end with a question mark. Example: \"Which library should we use for date formatting?\" If multiSelect is true, phrase it accordingly, e.g. \"Which features do you want to enable?\""`
	Header      string   `json:"header" jsonschema_description:"Very short label displayed as a chip/tag (max 12 chars). Examples: \"Auth method\", \"Library\", \"Approach\"."`
	Options     []Option `json:"options" jsonschema:"minItems=2,maxItems=4" jsonschema_description:"The available choices for this question. Must have 2-4 options. Each option should be a distinct, mutually exclusive choice (unless multiSelect is enabled). There should be no 'Other' option, that will be provided automatically."`
	MultiSelect bool     `json:"multiSelect" jsonschema:"default=false" jsonschema_description:"Set to true to allow the user to select multiple options instead of just one. Use when choices are not mutually exclusive."`
}

// Annotation is what the user added to an answer.
type Annotation struct {
	Preview string `json:"preview,omitempty" jsonschema_description:"The preview content of the selected option, if the question used previews."`
	Notes   string `json:"notes,omitempty" jsonschema_description:"Free-text notes the user added to their selection."`
}

// Metadata is for the caller's bookkeeping; the user never sees it.
type Metadata struct {
	Source string `json:"source,omitempty" jsonschema_description:"Optional identifier for the source of this question (e.g., \"remember\" for /remember command). Used for analytics tracking."`
}

// Input is Claude Code's schema: the questions from the model, and the
// answers that the one who answered the permission ask fills in, keyed by
// question text (several options of a multi-select joined with ", ").
type Input struct {
	Questions   []Question            `json:"questions" jsonschema:"minItems=1,maxItems=4" jsonschema_description:"Questions to ask the user (1-4 questions)"`
	Answers     map[string]string     `json:"answers,omitempty" jsonschema_description:"User answers collected by the permission component"`
	Annotations map[string]Annotation `json:"annotations,omitempty" jsonschema_description:"Optional per-question annotations from the user (e.g., notes on preview selections). Keyed by question text."`
	Metadata    *Metadata             `json:"metadata,omitempty" jsonschema_description:"Optional metadata for tracking and analytics purposes. Not displayed to user."`
}

// Output is the questions and the answers, as Claude Code reports them in
// stream-json's tool_use_result.
type Output struct {
	Questions   []Question            `json:"questions"`
	Answers     map[string]string     `json:"answers"`
	Annotations map[string]Annotation `json:"annotations,omitempty"`
}

// Name is the tool's name.
const Name = "AskUserQuestion"

// askText is what the permission ask says, in Claude Code's words.
const askText = "Answer questions?"

const description = `Asks the user one to four multiple-choice questions and waits for the answers. Use it only when you are blocked on a decision that is genuinely the user's to make, one you cannot settle from the request, the code or sensible defaults.

- The user can always pick "Other" and answer in their own words; do not add such an option.
- Set multiSelect to true when several options may be chosen together.
- If you recommend an option, put it first and end its label with "(Recommended)".
- Each question must stand on its own: the user may see only the question dialog, so name what you are asking about in the question itself.

In plan mode, use it to clarify requirements or choose between approaches before you finish the plan; never to ask whether the plan is ready or may go ahead — that is what ExitPlanMode does.`

// Tool is the AskUserQuestion tool.
var Tool = tool.MustBuild(tool.Def[Input, Output]{
	Name:                    Name,
	SearchHint:              "ask the user multiple choice questions",
	Description:             description,
	MaxResultSizeChars:      100_000,
	RequiresUserInteraction: true,
	IsReadOnly:              tool.Always[Input],
	IsConcurrencySafe:       tool.Always[Input],
	ValidateInput:           validate,
	CheckPermissions:        ask,
	Call:                    answer,
	MapResult:               toBlocks,
	RenderUse:               renderUse,
	RenderResult:            renderResult,
})

func ask(context.Context, Input, *tool.Env) tool.PermissionResult {
	return tool.PermissionResult{Behavior: tool.Ask, Message: askText}
}

// validate checks the counts the schema states (1-4 questions, 2-4 options
// each) and what it cannot: question texts and the labels of a question's
// options are unique.
func validate(_ context.Context, in Input, _ *tool.Env) error {
	if n := len(in.Questions); n < 1 || n > 4 {
		return fmt.Errorf("questions has %d entries; ask 1 to 4 questions", n)
	}
	var questions []string
	for _, q := range in.Questions {
		if n := len(q.Options); n < 2 || n > 4 {
			return fmt.Errorf("the question %q has %d options; give 2 to 4 (the user can always answer in their own words)", q.Question, n)
		}
		if slices.Contains(questions, q.Question) {
			return errors.New("Question texts must be unique, option labels must be unique within each question")
		}
		questions = append(questions, q.Question)
		var labels []string
		for _, o := range q.Options {
			if slices.Contains(labels, o.Label) {
				return errors.New("Question texts must be unique, option labels must be unique within each question")
			}
			labels = append(labels, o.Label)
		}
	}
	return nil
}

func answer(_ context.Context, in Input, _ *tool.Env, _ tool.Progress) (Output, error) {
	answers := in.Answers
	if answers == nil {
		answers = map[string]string{}
	}
	return Output{Questions: in.Questions, Answers: answers, Annotations: in.Annotations}, nil
}

// notesOnly is the answer Claude Code records for a question the user only
// annotated; it counts as no answer.
const notesOnly = "(notes only)"

// Text is Claude Code's result text for the answers, question by question
// (a question neither answered nor annotated left out): when every answer is
// one of its question's options (several joined with ", " for a
// multi-select) and nothing is annotated, the answers are simply taken;
// otherwise the model is told to read what the user said.
func Text(out Output) string {
	var parts []string
	for _, q := range out.Questions {
		a := out.Answers[q.Question]
		answered := a != "" && a != notesOnly
		note := out.Annotations[q.Question]
		if !answered && note.Notes == "" {
			continue
		}
		part := `"` + q.Question + `"=(no option selected)`
		if answered {
			part = `"` + q.Question + `"="` + a + `"`
		}
		if note.Preview != "" {
			part += " selected preview:\n" + note.Preview
		}
		if note.Notes != "" {
			part += " notes: " + note.Notes
		}
		parts = append(parts, part)
	}
	if len(parts) == 0 {
		return "The user did not answer the questions."
	}
	answers := strings.Join(parts, ", ")
	if !slices.ContainsFunc(out.Questions, func(q Question) bool { return !fromOptions(q, out) }) {
		return "Your questions have been answered: " + answers + ". You can now continue with these answers in mind."
	}
	return "The user answered: " + answers +
		". Read the answers carefully — they may request clarification, changes, or that you not proceed — and follow what they actually say."
}

// fromOptions reports whether the question's answer, if any, is one of its
// options, or for a multi-select a list of them, with no notes added.
func fromOptions(q Question, out Output) bool {
	if out.Annotations[q.Question].Notes != "" {
		return false
	}
	a := out.Answers[q.Question]
	if a == "" || a == notesOnly || slices.ContainsFunc(q.Options, func(o Option) bool { return o.Label == a }) {
		return true
	}
	if !q.MultiSelect {
		return false
	}
	labels, ok := splitLabels(a)
	return ok && joinLabels(labels) == a && !slices.ContainsFunc(labels, func(l string) bool {
		return !slices.ContainsFunc(q.Options, func(o Option) bool { return o.Label == l })
	})
}

// joinLabels joins a multi-select's labels as Claude Code does: by ", ",
// a label holding ", " or a quote written as a JSON string.
func joinLabels(labels []string) string {
	out := make([]string, len(labels))
	for i, l := range labels {
		out[i] = l
		if strings.Contains(l, ", ") || strings.Contains(l, `"`) {
			b, _ := json.Marshal(l)
			out[i] = string(b)
		}
	}
	return strings.Join(out, ", ")
}

// splitLabels reads what joinLabels writes; it reports false for text that
// is not such a list.
func splitLabels(s string) ([]string, bool) {
	var out []string
	for {
		if strings.HasPrefix(s, `"`) {
			end, escaped := -1, false
			for i := 1; i < len(s) && end < 0; i++ {
				switch {
				case escaped:
					escaped = false
				case s[i] == '\\':
					escaped = true
				case s[i] == '"':
					end = i
				}
			}
			var label string
			if end < 0 || json.Unmarshal([]byte(s[:end+1]), &label) != nil {
				return nil, false
			}
			out, s = append(out, label), s[end+1:]
		} else {
			label, rest, found := strings.Cut(s, ", ")
			if strings.Contains(label, `"`) {
				return nil, false
			}
			out, s = append(out, label), ""
			if found {
				s = ", " + rest
			}
		}
		if s == "" {
			return out, true
		}
		rest, ok := strings.CutPrefix(s, ", ")
		if !ok || rest == "" {
			return nil, false
		}
		s = rest
	}
}

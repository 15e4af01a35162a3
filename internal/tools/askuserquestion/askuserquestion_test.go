package askuserquestion

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/mini-claude/mini-claude/internal/tool"
)

const questions = `{"questions":[
 {"question":"Which color should the button be?","header":"Color","multiSelect":false,"options":[{"label":"Red (Recommended)","description":"A warm color"},{"label":"Blue","description":"A cool color"}]},
 {"question":"Which features do you want?","header":"Features","multiSelect":true,"options":[{"label":"Dark mode","description":"A dark theme"},{"label":"Search","description":"A search box"},{"label":"Export","description":"Export to CSV"}]}]`

func TestAnswersBecomeClaudeCodesResultText(t *testing.T) {
	tests := []struct {
		name, answers, want string
	}{
		{"answered", `,"answers":{"Which color should the button be?":"Red (Recommended)","Which features do you want?":"Dark mode, Export, Print"}}`,
			// Recorded from Claude Code 2.1.332 (e2e/testdata/plan).
			`The user answered: "Which color should the button be?"="Red (Recommended)", "Which features do you want?"="Dark mode, Export, Print". Read the answers carefully — they may request clarification, changes, or that you not proceed — and follow what they actually say.`},
		// Recorded from Claude Code 2.1.332 through the Agent SDK (e2e/testdata/sdk/golden/plan_ask_question).
		{"options only", `,"answers":{"Which color should the button be?":"Blue","Which features do you want?":"Dark mode, Export"}}`,
			`Your questions have been answered: "Which color should the button be?"="Blue", "Which features do you want?"="Dark mode, Export". You can now continue with these answers in mind.`},
		{"one unanswered", `,"answers":{"Which color should the button be?":"Blue"}}`,
			`Your questions have been answered: "Which color should the button be?"="Blue". You can now continue with these answers in mind.`},
		{"several answers to a single choice", `,"answers":{"Which color should the button be?":"Blue, Red (Recommended)"}}`,
			`The user answered: "Which color should the button be?"="Blue, Red (Recommended)". Read the answers carefully — they may request clarification, changes, or that you not proceed — and follow what they actually say.`},
		{"notes", `,"answers":{"Which color should the button be?":"Blue"},"annotations":{"Which color should the button be?":{"notes":"a dark blue"},"Which features do you want?":{"notes":"none yet"}}}`,
			`The user answered: "Which color should the button be?"="Blue" notes: a dark blue, "Which features do you want?"=(no option selected) notes: none yet. Read the answers carefully — they may request clarification, changes, or that you not proceed — and follow what they actually say.`},
		{"none", `}`, "The user did not answer the questions."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := &tool.Env{Session: tool.NewSession(t.TempDir())}
			res, err := tool.Exec(context.Background(), Tool, env, json.RawMessage(questions+tt.answers), nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Content[0].Text; got != tt.want {
				t.Errorf("result =\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestQuestionsAreCheckedBeforeAnyoneIsAsked(t *testing.T) {
	for name, input := range map[string]string{
		"no question":     `{"questions":[]}`,
		"one option":      `{"questions":[{"question":"Q?","header":"H","multiSelect":false,"options":[{"label":"A","description":"a"}]}]}`,
		"same label":      `{"questions":[{"question":"Q?","header":"H","multiSelect":false,"options":[{"label":"A","description":"a"},{"label":"A","description":"b"}]}]}`,
		"missing options": `{"questions":[{"question":"Q?","header":"H","multiSelect":false}]}`,
	} {
		env := &tool.Env{Session: tool.NewSession(t.TempDir())}
		if _, err := tool.Exec(context.Background(), Tool, env, json.RawMessage(input), nil); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestTheCallIsAQuestionToTheUser(t *testing.T) {
	c, err := Tool.Parse(json.RawMessage(questions + "}"))
	if err != nil {
		t.Fatal(err)
	}
	if v := c.CheckPermissions(context.Background(), &tool.Env{}); v.Behavior != tool.Ask || v.Message != "Answer questions?" {
		t.Errorf("permission = %v %q, want ask", v.Behavior, v.Message)
	}
	if !Tool.RequiresUserInteraction() || !c.IsReadOnly() {
		t.Error("AskUserQuestion must require the user and be read-only")
	}
}

func TestAMultiSelectAnswerIsAListOfItsLabels(t *testing.T) {
	q := Question{Question: "Q?", MultiSelect: true, Options: []Option{{Label: "A"}, {Label: "B, C"}, {Label: `say "hi"`}}}
	tests := []struct {
		answer string
		want   bool
	}{
		{"A", true},
		{`A, "B, C"`, true},
		{`"say \"hi\"", A`, true},
		{"A, B, C", false},
		{"A, D", false},
		{"A, ", false},
		{`"B, C`, false},
	}
	for _, tt := range tests {
		if got := fromOptions(q, Output{Answers: map[string]string{"Q?": tt.answer}}); got != tt.want {
			t.Errorf("%q from the options = %v, want %v", tt.answer, got, tt.want)
		}
	}
}

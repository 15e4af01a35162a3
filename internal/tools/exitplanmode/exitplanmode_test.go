package exitplanmode

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/planmode"
	"github.com/mini-claude/mini-claude/internal/tool"
)

func TestSchemaIsClaudeCodes(t *testing.T) {
	var got map[string]any
	if err := json.Unmarshal(Tool.InputSchema(), &got); err != nil {
		t.Fatal(err)
	}
	props := got["properties"].(map[string]any)
	if len(props) != 1 || props["allowedPrompts"] == nil {
		t.Errorf("properties = %v, want allowedPrompts only", props)
	}
	if got["additionalProperties"] != true {
		t.Errorf("additionalProperties = %v, want true", got["additionalProperties"])
	}
	if _, err := Tool.Parse(json.RawMessage(`{"plan":"# old style","other":1}`)); err != nil {
		t.Errorf("an input with a plan (older Claude Code's schema) is refused: %v", err)
	}
}

func planned(t *testing.T, plan string) (*tool.Env, string) {
	t.Helper()
	s := tool.NewSession(t.TempDir())
	planmode.Attach(s, t.TempDir())
	planmode.Of(s).Prompt("plan", "plan it")
	path := planmode.Of(s).Path()
	if plan != "" {
		if err := os.WriteFile(path, []byte(plan), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return &tool.Env{Session: s, PermissionMode: "plan"}, path
}

func TestTheQuestionCarriesThePlanAndTheResultIsClaudeCodes(t *testing.T) {
	env, path := planned(t, "# Plan\n\n1. Create b.txt\n")
	c, err := Tool.Parse(json.RawMessage(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	asked, err := c.AskInput(context.Background(), env)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"plan":"# Plan\n\n1. Create b.txt\n","planFilePath":"` + path + `"}`; string(asked) != want {
		t.Errorf("asked about %s, want %s", asked, want)
	}
	res, err := c.Run(context.Background(), env, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := "User has approved your plan. You can now start coding. Start with updating your todo list if applicable\n\n" +
		"Your plan has been saved to: " + path + "\nYou can refer back to it if needed during implementation.\n\n" +
		// One blank line before the note, the plan's newline dropped, as in
		// e2e/testdata/sdk/golden/plan_exit_accept_edits/requests.jsonl.
		"## Approved Plan:\n# Plan\n\n1. Create b.txt\n\n<system-reminder>\n## Exited Plan Mode\n\n" +
		"You have exited plan mode. You can now make edits, run tools, and take actions. The plan file is located at " + path +
		" if you need to reference it.\n</system-reminder>"
	if got := res.Content[0].Text; got != want {
		t.Errorf("result =\n%q\nwant\n%q", got, want)
	}
	if next := res.Output.(tool.ModeSwitcher).NextMode(); next != "default" {
		t.Errorf("next mode = %q, want default", next)
	}
}

func TestAnEditedPlanIsSavedAndSaidToBeEdited(t *testing.T) {
	env, path := planned(t, "# Plan\n")
	env.PermissionMode = "acceptEdits" // the answer chose the mode already
	c, err := Tool.Parse(json.RawMessage(`{"plan":"# Better plan\n"}`))
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Run(context.Background(), env, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Content[0].Text, "## Approved Plan (edited by user):\n# Better plan\n") {
		t.Errorf("result = %q", res.Content[0].Text)
	}
	if data, _ := os.ReadFile(path); string(data) != "# Better plan\n" {
		t.Errorf("plan file = %q", data)
	}
	if next := res.Output.(tool.ModeSwitcher).NextMode(); next != "" {
		t.Errorf("next mode = %q, want the answer's", next)
	}
}

func TestOutsidePlanModeTheCallIsRefused(t *testing.T) {
	env := &tool.Env{Session: tool.NewSession(t.TempDir()), PermissionMode: "default"}
	_, err := tool.Exec(context.Background(), Tool, env, json.RawMessage(`{}`), nil)
	if err == nil || err.Error() != notInPlanMode {
		t.Errorf("err = %v, want %q", err, notInPlanMode)
	}
}

package skill

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/mini-claude/mini-claude/internal/commands"
	"github.com/mini-claude/mini-claude/internal/tool"
)

// The Skill tool's input schema is the one Claude Code 2.1.332 sends,
// recorded in e2e/testdata/commands/skill_tool.json.
func TestInputSchemaIsClaudeCodes(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "e2e", "testdata", "commands", "skill_tool.json"))
	if err != nil {
		t.Fatal(err)
	}
	var recorded struct {
		Name        string         `json:"name"`
		InputSchema map[string]any `json:"input_schema"`
	}
	if err := json.Unmarshal(data, &recorded); err != nil {
		t.Fatal(err)
	}
	var ours map[string]any
	if err := json.Unmarshal(Tool.InputSchema(), &ours); err != nil {
		t.Fatal(err)
	}
	delete(recorded.InputSchema, "$schema")
	delete(ours, "$schema")
	if Tool.Name() != recorded.Name || !reflect.DeepEqual(ours, recorded.InputSchema) {
		t.Errorf("schema of %s =\n%s\nClaude Code's of %s:\n%v", Tool.Name(), Tool.InputSchema(), recorded.Name, recorded.InputSchema)
	}
}

func TestACallReturnsClaudeCodesTextAndTheSkillToFollow(t *testing.T) {
	s := tool.NewSession(t.TempDir())
	Attach(s, commands.NewSet([]commands.Command{
		{Name: "pdf", Skill: true, Dir: "/s/pdf", Body: "Run it.\n", AllowedTools: []string{"Bash(python3:*)"}, UserInvocable: true},
	}))
	env := &tool.Env{Session: s}
	res, err := tool.Exec(context.Background(), Tool, env, json.RawMessage(`{"skill":"/pdf","args":"a.pdf"}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Content[0].Text; got != "Launching skill: pdf" {
		t.Errorf("result = %q", got)
	}
	if got, want := res.Follow[0].Text, "Base directory for this skill: /s/pdf\n\nRun it.\n\n\nARGUMENTS: a.pdf"; got != want {
		t.Errorf("follow = %q, want %q", got, want)
	}
	if !reflect.DeepEqual(res.Allow, []string{"Bash(python3:*)"}) {
		t.Errorf("allow = %q", res.Allow)
	}
	call, _ := Tool.Parse(json.RawMessage(`{"skill":"pdf"}`))
	if p := call.CheckPermissions(context.Background(), env); p.Behavior != tool.Ask {
		t.Errorf("a skill with allowed-tools: %v, want ask", p.Behavior)
	}
	if a := call.Accesses(context.Background(), env); a.Target != "pdf" {
		t.Errorf("target = %q", a.Target)
	}
}

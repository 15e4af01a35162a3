package todowrite

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/goldenfile"
	"github.com/mini-claude/mini-claude/internal/tool"
)

// call runs one TodoWrite call the way the executor does: parse, validate,
// check permissions, run.
func call(t *testing.T, env *tool.Env, raw string) (tool.Result, error) {
	t.Helper()
	c, err := Tool.Parse(json.RawMessage(raw))
	if err != nil {
		return tool.Result{}, err
	}
	if err := c.Validate(context.Background(), env); err != nil {
		return tool.Result{}, err
	}
	if p := c.CheckPermissions(context.Background(), env); p.Behavior != tool.Allow {
		t.Fatalf("permission %v, want allow", p.Behavior)
	}
	return c.Run(context.Background(), env, nil)
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	goldenfile.Check(t, path, got)
}

func newEnv(t *testing.T) *tool.Env {
	dir := t.TempDir()
	return &tool.Env{Cwd: dir, Session: tool.NewSession(dir)}
}

func resultText(res tool.Result) string {
	var parts []string
	for _, b := range res.Content {
		parts = append(parts, b.Text)
	}
	return strings.Join(parts, "\n---\n")
}

func TestResults(t *testing.T) {
	tests := []struct {
		name  string
		input string
	}{
		{"one_in_progress", `{"todos":[{"content":"Run the tests","status":"in_progress","activeForm":"Running the tests"},{"content":"Fix the bug","status":"pending","activeForm":"Fixing the bug"}]}`},
		{"none_in_progress", `{"todos":[{"content":"Run the tests","status":"pending","activeForm":"Running the tests"}]}`},
		{"two_in_progress", `{"todos":[{"content":"A","status":"in_progress","activeForm":"Doing A"},{"content":"B","status":"in_progress","activeForm":"Doing B"}]}`},
		{"all_completed", `{"todos":[{"content":"A","status":"completed","activeForm":"Doing A"}]}`},
		{"empty", `{"todos":[]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := call(t, newEnv(t), tt.input)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, tt.name, resultText(res))
		})
	}
}

func TestListKeepsTheLatestAndClearsWhenAllAreCompleted(t *testing.T) {
	env := newEnv(t)
	first := `{"todos":[{"content":"Write code","status":"in_progress","activeForm":"Writing code"}]}`
	second := `{"todos":[{"content":"Write code","status":"completed","activeForm":"Writing code"},{"content":"Test it","status":"in_progress","activeForm":"Testing it"}]}`
	if _, err := call(t, env, first); err != nil {
		t.Fatal(err)
	}
	res, err := call(t, env, second)
	if err != nil {
		t.Fatal(err)
	}
	out := res.Output.(Output)
	if len(out.OldTodos) != 1 || out.OldTodos[0].Status != InProgress || len(out.NewTodos) != 2 {
		t.Errorf("output %+v, want the first list as old and the second as new", out)
	}
	want := []Item{{"Write code", Completed, "Writing code"}, {"Test it", InProgress, "Testing it"}}
	if got := List(env.Session); !reflect.DeepEqual(got, want) {
		t.Errorf("List = %+v, want %+v", got, want)
	}
	if got := Format(List(env.Session)); got != "1. [completed] Write code\n2. [in_progress] Test it" {
		t.Errorf("Format = %q", got)
	}
	done := `{"todos":[{"content":"Write code","status":"completed","activeForm":"Writing code"},{"content":"Test it","status":"completed","activeForm":"Testing it"}]}`
	res, err = call(t, env, done)
	if err != nil {
		t.Fatal(err)
	}
	if got := List(env.Session); len(got) != 0 {
		t.Errorf("List after all completed = %+v, want empty", got)
	}
	if out := res.Output.(Output); len(out.NewTodos) != 2 || len(out.OldTodos) != 2 {
		t.Errorf("output %+v, want the completed list reported as new", out)
	}
}

func TestListIsPerSessionAndACopy(t *testing.T) {
	a, b := newEnv(t), newEnv(t)
	if _, err := call(t, a, `{"todos":[{"content":"A","status":"pending","activeForm":"Doing A"}]}`); err != nil {
		t.Fatal(err)
	}
	if got := List(b.Session); len(got) != 0 {
		t.Errorf("other session's list = %+v, want empty", got)
	}
	got := List(a.Session)
	got[0].Content = "changed"
	if List(a.Session)[0].Content != "A" {
		t.Error("changing the returned list changed the session's list")
	}
}

func TestRejectedInput(t *testing.T) {
	tests := []struct {
		name, input, want string
	}{
		{"empty content", `{"todos":[{"content":" ","status":"pending","activeForm":"Doing"}]}`, "todos[0] has an empty content"},
		{"empty active form", `{"todos":[{"content":"A","status":"pending","activeForm":""}]}`, "todos[0] has an empty activeForm"},
		{"bad status", `{"todos":[{"content":"A","status":"done","activeForm":"Doing A"}]}`, "status"},
		{"missing activeForm", `{"todos":[{"content":"A","status":"pending"}]}`, "activeForm"},
		{"missing todos", `{}`, "todos"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := call(t, newEnv(t), tt.input)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one mentioning %q", err, tt.want)
			}
		})
	}
}

func TestSchemaIsClaudeCodes(t *testing.T) {
	var want, got map[string]any
	data, err := os.ReadFile(filepath.Join("testdata", "claude_code_schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	delete(want, "$schema")
	if err := json.Unmarshal(Tool.InputSchema(), &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("schema\n got %s\nwant %s", Tool.InputSchema(), data)
	}
}

func TestStreamJSONOutputShape(t *testing.T) {
	res, err := call(t, newEnv(t), `{"todos":[{"content":"A","status":"in_progress","activeForm":"Doing A"}]}`)
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(res.Output)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "tool_use_result", string(data))
}

func TestTheSessionCarriesTheTodoListThroughACompaction(t *testing.T) {
	env := newEnv(t)
	if got := env.Session.Carried(nil); len(got) != 0 {
		t.Fatalf("before any TodoWrite the session carries %+v", got)
	}
	if _, err := call(t, env, `{"todos":[{"content":"Write it","status":"completed","activeForm":"Writing it"},{"content":"Test it","status":"in_progress","activeForm":"Testing it"}]}`); err != nil {
		t.Fatal(err)
	}
	got := env.Session.Carried(nil)
	if len(got) != 1 || got[0].Tag != "todo-list" || strings.Join(got[0].Lines, "\n") != Format(List(env.Session)) || len(got[0].Lines) != 2 {
		t.Errorf("carried %+v, want the todo list as Format gives it", got)
	}
}

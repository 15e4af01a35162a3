package session

import (
	"testing"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/llm"
)

func TestLastCallFindsTheLastCallThatDidNotFail(t *testing.T) {
	todo := func(id, item string) llm.ContentBlock {
		return use(id, "TodoWrite", `{"todos":[{"content":"`+item+`","status":"pending","activeForm":"x"}]}`)
	}
	tests := []struct {
		name    string
		msgs    []llm.Message
		compact bool
		want    string
	}{
		{"none", []llm.Message{user(llm.TextBlock("go")), assistant(use("b", "Bash", `{}`)), user(result("b", "ok", false))}, false, ""},
		{"the last of two",
			[]llm.Message{user(llm.TextBlock("go")), assistant(todo("t1", "one")), user(result("t1", "ok", false)), assistant(todo("t2", "two")), user(result("t2", "ok", false))},
			false, "t2"},
		{"a failed call is skipped",
			[]llm.Message{user(llm.TextBlock("go")), assistant(todo("t1", "one")), user(result("t1", "ok", false)), assistant(todo("t2", "")), user(result("t2", "bad", true))},
			false, "t1"},
		{"a call without its result counts",
			[]llm.Message{user(llm.TextBlock("go")), assistant(todo("t1", "one")), user(result("t1", "ok", false)), assistant(todo("t2", "two"))},
			false, "t2"},
		{"a call before a compaction counts",
			[]llm.Message{user(llm.TextBlock("go")), assistant(todo("t1", "one")), user(result("t1", "ok", false))},
			true, "t1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			project := setup(t)
			tr := conversation(t, Config{Project: project, ID: NewID()}, tt.msgs...)
			if tt.compact {
				tr.OnEvent(agent.Compacted{Message: llm.UserText("summary")})
			}
			tr.Close()
			loaded, err := Load(tr.Path())
			if err != nil {
				t.Fatal(err)
			}
			input, ok := loaded.LastCall("TodoWrite")
			want := ""
			for _, m := range tt.msgs {
				for _, b := range m.ToolUses() {
					if b.ID == tt.want {
						want = string(b.Input)
					}
				}
			}
			if ok != (want != "") || string(input) != want {
				t.Errorf("LastCall = %s, %v; want %s", input, ok, want)
			}
		})
	}
}

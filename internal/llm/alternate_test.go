package llm

import (
	"encoding/json"
	"testing"
)

func TestAlternateJoinsRunsOfOneRoleResultsFirst(t *testing.T) {
	use := func(id string) ContentBlock {
		return ContentBlock{Type: BlockToolUse, ID: id, Name: "Bash", Input: json.RawMessage(`{}`)}
	}
	result := func(id string) ContentBlock { return ToolResultBlock(id, []ContentBlock{TextBlock("ok " + id)}, false) }
	user := func(blocks ...ContentBlock) Message { return Message{Role: RoleUser, Content: blocks} }
	assistant := func(blocks ...ContentBlock) Message { return Message{Role: RoleAssistant, Content: blocks} }
	tests := []struct {
		name string
		in   []Message
		want []Message
	}{
		{"empty", nil, nil},
		{"alternating history unchanged",
			[]Message{user(TextBlock("go")), assistant(use("a")), user(result("a"))},
			[]Message{user(TextBlock("go")), assistant(use("a")), user(result("a"))}},
		{"interrupted results then a prompt join, results first",
			[]Message{user(TextBlock("go")), assistant(use("a"), use("b")), user(result("a"), result("b")), user(TextBlock("next"))},
			[]Message{user(TextBlock("go")), assistant(use("a"), use("b")), user(result("a"), result("b"), TextBlock("next"))}},
		{"a prompt before late results goes after them",
			[]Message{assistant(use("a")), user(TextBlock("note")), user(result("a"))},
			[]Message{assistant(use("a")), user(result("a"), TextBlock("note"))}},
		{"two prompts in a row join in order",
			[]Message{user(TextBlock("one")), user(TextBlock("two")), user(TextBlock("three"))},
			[]Message{user(TextBlock("one"), TextBlock("two"), TextBlock("three"))}},
		{"assistant messages in a row join in order",
			[]Message{user(TextBlock("go")), assistant(TextBlock("a")), assistant(use("x"))},
			[]Message{user(TextBlock("go")), assistant(TextBlock("a"), use("x"))}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before, _ := json.Marshal(tt.in)
			got, _ := json.Marshal(Alternate(tt.in))
			want, _ := json.Marshal(tt.want)
			if string(got) != string(want) {
				t.Errorf("Alternate =\n%s\nwant\n%s", got, want)
			}
			if after, _ := json.Marshal(tt.in); string(after) != string(before) {
				t.Errorf("Alternate modified its input:\n%s\nwas\n%s", after, before)
			}
		})
	}
}

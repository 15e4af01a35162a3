package todowrite

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/mini-claude/mini-claude/internal/tool"
)

func TestRestoreSetsTheListAsTheCallDid(t *testing.T) {
	open := []Item{{Content: "Run the tests", Status: InProgress, ActiveForm: "Running the tests"}, {Content: "Ship", Status: Pending, ActiveForm: "Shipping"}}
	done := []Item{{Content: "Ship", Status: Completed, ActiveForm: "Shipping"}}
	tests := []struct {
		name  string
		input string
		want  []Item
		err   bool
	}{
		{"open items", mustJSON(t, Input{Todos: open}), open, false},
		{"all completed is empty", mustJSON(t, Input{Todos: done}), nil, false},
		{"empty list", `{"todos":[]}`, nil, false},
		{"no call", "", nil, false},
		{"not an input", `[1,2]`, []Item{{Content: "kept", Status: Pending, ActiveForm: "keeping"}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := tool.NewSession(t.TempDir())
			Restore(s, json.RawMessage(mustJSON(t, Input{Todos: []Item{{Content: "kept", Status: Pending, ActiveForm: "keeping"}}})))
			var input json.RawMessage
			if tt.input != "" {
				input = json.RawMessage(tt.input)
			}
			err := Restore(s, input)
			if (err != nil) != tt.err {
				t.Fatalf("Restore: %v, want error %v", err, tt.err)
			}
			if got := List(s); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("List = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

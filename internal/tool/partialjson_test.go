package tool

import (
	"encoding/json"
	"testing"
)

func TestCompletePartialJSON(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{"command":"ls -`, `{"command":"ls -"}`},
		{`{"a":[1,2`, `{"a":[1,2]}`},
		{`{"a":{"b":1},"c"`, `{"a":{"b":1}}`},
		{`{"a":"x\`, `{"a":"x"}`},
		{`{"a":"x"}`, `{"a":"x"}`},
		{`{"a":`, `{}`},
		{`{`, `{}`},
	}
	for _, c := range cases {
		got := string(CompletePartialJSON(json.RawMessage(c.in)))
		if got != c.want {
			t.Errorf("CompletePartialJSON(%s) = %s, want %s", c.in, got, c.want)
		}
	}
}

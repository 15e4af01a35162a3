package hooks

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestCallbackHooksAnswerAsACommandsStdoutWould(t *testing.T) {
	tests := []struct {
		name  string
		fn    func(ctx context.Context, input []byte) ([]byte, error)
		check func(Outcome) bool
	}{
		{"a deny blocks the call", func(_ context.Context, input []byte) ([]byte, error) {
			if string(input) != `{"tool_name":"Bash"}` {
				return nil, errors.New("unexpected input " + string(input))
			}
			return []byte(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"Blocked by the SDK hook."}}`), nil
		}, func(o Outcome) bool {
			return o.Permission == "deny" && o.PermissionReason == "Blocked by the SDK hook."
		}},
		{"a failure only tells the user", func(context.Context, []byte) ([]byte, error) { return nil, errors.New("the program failed") },
			func(o Outcome) bool { return !o.Blocked() && len(o.Failures) == 1 && o.Permission == "" }},
		{"past its timeout it counts as timed out", func(ctx context.Context, _ []byte) ([]byte, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		}, func(o Outcome) bool { return len(o.Failures) == 1 && o.Failures[0].TimedOut }},
	}
	for _, tt := range tests {
		settings, _ := engine(t, PreToolUse, `true`)
		e := settings.With([]Hook{{Event: PreToolUse, Matcher: "Bash", Command: "sdk callback hook_0", Timeout: 200 * time.Millisecond, Callback: tt.fn}}, Options{})
		if n := len(e.Hooks()); n != 2 {
			t.Fatalf("%s: %d hooks, want the settings' and the callback", tt.name, n)
		}
		if o := e.Run(context.Background(), PreToolUse, "Bash", map[string]any{"tool_name": "Bash"}); !tt.check(o) {
			t.Errorf("%s: outcome %+v", tt.name, o)
		}
	}
}

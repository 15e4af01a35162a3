package hooks

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestParseReadsClaudeCodesFormat(t *testing.T) {
	raw := json.RawMessage(`{
		"PostToolUse": [{"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "gofmt -w .", "timeout": 5}]}],
		"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}, {"type": "prompt", "prompt": "x"}]}],
		"Stop": [{"hooks": [{"type": "command", "command": "make test"}]}],
		"OnFullMoon": [{"hooks": [{"type": "command", "command": "howl"}]}]}`)
	hooks, problems := Parse(raw, "/p/.claude/settings.json")
	var got []string
	for _, h := range hooks {
		got = append(got, h.Event+"|"+h.Matcher+"|"+h.Command+"|"+h.Timeout.String())
	}
	want := []string{"PreToolUse|Bash|./guard.sh|1m0s", "PostToolUse|Edit|Write|gofmt -w .|5s", "Stop||make test|1m0s"}
	if !slices.Equal(got, want) {
		t.Errorf("hooks = %v\nwant %v", got, want)
	}
	if len(problems) != 2 || !strings.Contains(problems[0].Error()+problems[1].Error(), `"OnFullMoon"`) ||
		!strings.Contains(problems[0].Error()+problems[1].Error(), `type "prompt"`) {
		t.Errorf("problems = %v, want the unknown event and the prompt hook", problems)
	}
	if _, problems := Parse(json.RawMessage(`["not", "an", "object"]`), "f"); len(problems) != 1 {
		t.Errorf("a malformed hooks value: %v", problems)
	}
}

func TestMatchersAsClaudeCodeReadsThem(t *testing.T) {
	tests := []struct {
		matcher string
		yes, no []string
	}{
		{"", []string{"Bash", "mcp__fs__read"}, nil},
		{"*", []string{"Bash", "Edit"}, nil},
		{"Bash", []string{"Bash"}, []string{"BashOutput", "bash"}},
		{"Edit|Write", []string{"Edit", "Write"}, []string{"MultiEdit", "Read"}},
		{"Notebook.*", []string{"NotebookEdit"}, []string{"Read"}},
		{"mcp__fs__.*", []string{"mcp__fs__read_file"}, []string{"mcp__db__query"}},
	}
	for _, tt := range tests {
		m, err := compileMatcher(tt.matcher)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range tt.yes {
			if !m(name) {
				t.Errorf("matcher %q does not take %s", tt.matcher, name)
			}
		}
		for _, name := range tt.no {
			if m(name) {
				t.Errorf("matcher %q takes %s", tt.matcher, name)
			}
		}
	}
	if _, err := compileMatcher("Bash("); err == nil {
		t.Error("an invalid regular expression was accepted")
	}
}

// engine returns an engine of the given hooks of one event, run in a temp project.
func engine(t *testing.T, event string, commands ...string) (*Engine, string) {
	t.Helper()
	dir := t.TempDir()
	var hooks []Hook
	for _, c := range commands {
		hooks = append(hooks, Hook{Event: event, Command: c, Timeout: 5 * time.Second})
	}
	return New(hooks, Options{ProjectDir: dir, Env: os.Environ()}), dir
}

func TestHooksReadTheirInputAndRunInTheProject(t *testing.T) {
	e, dir := engine(t, PreToolUse, `cat > input.json; echo "$CLAUDE_PROJECT_DIR $MINI_CLAUDE_PROJECT_DIR" > env.txt`)
	o := e.Run(context.Background(), PreToolUse, "Bash", map[string]any{"hook_event_name": "PreToolUse", "tool_name": "Bash"})
	if o.Blocked() || len(o.Failures) > 0 {
		t.Fatalf("outcome = %+v", o)
	}
	input, _ := os.ReadFile(filepath.Join(dir, "input.json"))
	env, _ := os.ReadFile(filepath.Join(dir, "env.txt"))
	if string(input) != `{"hook_event_name":"PreToolUse","tool_name":"Bash"}` || strings.TrimSpace(string(env)) != dir+" "+dir {
		t.Errorf("input %s, env %s", input, env)
	}
}

func TestExitCodesAndAnswers(t *testing.T) {
	tests := []struct {
		name    string
		event   string
		command string
		check   func(Outcome) bool
	}{
		{"exit 2 blocks with its command and stderr as written", PreToolUse, `echo "no rm here" >&2; exit 2`,
			func(o Outcome) bool {
				return len(o.Blocks) == 1 && o.Blocks[0].Text == "[echo \"no rm here\" >&2; exit 2]: no rm here\n"
			}},
		{"exit 1 only tells the user", PreToolUse, `echo oops >&2; exit 1`,
			func(o Outcome) bool {
				return !o.Blocked() && len(o.Failures) == 1 && strings.Contains(o.Failures[0].Describe(), "status 1: oops")
			}},
		{"JSON deny", PreToolUse, `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"migrations are frozen"}}'`,
			func(o Outcome) bool { return o.Permission == "deny" && o.PermissionReason == "migrations are frozen" }},
		{"updatedInput", PreToolUse, `echo '{"hookSpecificOutput":{"permissionDecision":"allow","updatedInput":{"command":"ls -la"}}}'`,
			func(o Outcome) bool {
				return o.Permission == "allow" && string(o.UpdatedInput) == `{"command":"ls -la"}`
			}},
		{"decision block with a reason", Stop, `echo '{"decision":"block","reason":"tests fail"}'`,
			func(o Outcome) bool { return len(o.Blocks) == 1 && o.Blocks[0].Text == "tests fail" }},
		{"continue false stops", PostToolUse, `echo '{"continue":false,"stopReason":"enough","systemMessage":"bye"}'`,
			func(o Outcome) bool {
				return o.Stop && o.StopReason == "enough" && slices.Equal(o.Messages, []string{"bye"})
			}},
		{"prompt context from plain stdout", UserPromptSubmit, `echo "ticket ABC-1: fix login"`,
			func(o Outcome) bool { return slices.Equal(o.Context, []Context{{Text: "ticket ABC-1: fix login"}}) }},
		{"plain stdout of a tool hook is no context", PostToolUse, `echo formatted`,
			func(o Outcome) bool { return len(o.Context) == 0 && !o.Blocked() }},
		{"additionalContext", PostToolUse, `echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"lint: 2 warnings"}}'`,
			func(o Outcome) bool {
				return slices.Equal(o.Context, []Context{{Text: "lint: 2 warnings", Additional: true}})
			}},
		{"JSON after exit 2 is not read", PreToolUse, `echo '{"hookSpecificOutput":{"permissionDecision":"allow"}}'; exit 2`,
			func(o Outcome) bool { return o.Blocked() && o.Permission == "" }},
	}
	for _, tt := range tests {
		e, _ := engine(t, tt.event, tt.command)
		if o := e.Run(context.Background(), tt.event, "Bash", map[string]any{}); !tt.check(o) {
			t.Errorf("%s: outcome %+v", tt.name, o)
		}
	}
}

func TestTheStrictestPermissionWins(t *testing.T) {
	answer := func(d string) string {
		return `echo '{"hookSpecificOutput":{"permissionDecision":"` + d + `","permissionDecisionReason":"` + d + ` said so"}}'`
	}
	e, _ := engine(t, PreToolUse, answer("allow"), answer("deny"), answer("ask"))
	if o := e.Run(context.Background(), PreToolUse, "Bash", map[string]any{}); o.Permission != "deny" || o.PermissionReason != "deny said so" {
		t.Errorf("permission = %q (%q), want deny", o.Permission, o.PermissionReason)
	}
}

func TestHooksRunInParallelAndIdenticalCommandsOnce(t *testing.T) {
	e, dir := engine(t, Stop, "sleep 0.5; echo a >> ran", "sleep 0.5; echo b >> ran", "sleep 0.5; echo a >> ran")
	started := time.Now()
	e.Run(context.Background(), Stop, "", map[string]any{})
	if elapsed := time.Since(started); elapsed > 900*time.Millisecond {
		t.Errorf("three 0.5 s hooks took %s: they did not run in parallel", elapsed)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "ran"))
	if lines := strings.Fields(string(data)); len(lines) != 2 {
		t.Errorf("ran = %q, want the identical command once and the other once", data)
	}
}

func TestAHookPastItsTimeoutIsKilledWithItsChildren(t *testing.T) {
	dir := t.TempDir()
	e := New([]Hook{{Event: PreToolUse, Command: "(sleep 30; touch late) & sleep 30", Timeout: 300 * time.Millisecond}}, Options{ProjectDir: dir, Env: os.Environ()})
	started := time.Now()
	o := e.Run(context.Background(), PreToolUse, "Bash", map[string]any{})
	if time.Since(started) > 3*time.Second || o.Blocked() || len(o.Failures) != 1 || !strings.Contains(o.Failures[0].Describe(), "did not answer within") {
		t.Fatalf("after %s: %+v", time.Since(started), o)
	}
	if !o.Results[0].TimedOut {
		t.Error("the result does not say it timed out")
	}
}

func TestOnlyMatchingHooksRun(t *testing.T) {
	dir := t.TempDir()
	e := New([]Hook{
		{Event: PostToolUse, Matcher: "Edit|Write", Command: "touch edit", Timeout: time.Second},
		{Event: PostToolUse, Matcher: "Bash", Command: "touch bash", Timeout: time.Second},
		{Event: PreToolUse, Command: "touch pre", Timeout: time.Second},
	}, Options{ProjectDir: dir, Env: os.Environ()})
	if !e.Has(PostToolUse, "Write") || e.Has(PostToolUse, "Read") || e.Has(Stop, "") {
		t.Error("Has answers wrongly")
	}
	e.Run(context.Background(), PostToolUse, "Write", map[string]any{})
	for name, want := range map[string]bool{"edit": true, "bash": false, "pre": false} {
		if _, err := os.Stat(filepath.Join(dir, name)); (err == nil) != want {
			t.Errorf("%s ran: %v, want %v", name, err == nil, want)
		}
	}
	var none *Engine
	if none.Has(Stop, "") || len(none.Run(context.Background(), Stop, "", nil).Results) != 0 {
		t.Error("a nil engine runs something")
	}
}

func TestEventsAboutNothingRunEveryMatcher(t *testing.T) {
	e := New([]Hook{
		{Event: Stop, Matcher: "Bash", Command: "true", Timeout: time.Second},
		{Event: UserPromptSubmit, Matcher: "nothing", Command: "true", Timeout: time.Second},
		{Event: PostToolBatch, Matcher: "Edit", Command: "true", Timeout: time.Second},
		{Event: SessionStart, Matcher: "resume", Command: "true", Timeout: time.Second},
	}, Options{ProjectDir: t.TempDir(), Env: os.Environ()})
	for _, event := range []string{Stop, UserPromptSubmit, PostToolBatch} {
		if !e.Has(event, "") {
			t.Errorf("%s: a hook with a matcher does not run; Claude Code runs every hook of an event without a target", event)
		}
	}
	if e.Has(SessionStart, "startup") {
		t.Error("SessionStart's matcher is not read")
	}
}

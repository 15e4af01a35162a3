package cli

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/config"
	"github.com/mini-claude/mini-claude/internal/leakcheck"
	"github.com/mini-claude/mini-claude/internal/mcp"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tui"
)

// uiSession builds the interactive session of a project whose settings hold
// hooks, with its UI running on a pipe; the UI is left at the end of the test.
func uiSession(t *testing.T, hooksJSON string) (*interactive, string) {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("HOME", t.TempDir())
	t.Setenv(config.HomeEnv, t.TempDir())
	writeFile(t, filepath.Join(dir, ".claude", "settings.json"), `{"hooks": `+hooksJSON+`}`)
	f, _, errOut := testFactory("", true)
	f.Getwd = func() (string, error) { return dir, nil }
	opts := &Options{Trust: true}
	s, err := newSession(f, opts, errOut)
	if err != nil {
		t.Fatal(err)
	}
	state := tool.NewSession(dir)
	t.Cleanup(state.Close)
	conv, err := openConversation(opts, s, state, errOut)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(conv.close)
	ctx, stopHooks := context.WithCancel(context.Background())
	in := &interactive{s: s, opts: opts, servers: mcp.Start(nil, mcp.Limits{}), state: state, ctx: ctx, stopHooks: stopHooks}
	keys, typed := io.Pipe()
	in.ui = tui.New(tui.Options{In: keys, Out: io.Discard})
	leave, quit := context.WithCancel(context.Background())
	ran := make(chan struct{})
	go func() {
		defer close(ran)
		_ = in.ui.Run(leave)
	}()
	t.Cleanup(func() {
		quit()
		<-ran
		typed.Close()
	})
	in.use(conv)
	return in, dir
}

// endHooksWithin calls endHooks and fails when it takes longer than d, or
// returns before the goroutines running hooks have.
func endHooksWithin(t *testing.T, in *interactive, d time.Duration) {
	t.Helper()
	start := time.Now()
	in.endHooks()
	if took := time.Since(start); took > d {
		t.Errorf("endHooks took %v, want under %v", took, d)
	}
	const cli = "github.com/mini-claude/mini-claude/internal/cli."
	leakcheck.NotRunning(t, cli+"(*interactive).startSession.func1", cli+"(*interactive).endSession.func1",
		cli+"(*interactive).notify.func1")
}

func TestEndHooksStopsTheBackgroundHooksOfTheUI(t *testing.T) {
	tests := []struct {
		name  string
		hooks string
		start func(*interactive)
	}{
		{"SessionStart", `{"SessionStart": [{"hooks": [{"type": "command", "command": "touch \"$CLAUDE_PROJECT_DIR\"/ran; sleep 30"}]}]}`,
			func(in *interactive) { in.startSession("startup") }},
		{"Notification", `{"Notification": [{"hooks": [{"type": "command", "command": "touch \"$CLAUDE_PROJECT_DIR\"/ran; sleep 30"}]}]}`,
			func(in *interactive) { in.notify("Claude is waiting for your input", "idle_prompt") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			leakcheck.Ended(t)
			in, dir := uiSession(t, tt.hooks)
			tt.start(in)
			for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
				if _, err := os.Stat(filepath.Join(dir, "ran")); err == nil {
					break
				}
				if time.Now().After(deadline) {
					t.Fatal("the hook did not start")
				}
			}
			endHooksWithin(t, in, 5*time.Second)
		})
	}
}

func TestEndHooksWaitsForTheSessionEndHooksOfAClear(t *testing.T) {
	leakcheck.Ended(t)
	in, dir := uiSession(t, `{"SessionEnd": [{"matcher": "clear", "hooks": [{"type": "command", "command": "sleep 0.3; echo ended > \"$CLAUDE_PROJECT_DIR\"/ended"}]}]}`)
	in.endSession("clear")
	endHooksWithin(t, in, 10*time.Second)
	if _, err := os.Stat(filepath.Join(dir, "ended")); err != nil {
		t.Fatalf("endHooks returned before the SessionEnd hook of /clear ended: %v", err)
	}
}

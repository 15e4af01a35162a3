package tui

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mini-claude/mini-claude/internal/credentials"
	"github.com/mini-claude/mini-claude/internal/reaper"
)

// shellTimeout bounds a "!command" the user runs from the input.
const shellTimeout = 2 * time.Minute

// shellOutputDelay is how long a "!command" that has ended may keep writing
// through processes it left running.
const shellOutputDelay = 500 * time.Millisecond

// shellDoneMsg carries the output of a "!command".
type shellDoneMsg struct {
	command string
	output  string
	failed  bool
}

// shell runs a "!command" directly, in the session's directory, outside the
// agent and its permissions: the user typed it. Like the agent's commands, it
// gets only the credentials the user's settings pass. Its output is shown; the
// model does not see it. Esc stops it.
func (m *model) shell(command string) tea.Cmd {
	if command == "" {
		m.info("Type a shell command after !, such as !git status.")
		return nil
	}
	if m.shellCancel != nil {
		m.info("A shell command is running: wait for it, or press Esc to stop it.")
		return nil
	}
	dir, env := m.opts.Cwd, credentials.ChildEnv(os.Environ(), m.opts.PassEnv)
	ctx, cancel := context.WithTimeout(context.Background(), shellTimeout)
	m.shellCancel = cancel
	return m.work.cmd(func() tea.Msg {
		defer cancel()
		var out bytes.Buffer
		bash, err := exec.LookPath("bash")
		var status syscall.WaitStatus
		if err == nil {
			cmd := reaper.Command{Path: bash, Args: []string{"bash", "-c", command}, Env: env, Dir: dir,
				Stdout: &out, Stderr: &out, WaitDelay: shellOutputDelay}
			status, err = cmd.Run(ctx)
		}
		if err == nil && status != 0 {
			err = errors.New(reaper.Describe(status))
		}
		text := strings.TrimRight(out.String(), "\n")
		switch {
		case errors.Is(ctx.Err(), context.Canceled):
			err = errors.New("stopped with Esc")
		case errors.Is(ctx.Err(), context.DeadlineExceeded):
			err = fmt.Errorf("stopped after %s", shellTimeout)
		}
		if err != nil {
			if text != "" {
				text += "\n"
			}
			text += err.Error()
		}
		return shellDoneMsg{command: command, output: text, failed: err != nil}
	})
}

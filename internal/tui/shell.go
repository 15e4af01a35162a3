package tui

import (
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
)

// shellTimeout bounds a "!command" the user runs from the input.
const shellTimeout = 2 * time.Minute

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
		cmd := exec.CommandContext(ctx, "bash", "-c", command)
		cmd.Dir, cmd.Env = dir, env
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
		out, err := cmd.CombinedOutput()
		text := strings.TrimRight(string(out), "\n")
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

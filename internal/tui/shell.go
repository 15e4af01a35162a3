package tui

import (
	"context"
	"os/exec"
	"strings"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"
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
// agent and its permissions: the user typed it. Its output is shown; the
// model does not see it.
func (m *model) shell(command string) tea.Cmd {
	if command == "" {
		m.info("Type a shell command after !, such as !git status.")
		return nil
	}
	dir := m.opts.Cwd
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), shellTimeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, "bash", "-c", command)
		cmd.Dir = dir
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
		out, err := cmd.CombinedOutput()
		text := strings.TrimRight(string(out), "\n")
		if err != nil {
			if text != "" {
				text += "\n"
			}
			text += err.Error()
		}
		return shellDoneMsg{command: command, output: text, failed: err != nil}
	}
}

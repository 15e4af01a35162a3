package shell

import (
	"slices"
	"strings"
)

// TermEnv names the variable that chooses the TERM commands see. Their output
// is a pipe, never a terminal, so TERM is "dumb" by default; set
// MINI_CLAUDE_BASH_TERM=xterm-256color for a tool that refuses to run on a dumb
// terminal. A command can also set TERM itself (TERM=xterm tput cols).
const TermEnv = "MINI_CLAUDE_BASH_TERM"

// NonInteractive are the settings every command gets, replacing the user's
// values, so that nothing waits for an answer nobody can give: editors accept
// the file as it is (git commit without -m aborts on the empty message, git
// rebase -i runs its default plan), pagers print, git never prompts for
// credentials and ssh fails instead of asking. CI and everything else are left
// as the user has them.
var NonInteractive = []string{
	"GIT_EDITOR=true",
	"GIT_SEQUENCE_EDITOR=true",
	"EDITOR=true",
	"VISUAL=true",
	"PAGER=cat",
	"GIT_PAGER=cat",
	"MANPAGER=cat",
	"SYSTEMD_PAGER=cat",
	"GIT_TERMINAL_PROMPT=0",
	"GCM_INTERACTIVE=never",
	"SSH_ASKPASS_REQUIRE=never",
}

// batchSSH makes git's ssh fail on a password or host-key question; it is set
// only when the user has not chosen git's ssh command.
const batchSSH = "GIT_SSH_COMMAND=ssh -o BatchMode=yes"

func nonInteractive(l *launch) error {
	l.env = Environment(l.env)
	return nil
}

// Environment returns env with the non-interactive settings applied: the
// NonInteractive values, TERM from MINI_CLAUDE_BASH_TERM or "dumb", and
// batch-mode ssh for git unless GIT_SSH or GIT_SSH_COMMAND is set.
func Environment(env []string) []string {
	term := "TERM=dumb"
	if v, ok := lookup(env, TermEnv); ok && v != "" {
		term = "TERM=" + v
	}
	set := append(slices.Clone(NonInteractive), term)
	_, hasSSH := lookup(env, "GIT_SSH")
	_, hasSSHCommand := lookup(env, "GIT_SSH_COMMAND")
	if !hasSSH && !hasSSHCommand {
		set = append(set, batchSSH)
	}
	out := make([]string, 0, len(env)+len(set))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if !slices.ContainsFunc(set, func(s string) bool { return strings.HasPrefix(s, name+"=") }) {
			out = append(out, kv)
		}
	}
	return append(out, set...)
}

func lookup(env []string, name string) (string, bool) {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], name+"="); ok {
			return v, true
		}
	}
	return "", false
}

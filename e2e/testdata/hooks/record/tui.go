package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// tuiScript is an interactive session of claude in tmux, step by step.
type tuiScript struct {
	steps []tuiStep
	// resume opens the session of the scenario's first run (--resume),
	// after the scenario's runs.
	resume bool
}

// tuiStep does one of: wait for text on the screen, wait for text in the
// hook log, send keys (tmux send-keys arguments).
type tuiStep struct {
	waitScreen string
	waitLog    string // in what the hooks logged since the session opened
	keys       []string
	timeout    time.Duration // default 30 s
}

// runTUI runs claude in a tmux server of its own and plays the script;
// session, when set, is the session it resumes.
func runTUI(claude string, s *scratch, url string, script *tuiScript, session string) (*runResult, error) {
	socket := fmt.Sprintf("hookref-%d", os.Getpid())
	tmux := func(args ...string) ([]byte, error) {
		return exec.Command("tmux", append([]string{"-L", socket}, args...)...).CombinedOutput()
	}
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + s.home, "TERM=xterm-256color", "IS_SANDBOX=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_TELEMETRY=1", "DISABLE_AUTOUPDATER=1",
		"ANTHROPIC_BASE_URL=" + url, "ANTHROPIC_API_KEY=test"}
	args := []string{claude, "--model", model}
	if session != "" {
		args = append(args, "--resume", session)
	}
	logged, _ := os.ReadFile(s.log)
	start := len(logged)
	command := "env -i"
	for _, e := range append(env, args...) {
		command += " " + shq(e)
	}
	if out, err := tmux("new-session", "-d", "-s", "claude", "-x", "150", "-y", "40", "-c", s.proj, command); err != nil {
		return nil, fmt.Errorf("tmux new-session: %v: %s", err, out)
	}
	defer tmux("kill-server")
	screen := func() string {
		out, _ := tmux("capture-pane", "-p", "-t", "claude")
		return string(out)
	}
	for i, st := range script.steps {
		timeout := st.timeout
		if timeout == 0 {
			timeout = 30 * time.Second
		}
		deadline := time.Now().Add(timeout)
		switch {
		case st.keys != nil:
			if out, err := tmux(append([]string{"send-keys", "-t", "claude"}, st.keys...)...); err != nil {
				return nil, fmt.Errorf("tmux send-keys: %v: %s", err, out)
			}
			time.Sleep(500 * time.Millisecond)
		default:
			for {
				var ok bool
				if st.waitScreen != "" {
					ok = strings.Contains(screen(), st.waitScreen)
				} else {
					data, _ := os.ReadFile(s.log)
					ok = bytes.Contains(data[min(start, len(data)):], []byte(st.waitLog))
				}
				if ok {
					break
				}
				if time.Now().After(deadline) {
					return nil, fmt.Errorf("tui step %d: waited %s for %q%q; screen:\n%s", i+1, timeout, st.waitScreen, st.waitLog, screen())
				}
				time.Sleep(200 * time.Millisecond)
			}
		}
	}
	return &runResult{spec: runSpec{label: "tui"}, args: args[1:], stdout: []byte(screen())}, nil
}

// Package recorder holds what the recorders of golden files share when they
// ask the real Claude Code (e2e/testdata/*/record,
// internal/agent/testdata/claude-code/record): finding its executable and
// checking its version, their common flags, a scratch project and HOME whose
// .claude.json marks onboarding done and the project trusted, the
// environment that points it at the scripted model server of
// internal/llm/llmtest, and one run of it.
package recorder

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

const (
	// Version is the Claude Code the golden files are recorded from.
	Version = "2.1.332"
	// Model is the model the recorders ask for.
	Model = "claude-sonnet-4-5-20250929"
	// APIKey is the API key of the runs, approved in .claude.json.
	APIKey = "test"
)

// DefaultClaude is where Claude Code is installed for the recorders:
// ~/.cache/mini-claude-ref/node_modules/.bin/claude ("" without a home).
func DefaultClaude() string {
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".cache", "mini-claude-ref", "node_modules", ".bin", "claude")
}

// Check returns claude, or DefaultClaude when claude is "", once its
// --version says it is Version.
func Check(claude string) (string, error) {
	if claude == "" {
		claude = DefaultClaude()
	}
	out, err := exec.Command(claude, "--version").Output()
	if err != nil {
		return "", fmt.Errorf("%s --version (install it with npm install --prefix ~/.cache/mini-claude-ref @anthropic-ai/claude-code@%s): %w", claude, Version, err)
	}
	if v := strings.TrimSpace(string(out)); v != Version+" (Claude Code)" {
		return "", fmt.Errorf("%s is %q, want %s", claude, v, Version)
	}
	return claude, nil
}

// Flags are the flags every recorder takes: -claude, -only and -keep.
type Flags struct {
	// Claude is Claude Code's executable ("" for DefaultClaude).
	Claude string
	// Keep says to keep the scratch folders.
	Keep bool
	only map[string]bool
}

// Register defines the flags on fs.
func (f *Flags) Register(fs *flag.FlagSet) {
	fs.StringVar(&f.Claude, "claude", "", "Claude Code's executable (default: "+Version+" in ~/.cache/mini-claude-ref)")
	fs.BoolVar(&f.Keep, "keep", false, "keep the scratch folders (their paths are printed)")
	fs.Func("only", "record only these scenarios (comma-separated names)", func(s string) error {
		for _, n := range strings.Split(s, ",") {
			if n != "" {
				if f.only == nil {
					f.only = map[string]bool{}
				}
				f.only[n] = true
			}
		}
		return nil
	})
}

// Wants reports whether the scenario name is to be recorded: -only names
// it, or -only is not given.
func (f *Flags) Wants(name string) bool { return f.only == nil || f.only[name] }

// Scratch is one scenario's scratch folder Dir, holding the project Proj
// (where claude runs) and its HOME Home.
type Scratch struct {
	Dir, Proj, Home string
	keep            bool
}

// NewScratch makes a scratch folder named after prefix with its proj and
// home, printing its path when keep says to keep it.
func NewScratch(prefix, scenario string, keep bool) (*Scratch, error) {
	dir, err := os.MkdirTemp("", prefix)
	if err != nil {
		return nil, fmt.Errorf("scratch folder: %w", err)
	}
	dir, _ = filepath.EvalSymlinks(dir)
	s := &Scratch{Dir: dir, Proj: filepath.Join(dir, "proj"), Home: filepath.Join(dir, "home"), keep: keep}
	if keep {
		fmt.Fprintf(os.Stderr, "record: %s: scratch %s\n", scenario, dir)
	}
	for _, d := range []string{s.Proj, s.Home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			s.Remove()
			return nil, fmt.Errorf("scratch folder: %w", err)
		}
	}
	return s, nil
}

// Remove removes the scratch folder, unless it is to be kept.
func (s *Scratch) Remove() {
	if !s.keep {
		os.RemoveAll(s.Dir)
	}
}

// WriteState writes home/.claude.json as after a first interactive run:
// onboarding done, APIKey approved, and the folders trusted named (none: no
// project trusted).
func WriteState(home string, trusted ...string) error {
	state := map[string]any{"hasCompletedOnboarding": true,
		"customApiKeyResponses": map[string]any{"approved": []string{APIKey}, "rejected": []string{}}}
	if len(trusted) > 0 {
		projects := map[string]any{}
		for _, p := range trusted {
			projects[p] = map[string]any{"hasTrustDialogAccepted": true}
		}
		state["projects"] = projects
	}
	data, err := json.Marshal(state)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(home, ".claude.json"), data, 0o644); err != nil {
		return fmt.Errorf("write .claude.json: %w", err)
	}
	return nil
}

// Env is the environment of claude with HOME home and the model server at
// url: PATH kept, a dumb terminal, no traffic but the model's, APIKey. An
// entry of extra replaces the one of the same name, or is added.
func Env(home, url string, extra ...string) []string {
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "TERM=dumb", "IS_SANDBOX=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_TELEMETRY=1", "DISABLE_AUTOUPDATER=1",
		"ANTHROPIC_BASE_URL=" + url, "ANTHROPIC_API_KEY=" + APIKey}
	for _, e := range extra {
		name, _, _ := strings.Cut(e, "=")
		replaced := false
		for i, have := range env {
			if strings.HasPrefix(have, name+"=") {
				env[i], replaced = e, true
			}
		}
		if !replaced {
			env = append(env, e)
		}
	}
	return env
}

// Command is one run of claude (or of a program that starts it).
type Command struct {
	Path string
	Args []string
	Dir  string
	Env  []string
	// Timeout bounds the run; 0 is 3 minutes.
	Timeout time.Duration
}

// Output is what a run printed and its exit code.
type Output struct {
	Stdout, Stderr []byte
	ExitCode       int
}

// Run runs the command in a process group of its own, killed whole when
// ctx ends or the timeout passes. An exit code other than 0 is not an
// error; not starting, or not finishing in time, is (Output then holds
// what it printed).
func (c Command) Run(ctx context.Context) (Output, error) {
	timeout := c.Timeout
	if timeout == 0 {
		timeout = 3 * time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.Path, c.Args...)
	cmd.Dir, cmd.Env = c.Dir, c.Env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	out := Output{Stdout: stdout.Bytes(), Stderr: stderr.Bytes()}
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return out, fmt.Errorf("%s did not finish in %s", filepath.Base(c.Path), timeout)
	case errors.As(err, &exit):
		out.ExitCode = exit.ExitCode()
	case err != nil:
		return out, fmt.Errorf("run %s: %w", filepath.Base(c.Path), err)
	}
	return out, nil
}

// ReportViolations prints what the model server found wrong in the
// requests of the scenario.
func ReportViolations(scenario string, srv *llmtest.Server) {
	for _, v := range srv.Violations() {
		fmt.Fprintf(os.Stderr, "record: %s: server: %s\n", scenario, v)
	}
}

// LastToolResult is the first tool_result of the request's last message:
// its text blocks joined, and its is_error; ok is false when there is none.
func LastToolResult(req llmtest.Request) (text string, isError, ok bool) {
	if len(req.Messages) == 0 {
		return "", false, false
	}
	for _, b := range req.Messages[len(req.Messages)-1].Content {
		if b.Type != llm.BlockToolResult {
			continue
		}
		var parts []string
		for _, c := range b.Content {
			parts = append(parts, c.Text)
		}
		return strings.Join(parts, ""), b.IsError, true
	}
	return "", false, false
}

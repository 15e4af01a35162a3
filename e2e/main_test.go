// Package e2e runs the built mini-claude binary as a user would, against the
// scripted model server, and checks its output, exit codes and what it sent
// back to the model.
package e2e

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// binary is the mini-claude binary built for these tests, with the test tools
// (Sleep, Fail, Panic, Touch) registered through the e2etest build tag.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "mini-claude-e2e")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "mini-claude")
	build := exec.Command("go", "build", "-tags", "e2etest", "-o", binary, "../cmd/mini-claude")
	build.Stdout, build.Stderr = os.Stdout, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "build mini-claude:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// run is one invocation of the binary.
type run struct {
	t     *testing.T
	srv   *llmtest.Server
	dir   string
	env   []string
	stdin string
	// provider, when set, is passed as --provider to every invocation.
	provider string
}

// outcome is what an invocation left behind.
type outcome struct {
	stdout, stderr string
	code           int
}

func newRun(t *testing.T) *run {
	t.Helper()
	srv := llmtest.New(t)
	home := t.TempDir()
	return &run{t: t, srv: srv, dir: t.TempDir(), env: []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + home,
		"MINI_CLAUDE_HOME=" + filepath.Join(home, ".mini-claude"),
		"ANTHROPIC_API_KEY=test-key",
		"ANTHROPIC_BASE_URL=" + srv.URL,
		// The tests may run as root; bypassPermissions needs this there, as in Claude Code.
		"IS_SANDBOX=1",
	}}
}

// providers are the model APIs the scenarios that concern the model run against.
var providers = []string{"anthropic", "openai"}

// newRunFor is newRun talking to the scripted server through provider's API:
// for openai, chat completions with OPENAI_* set and the Anthropic variables unset.
func newRunFor(t *testing.T, provider string) *run {
	t.Helper()
	r := newRun(t)
	if provider == "openai" {
		r.setenv("ANTHROPIC_API_KEY=")
		r.setenv("ANTHROPIC_BASE_URL=")
		r.setenv("OPENAI_API_KEY=test-key")
		r.setenv("OPENAI_BASE_URL=" + r.srv.URL + "/v1")
		r.provider = provider
	}
	return r
}

// apiPath is the path the run's requests must arrive at.
func (r *run) apiPath() string {
	if r.provider == "openai" {
		return "/v1/chat/completions"
	}
	return "/v1/messages"
}

// flagsErrors says whether the API marks failed tool results (is_error);
// chat completions has no such flag, its tool messages only say it in words.
func (r *run) flagsErrors() bool { return r.provider != "openai" }

func (r *run) exec(args ...string) outcome {
	r.t.Helper()
	if r.provider != "" {
		args = append([]string{"--provider", r.provider}, args...)
	}
	cmd := exec.Command(binary, args...)
	cmd.Dir, cmd.Env = r.dir, r.env
	cmd.Stdin = strings.NewReader(r.stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		r.t.Fatal(err)
	}
	return outcome{stdout: stdout.String(), stderr: stderr.String(), code: code}
}

func (r *run) setenv(kv string) {
	name := kv[:strings.IndexByte(kv, '=')+1]
	for i, e := range r.env {
		if strings.HasPrefix(e, name) {
			r.env = append(r.env[:i], r.env[i+1:]...)
			break
		}
	}
	r.env = append(r.env, kv)
}

// trust trusts the run's folder through the binary, as a user would with
// `mini-claude trust`, so that what its files define takes effect; approve
// also approves its project MCP servers.
func (r *run) trust(approve bool) {
	r.t.Helper()
	commands := [][]string{{"trust"}}
	if approve {
		commands = append(commands, []string{"mcp", "approve", "--all"})
	}
	for _, args := range commands {
		cmd := exec.Command(binary, args...)
		cmd.Dir, cmd.Env = r.dir, r.env
		if out, err := cmd.CombinedOutput(); err != nil {
			r.t.Fatalf("mini-claude %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}

// userSettings writes the user's own settings file, which needs no trust.
func (r *run) userSettings(content string) {
	r.t.Helper()
	for _, kv := range r.env {
		if home, ok := strings.CutPrefix(kv, "MINI_CLAUDE_HOME="); ok {
			writeSettings(r.t, home, "settings.json", content)
			return
		}
	}
	r.t.Fatal("the run has no MINI_CLAUDE_HOME")
}

package e2e

import (
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
	"github.com/mini-claude/mini-claude/internal/localmodel"
)

// The first run without a key: the UI opens on a setup screen rather than
// failing.

// keylessRun is a run with no key in its environment, whose setup screen
// looks for local model servers on ports only: nothing, or the given ones.
func keylessRun(t *testing.T, ports ...string) *run {
	t.Helper()
	r := newRun(t)
	r.setenv("ANTHROPIC_API_KEY=")
	if len(ports) == 0 {
		ports = []string{strconv.Itoa(closedPort(t))}
	}
	r.setenv(localmodel.PortsEnv + "=" + strings.Join(ports, ","))
	return r
}

// closedPort returns a loopback port nothing listens on.
func closedPort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

func TestTUISetupSavesAPastedKeyForThisAndLaterRuns(t *testing.T) {
	const key = "sk-ant-setup-e2e-0123"
	r := keylessRun(t)
	r.srv.Push(text("Hello with the saved key."), text("Headless with the saved key."))
	s := launchScreen(t, r)
	s.waitFor("Welcome to mini-claude", "No local model server answered", "Paste an Anthropic API key", "Quit")
	s.keys("Enter")
	s.waitFor("Paste your Anthropic API key")
	s.run("send-keys", "-t", "0", "-l", key)
	if shot := s.waitFor("•••"); strings.Contains(shot, key) {
		t.Errorf("the key shows on the screen:\n%s", shot)
	}
	s.keys("Enter")
	s.waitFor("shift+tab", "Your Anthropic API key is saved in")
	s.typeLine("hello")
	s.waitFor("Hello with the saved key.")
	if got := r.srv.Requests()[0].Header.Get("x-api-key"); got != key {
		t.Errorf("the request carried x-api-key %q, want the pasted key", got)
	}
	file := filepath.Join(r.home(), "credentials.json")
	info, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("%s has mode %o, want 0600", file, info.Mode().Perm())
	}
	if data, _ := os.ReadFile(file); !strings.Contains(string(data), key) {
		t.Errorf("the credentials file holds %q", data)
	}
	filepath.WalkDir(r.dir, func(path string, d os.DirEntry, err error) error {
		if data, _ := os.ReadFile(path); err == nil && !d.IsDir() && strings.Contains(string(data), key) {
			t.Errorf("the key was written into the project: %s", path)
		}
		return nil
	})
	out := r.exec("-p", "again")
	if out.code != 0 || out.stdout != "Headless with the saved key.\n" {
		t.Fatalf("-p after the setup: exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	if got := r.srv.Requests()[1].Header.Get("x-api-key"); got != key {
		t.Errorf("-p carried x-api-key %q, want the saved key", got)
	}
}

func TestTUISetupUsesALocalServerFoundOnItsPort(t *testing.T) {
	local := llmtest.New(t)
	local.SetModels("qwen3-coder", "llama3")
	u, _ := url.Parse(local.URL)
	r := keylessRun(t, strconv.Itoa(closedPort(t)), u.Port())
	local.Push(text("Hello from the local model."))
	s := launchScreen(t, r)
	base := "http://127.0.0.1:" + u.Port() + "/v1"
	s.waitFor("A model server runs on this machine", "1. Use local at "+base+" · qwen3-coder", "2. Use local at "+base+" · llama3", "Paste an Anthropic API key")
	s.keys("Enter")
	s.waitFor("shift+tab", "Using qwen3-coder at "+base+" for this session", "OPENAI_BASE_URL="+base)
	s.typeLine("hello")
	shot := s.waitFor("Hello from the local model.")
	if !strings.Contains(shot, "qwen3-coder") {
		t.Errorf("the status line does not name the local model:\n%s", shot)
	}
	req := local.Requests()[0]
	if req.Path != "/v1/chat/completions" || req.Model != "qwen3-coder" || req.Header.Get("Authorization") != "" {
		t.Errorf("request %s for %q with authorization %q", req.Path, req.Model, req.Header.Get("Authorization"))
	}
	if n := len(r.srv.Requests()); n != 0 {
		t.Errorf("%d requests went to the Anthropic API", n)
	}
	if _, err := os.Stat(filepath.Join(r.home(), "credentials.json")); err == nil {
		t.Error("choosing the local server wrote a credentials file")
	}
}

func TestTUISetupQuitLeavesWithTheMissingKeyError(t *testing.T) {
	r := keylessRun(t)
	s := launchScreen(t, r)
	s.waitFor("Paste an Anthropic API key")
	s.keys("2")
	if !s.exited() {
		t.Fatalf("Quit did not leave:\n%s", s.capture())
	}
	if stderr, _ := os.ReadFile(s.errLog); !strings.Contains(string(stderr), "ANTHROPIC_API_KEY") {
		t.Errorf("stderr %q does not say which key is missing", stderr)
	}
}

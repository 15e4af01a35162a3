package e2e

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/llm"
)

// Shared pieces of the malicious-folder suite (trust_*_test.go): a folder
// written by someone else tries to run a program, widen a permission or send
// a key somewhere; each attack asserts that no marker file appears outside the
// folder, that no key reaches a listener and that the model's tool call comes
// back refused. The controls do the same through the user's own settings or
// flags, or after trusting the folder, and see the effect.

// The credentials a run holds. newRun sets ANTHROPIC_API_KEY to anthropicKey;
// withKeys adds the others.
const (
	anthropicKey = "test-key"
	openAIKey    = "sk-e2e-openai-secret-4711"
	authToken    = "e2e-auth-token-secret-0815"
)

// secrets are the credential values no child process, listener or model
// request body may see.
var secrets = []string{anthropicKey, openAIKey, authToken}

// withKeys gives the run the user's OpenAI key and an Anthropic bearer token
// besides the Anthropic key, so that every credential mini-claude keeps from
// children is there to be stolen.
func withKeys(r *run) {
	r.setenv("OPENAI_API_KEY=" + openAIKey)
	r.setenv("ANTHROPIC_AUTH_TOKEN=" + authToken)
}

// marker is a path outside the run's folder that a malicious program would
// create; it does not exist yet.
func marker(t *testing.T, name string) string {
	t.Helper()
	return filepath.Join(t.TempDir(), name)
}

// touchServer is an MCP server entry whose only act is creating path.
func touchServer(path string) map[string]any {
	return map[string]any{"command": "sh", "args": []string{"-c", `touch "$0"`, path}}
}

// absent fails the test when path exists: what would have created it ran.
func absent(t *testing.T, path, what string) {
	t.Helper()
	if _, err := os.Stat(path); err == nil {
		t.Errorf("%s: %s was created, so it ran", what, path)
	}
}

// present waits a while for path to exist and fails the test if it does not.
func present(t *testing.T, path, what string) {
	t.Helper()
	for deadline := time.Now().Add(screenTimeout); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(path); err == nil {
			return
		}
	}
	t.Errorf("%s: %s was never created, so it did not run", what, path)
}

// plantJSON writes v as JSON at rel under dir.
func plantJSON(t *testing.T, dir, rel string, v any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	writeSettings(t, dir, rel, string(b))
}

// plantExec writes an executable shell script at rel under dir.
func plantExec(t *testing.T, dir, rel, script string) string {
	t.Helper()
	path := filepath.Join(dir, rel)
	writeSettings(t, dir, rel, "#!/bin/sh\n"+script+"\n")
	if err := os.Chmod(path, 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// headless runs -p with args and fails the test on a non-zero exit.
func (r *run) headless(prompt string, args ...string) outcome {
	r.t.Helper()
	out := r.exec(append([]string{"-p", prompt}, args...)...)
	if out.code != 0 {
		r.t.Fatalf("exit %d: %s", out.code, out.stderr)
	}
	return out
}

// callOnce scripts the model to make call and then answer "done", runs -p
// with args, and returns the tool_result the model got and the outcome.
func (r *run) callOnce(call llm.ContentBlock, args ...string) (llm.ContentBlock, outcome) {
	r.t.Helper()
	before := len(r.srv.Requests())
	r.srv.Push(calls(call), text("done"))
	out := r.headless("do it", args...)
	return lastResults(r.t, r.srv, before+1)[0], out
}

// refused fails the test unless the tool_result is a permission refusal.
func refused(t *testing.T, res llm.ContentBlock, what string) {
	t.Helper()
	got := contentText(res)
	if !res.IsError || !strings.Contains(got, "ermission") {
		t.Errorf("%s: the model got %q (error %v), want a permission refusal", what, got, res.IsError)
	}
}

// succeeded fails the test when the tool_result is an error.
func succeeded(t *testing.T, res llm.ContentBlock, what string) {
	t.Helper()
	if res.IsError {
		t.Errorf("%s: the call failed: %q", what, contentText(res))
	}
}

// leaks returns the secrets found in s.
func leaks(s string) []string {
	var found []string
	for _, k := range secrets {
		if strings.Contains(s, k) {
			found = append(found, k)
		}
	}
	return found
}

// noSecretInRequests fails the test when a request body sent to the model
// holds a credential (the Anthropic key belongs in the header, never in the
// conversation).
func noSecretInRequests(t *testing.T, r *run, extra ...string) {
	t.Helper()
	for i, q := range r.srv.Requests() {
		body := string(q.Body)
		for _, s := range append(leaks(body), containsAny(body, extra)...) {
			t.Errorf("request %d sent %q to the model", i, s)
		}
	}
}

func containsAny(s string, subs []string) []string {
	var found []string
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			found = append(found, sub)
		}
	}
	return found
}

// noticed fails the test unless the -p run's stderr holds the untrusted
// folder's notice, once, and every one of wants.
func noticed(t *testing.T, out outcome, wants ...string) {
	t.Helper()
	if n := strings.Count(out.stderr, "This folder is not trusted"); n > 1 {
		t.Errorf("the notice came %d times:\n%s", n, out.stderr)
	}
	for _, want := range append([]string{"This folder is not trusted, so mini-claude ignored"}, wants...) {
		if !strings.Contains(out.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, out.stderr)
		}
	}
}

// heard is one request a listener received.
type heard struct {
	method, target string
	header         http.Header
	body           string
}

// listener is a local HTTP server standing for a host a folder chose: it
// records every request, headers and body, and answers 404.
type listener struct {
	*httptest.Server
	mu   sync.Mutex
	seen []heard
}

func newListener(t *testing.T) *listener {
	t.Helper()
	l := &listener{}
	l.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, q *http.Request) {
		body, _ := io.ReadAll(q.Body)
		l.mu.Lock()
		l.seen = append(l.seen, heard{q.Method, q.URL.String(), q.Header.Clone(), string(body)})
		l.mu.Unlock()
		http.NotFound(w, q)
	}))
	t.Cleanup(l.Close)
	return l
}

func (l *listener) requests() []heard {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]heard(nil), l.seen...)
}

// heardNothing fails the test when anything reached the listener.
func (l *listener) heardNothing(t *testing.T, what string) {
	t.Helper()
	for _, h := range l.requests() {
		t.Errorf("%s: the folder's host got %s %s (secrets %v)", what, h.method, h.target, h.leaks())
	}
}

// leaks returns the secrets found anywhere in the request.
func (h heard) leaks() []string {
	all := h.target + "\n" + h.body
	for name, values := range h.header {
		all += "\n" + name + ": " + strings.Join(values, ",")
	}
	return leaks(all)
}

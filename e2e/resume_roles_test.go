package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
	"github.com/mini-claude/mini-claude/internal/session"
)

// TestKilledSessionResumesInOneShape kills the scripted 20-turn session of
// TestSIGKILLAndResume at 15 points (mid-stream, mid-call, between turns) and
// resumes each killed transcript three ways: -r ID, then -c from the same
// file, then -c again after that resumed run. Every request of every run
// has alternating roles; the -r and -c runs of one transcript send
// byte-identical messages; and a later fresh load of the transcript sends
// the earlier resumed request's messages again as its prefix (the made-up
// results of the interrupted calls and the new prompt in one user message,
// results first), so the prompt cache's prefix holds across runs.
func TestKilledSessionResumesInOneShape(t *testing.T) {
	r := newRun(t)
	srv, err := llmtest.Start() // a kill can cut a request body short: checked below instead
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	r.srv = srv
	r.setenv("ANTHROPIC_BASE_URL=" + srv.URL)
	os.WriteFile(filepath.Join(r.dir, "notes.txt"), []byte("first notes\n"), 0o644)
	srv.ServeByHistory(crashTurns(r.dir)...)
	id := session.NewID()
	path := r.transcriptPath(id)
	flags := []string{"--output-format", "stream-json", "--verbose", "--tools", "Bash,Read,Write", "--dangerously-skip-permissions"}

	kills := 0
	for point := 0; kills < 15; point++ {
		if point >= 40 {
			t.Fatalf("only %d of 15 runs were killed before they ended", kills)
		}
		args := append([]string{"-p", fmt.Sprintf("work %d", point)}, flags...)
		if _, err := os.Stat(path); err != nil {
			args = append(args, "--session-id", id)
		} else {
			args = append(args, "-r", id)
		}
		sent := len(srv.Requests())
		if !r.killAt(args, 1+point%3, time.Duration(point*7%25)*time.Millisecond) {
			continue
		}
		kills++
		checkAlternating(t, fmt.Sprintf("killed run %d", point), srv.Requests()[sent:])
		snapshot, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}

		prompt := fmt.Sprintf("check %d", point)
		byID := r.resumeOnce(prompt, append([]string{"-r", id, "--max-turns", "1"}, flags...))
		os.WriteFile(path, snapshot, 0o600)
		byContinue := r.resumeOnce(prompt, append([]string{"-c", "--max-turns", "1"}, flags...))
		if !bytes.Equal(rawMessages(t, byID), rawMessages(t, byContinue)) {
			t.Fatalf("kill %d: -r and -c of one transcript sent different messages:\n-r %s\n-c %s", point, rawMessages(t, byID), rawMessages(t, byContinue))
		}
		checkAlternating(t, fmt.Sprintf("kill %d, resumed", point), []llmtest.Request{byID})
		if last := byID.Messages[len(byID.Messages)-1]; last.Role != llm.RoleUser || last.Content[len(last.Content)-1].Text != prompt {
			t.Fatalf("kill %d: the resumed request does not end with the prompt: %s", point, jsonOf(last))
		}
		later := r.resumeOnce(fmt.Sprintf("later %d", point), append([]string{"-c", "--max-turns", "1"}, flags...))
		checkAlternating(t, fmt.Sprintf("kill %d, loaded again", point), []llmtest.Request{later})
		if n := len(byID.Messages); len(later.Messages) < n || jsonOf(later.Messages[:n]) != jsonOf(byID.Messages) {
			t.Fatalf("kill %d: a fresh load of the transcript sends another history than the resumed run did:\nresumed %s\nloaded  %s", point, jsonOf(byID.Messages), jsonOf(later.Messages))
		}
		os.WriteFile(path, snapshot, 0o600)
	}
	if v := violations(srv); len(v) > 0 {
		t.Fatalf("requests not valid for the API: %q", v)
	}
	loaded, err := session.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("15 kills; the transcript holds %d messages, %d model requests in all", len(loaded.Messages), len(srv.Requests()))
}

// resumeOnce runs the binary with prompt to its end and returns its first
// model request: the first to carry the prompt, since a request of a killed
// run before may reach the server after it died.
func (r *run) resumeOnce(prompt string, args []string) llmtest.Request {
	r.t.Helper()
	sent := len(r.srv.Requests())
	out := r.exec(append([]string{"-p", prompt}, args...)...)
	text, _ := json.Marshal(prompt)
	for _, req := range r.srv.Requests()[sent:] {
		if bytes.Contains(req.Body, []byte(`"text":`+string(text))) {
			return req
		}
	}
	r.t.Fatalf("mini-claude -p %q %q sent no request with its prompt: exit %d\n%s", prompt, args, out.code, out.stderr)
	return llmtest.Request{}
}

// checkAlternating fails when a request's roles do not alternate, skipping
// bodies a kill cut short.
func checkAlternating(t *testing.T, what string, reqs []llmtest.Request) {
	t.Helper()
	for _, req := range reqs {
		if len(req.Violations) > 0 {
			continue
		}
		for i := 1; i < len(req.Messages); i++ {
			if req.Messages[i].Role == req.Messages[i-1].Role {
				t.Fatalf("%s: request %s has two %s messages in a row (%d and %d):\n%s", what, req.ID, req.Messages[i].Role, i-1, i, jsonOf(req.Messages))
			}
		}
	}
}

// rawMessages returns the messages of a request's body as sent, byte for byte.
func rawMessages(t *testing.T, req llmtest.Request) []byte {
	t.Helper()
	var body struct {
		Messages json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal(req.Body, &body); err != nil {
		t.Fatal(err)
	}
	return body.Messages
}

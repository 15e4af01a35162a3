package bash

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/config"
	"github.com/mini-claude/mini-claude/internal/goldenfile"
	"github.com/mini-claude/mini-claude/internal/resultstore"
	"github.com/mini-claude/mini-claude/internal/tool"
)

// harness is one session with its project directory and per-user folder.
type harness struct {
	t       testing.TB
	dir     string
	home    string
	session *tool.Session
	extra   []string
	// passEnv is the calls' Env.PassEnv.
	passEnv []string
	// trusted says the user trusted the session's folder.
	trusted bool
	calls   atomic.Int64
}

func newHarness(t testing.TB) *harness {
	t.Helper()
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	home := t.TempDir()
	t.Setenv(config.HomeEnv, home)
	h := &harness{t: t, dir: dir, home: home, session: tool.NewSession(dir)}
	t.Cleanup(h.session.Close)
	return h
}

func (h *harness) env() *tool.Env {
	id := fmt.Sprintf("toolu_%02d", h.calls.Add(1))
	return &tool.Env{Cwd: h.session.Cwd(), AdditionalDirs: h.extra, SessionID: "session-1", ToolUseID: id,
		PermissionMode: "default", Session: h.session, PassEnv: h.passEnv, FolderTrusted: h.trusted}
}

// result is what the model would read from a call.
type result struct {
	text    string
	isError bool
	out     Output
	env     *tool.Env
	events  []tool.ProgressEvent
}

// call runs one tool call through parsing, validation and the call itself,
// as the executor does.
func (h *harness) call(ctx context.Context, t tool.Tool, input string) (result, error) {
	h.t.Helper()
	c, err := t.Parse(json.RawMessage(input))
	if err != nil {
		return result{}, err
	}
	env := h.env()
	if err := c.Validate(ctx, env); err != nil {
		return result{env: env}, err
	}
	var events []tool.ProgressEvent
	res, err := c.Run(ctx, env, func(e tool.ProgressEvent) { events = append(events, e) })
	var output *tool.OutputError
	switch {
	case errors.As(err, &output):
		return result{text: output.Text, isError: true, env: env, events: events}, nil
	case err != nil:
		return result{env: env, events: events}, err
	}
	r := result{text: res.Content[0].Text, env: env, events: events}
	if out, ok := res.Output.(Output); ok {
		r.out = out
	}
	return r, nil
}

// bash runs a Bash call with input as JSON fields besides the command.
func (h *harness) bash(command string, fields ...string) result {
	h.t.Helper()
	r, err := h.bashErr(context.Background(), command, fields...)
	if err != nil {
		h.t.Fatalf("%q: %v", command, err)
	}
	return r
}

func (h *harness) bashErr(ctx context.Context, command string, fields ...string) (result, error) {
	input, _ := json.Marshal(map[string]string{"command": command})
	js := string(input)
	if len(fields) > 0 {
		js = js[:len(js)-1] + "," + strings.Join(fields, ",") + "}"
	}
	return h.call(ctx, Tool, js)
}

func (h *harness) taskOutput(id string, fields ...string) string {
	h.t.Helper()
	js := fmt.Sprintf(`{"task_id":%q`, id)
	for _, f := range fields {
		js += "," + f
	}
	r, err := h.call(context.Background(), TaskOutput, js+"}")
	if err != nil {
		h.t.Fatalf("TaskOutput %s: %v", id, err)
	}
	return r.text
}

var taskIDPattern = regexp.MustCompile(`ID: (b[0-9a-z]{8})`)

func taskID(t *testing.T, text string) string {
	t.Helper()
	m := taskIDPattern.FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no task ID in %q", text)
	}
	return m[1]
}

// golden compares text with testdata/name.golden, after replacing the
// harness's directories and task ids with placeholders.
func (h *harness) golden(name, text string) {
	h.t.Helper()
	text = strings.ReplaceAll(text, h.home, "<HOME>")
	text = strings.ReplaceAll(text, resultstore.ProjectSlug(h.dir), "<SLUG>")
	text = strings.ReplaceAll(text, h.dir, "<PROJECT>")
	text = regexp.MustCompile(`b[0-9a-z]{8}\b`).ReplaceAllString(text, "<TASK>")
	path := filepath.Join("testdata", name+".golden")
	goldenfile.Check(h.t, path, text)
}

// processRunning reports whether a process whose command line contains marker runs,
// as ps sees it; zombies are dead and do not count.
func processRunning(t *testing.T, marker string) bool {
	t.Helper()
	out, err := exec.Command("ps", "-eo", "stat=,args=").Output()
	if err != nil {
		t.Fatalf("ps: %v", err)
	}
	for _, line := range strings.Split(string(out), "\n") {
		fields := strings.Fields(line)
		if len(fields) > 1 && !strings.HasPrefix(fields[0], "Z") && strings.Contains(line, marker) {
			return true
		}
	}
	return false
}

// waitGone fails the test unless no process with marker runs within a second.
func waitGone(t *testing.T, marker string) {
	t.Helper()
	deadline := time.Now().Add(time.Second)
	for processRunning(t, marker) {
		if time.Now().After(deadline) {
			t.Fatalf("a process %q is still running", marker)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// uniqueSleep returns a sleep command whose argument no other test uses, so ps
// can find exactly its process.
func uniqueSleep(t *testing.T) string {
	return fmt.Sprintf("sleep 1000.%d", time.Now().UnixNano()%1_000_000_000)
}

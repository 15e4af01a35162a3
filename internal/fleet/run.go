package fleet

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/mini-claude/mini-claude/internal/reaper"
	"github.com/mini-claude/mini-claude/internal/session"
)

// ResumePrompt is the prompt of a run that resumes an attempt which did not
// finish: the conversation so far already holds the task's own prompt.
const ResumePrompt = "Your previous run of this task was interrupted. Continue the task from where it stopped, without repeating work already done."

// heartbeatEvery is how often a running task is reported alive and its
// transcript uploaded when it grew, at most: a third of the ack wait when
// that is shorter. A worker that dies loses at most this much of the
// transcript, which the resumed run then does again.
const heartbeatEvery = 2 * time.Second

// outcome is how one attempt at a task ended: with a result, with an error
// (the run ended without one), or released because the worker is stopping.
type outcome struct {
	result   Result
	err      error
	released bool
}

// runOutput is the part of a run's --output-format json result the fleet reads.
type runOutput struct {
	Type         string          `json:"type"`
	Subtype      string          `json:"subtype"`
	IsError      bool            `json:"is_error"`
	Result       string          `json:"result"`
	TotalCostUSD float64         `json:"total_cost_usd"`
	Usage        json.RawMessage `json:"usage"`
	Errors       []string        `json:"errors"`
}

// run runs one attempt at a task as a headless session, resuming the task's
// transcript when an earlier attempt left one, and keeps the message in
// progress, the task's state fresh and its transcript uploaded meanwhile.
func (w *worker) run(ctx context.Context, msg jetstream.Msg, t Task, attempt int) outcome {
	sid := SessionID(t.ID)
	res := Result{ID: t.ID, SessionID: sid, Worker: w.cfg.Name, Attempts: attempt}
	dir, err := w.workdir(ctx, t)
	if err != nil {
		return outcome{result: res, err: err}
	}
	path := session.Path(dir, sid)
	if res.Resumed, err = w.f.fetchTranscript(ctx, t.ID, path); err != nil {
		return outcome{result: res, err: err}
	}
	program, err := exec.LookPath(w.cfg.Command[0])
	if err != nil {
		return outcome{result: res, err: fmt.Errorf("start the run: %w", err)}
	}
	var stdout bytes.Buffer
	stderr := &tailWriter{max: 2048}
	// Through the reaper, a run dies with its worker, even a SIGKILLed one,
	// and so does whatever it left (its own helper kills its tools'
	// processes). Interrupted, a run writes what it has to its transcript
	// and exits, within runGrace.
	cmd := reaper.Command{Path: program, Args: append(slices.Clone(w.cfg.Command), runArgs(t, sid, res.Resumed)...),
		Env: os.Environ(), Dir: dir, Stdout: &stdout, Stderr: stderr, Grace: runGrace, WaitDelay: runGrace}
	running := State{ID: t.ID, State: StateRunning, Worker: w.cfg.Name, Attempt: attempt, Heartbeat: time.Now().UTC()}
	if err := w.f.putState(ctx, running); err != nil {
		w.logf("worker %s: %v", w.cfg.Name, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- runError(cmd.Run(ctx)) }()
	tick := time.NewTicker(max(min(w.cfg.AckWait/3, heartbeatEvery), 100*time.Millisecond))
	defer tick.Stop()
	var mark uploadMark
	var waitErr error
	for alive := true; alive; {
		select {
		case waitErr = <-exited:
			alive = false
		case <-tick.C:
			w.heartbeat(ctx, msg, running, path, &mark)
		}
	}
	if err := w.f.uploadTranscript(context.WithoutCancel(ctx), t.ID, path, &mark); err != nil {
		w.logf("worker %s: task %s: %v", w.cfg.Name, t.ID, err)
	}
	var out runOutput
	parsed := json.Unmarshal(bytes.TrimSpace(stdout.Bytes()), &out) == nil && out.Type == "result"
	switch {
	case ctx.Err() != nil && (waitErr != nil || !parsed):
		return outcome{result: res, released: true}
	case !parsed:
		return outcome{result: res, err: fmt.Errorf("the run ended without a result (%v): %s", waitErr, strings.TrimSpace(stderr.String()))}
	}
	res.Output = json.RawMessage(bytes.TrimSpace(stdout.Bytes()))
	res.TotalCostUSD, res.Usage = out.TotalCostUSD, out.Usage
	res.Status = StateDone
	if out.IsError {
		res.Status, res.Reason = StateFailed, failure(out)
	}
	if res.Diff, err = gitDiff(context.WithoutCancel(ctx), dir); err != nil {
		w.logf("worker %s: task %s: %v", w.cfg.Name, t.ID, err)
	}
	return outcome{result: res}
}

// runGrace is how long a run has to end after SIGTERM, and then how long
// its output is waited for.
const runGrace = 10 * time.Second

// runError says how a run ended when it did not exit with status 0: the
// error of its start or wait, else its exit status or signal.
func runError(status syscall.WaitStatus, err error) error {
	switch {
	case err != nil:
		return err
	case status.Exited() && status.ExitStatus() == 0:
		return nil
	}
	return errors.New(reaper.Describe(status))
}

// heartbeat tells the server the task is still being worked on, records when
// in its state, and uploads its transcript when it grew.
func (w *worker) heartbeat(ctx context.Context, msg jetstream.Msg, running State, path string, mark *uploadMark) {
	if err := msg.InProgress(); err != nil {
		w.logf("worker %s: task %s: in progress: %v", w.cfg.Name, running.ID, err)
	}
	running.Heartbeat = time.Now().UTC()
	if err := w.f.putState(ctx, running); err != nil {
		w.logf("worker %s: %v", w.cfg.Name, err)
	}
	if err := w.f.uploadTranscript(ctx, running.ID, path, mark); err != nil {
		w.logf("worker %s: task %s: %v", w.cfg.Name, running.ID, err)
	}
}

// failure says why a run that produced a result failed.
func failure(out runOutput) string {
	if len(out.Errors) > 0 {
		return out.Subtype + ": " + strings.Join(out.Errors, "; ")
	}
	if out.Result != "" {
		return out.Subtype + ": " + out.Result
	}
	return out.Subtype
}

// runArgs are the headless flags and prompt of a task's run: a new session
// under the task's session id, or that session resumed.
func runArgs(t Task, sessionID string, resume bool) []string {
	args := []string{"-p", "--output-format", "json"}
	prompt := t.Prompt
	if resume {
		args = append(args, "--resume", sessionID)
		prompt = ResumePrompt
	} else {
		args = append(args, "--session-id", sessionID)
	}
	if t.Model != "" {
		args = append(args, "--model", t.Model)
	}
	for _, rule := range t.AllowedTools {
		args = append(args, "--allowedTools", rule)
	}
	if t.MaxTurns > 0 {
		args = append(args, "--max-turns", strconv.Itoa(t.MaxTurns))
	}
	if t.MaxBudgetUSD > 0 {
		args = append(args, "--max-budget-usd", strconv.FormatFloat(t.MaxBudgetUSD, 'f', -1, 64))
	}
	return append(args, "--", prompt)
}

// workdir returns the directory a task runs in: its own directory, or its
// clone under the work root, kept from an earlier attempt on this machine or
// made now.
func (w *worker) workdir(ctx context.Context, t Task) (string, error) {
	if t.Dir != "" {
		dir, err := filepath.EvalSymlinks(t.Dir)
		if err != nil {
			return "", fmt.Errorf("the task's directory: %w", err)
		}
		return dir, nil
	}
	if err := os.MkdirAll(w.cfg.WorkRoot, 0o755); err != nil {
		return "", fmt.Errorf("work root: %w", err)
	}
	root, err := filepath.EvalSymlinks(w.cfg.WorkRoot)
	if err != nil {
		return "", fmt.Errorf("work root: %w", err)
	}
	dir := filepath.Join(root, t.ID)
	if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
		return dir, nil
	}
	// A clone cut short by a dead worker is made again.
	if err := os.RemoveAll(dir); err != nil {
		return "", fmt.Errorf("remove an unfinished clone: %w", err)
	}
	if out, err := exec.CommandContext(ctx, "git", "clone", "--quiet", "--", t.Repo, dir).CombinedOutput(); err != nil {
		return "", fmt.Errorf("git clone %s: %w: %s", t.Repo, err, bytes.TrimSpace(out))
	}
	return dir, nil
}

// emptyTree is git's id of the tree without files.
const emptyTree = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"

// gitDiff returns what differs in dir's working tree from its last commit,
// new files included, through an index of its own so the repository's index
// is left alone; "" when dir is not in a git repository.
func gitDiff(ctx context.Context, dir string) (string, error) {
	if exec.CommandContext(ctx, "git", "-C", dir, "rev-parse", "--is-inside-work-tree").Run() != nil {
		return "", nil
	}
	index, err := os.CreateTemp("", "mini-claude-fleet-index-*")
	if err != nil {
		return "", fmt.Errorf("diff: %w", err)
	}
	index.Close()
	defer os.Remove(index.Name())
	base := "HEAD"
	if exec.CommandContext(ctx, "git", "-C", dir, "rev-parse", "--verify", "--quiet", "HEAD").Run() != nil {
		base = emptyTree
	}
	git := func(args ...string) ([]byte, error) {
		cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_INDEX_FILE="+index.Name())
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("diff: git %s: %w: %s", args[0], err, bytes.TrimSpace(stderr.Bytes()))
		}
		return out, nil
	}
	for _, args := range [][]string{{"read-tree", base}, {"add", "-A", "--", ":/"}} {
		if _, err := git(args...); err != nil {
			return "", err
		}
	}
	out, err := git("diff", "--cached", "--binary", base)
	return string(out), err
}

// tailWriter keeps the last max bytes written to it.
type tailWriter struct {
	max int
	buf []byte
}

func (t *tailWriter) Write(p []byte) (int, error) {
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = t.buf[over:]
	}
	return len(p), nil
}

func (t *tailWriter) String() string { return string(t.buf) }

package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/mini-claude/mini-claude/bench/rss"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// sample is what one run measured.
type sample struct {
	firstRequest time.Duration
	wall         time.Duration
	cpu          time.Duration
	peakRSSKB    int64
	requestBytes int64
	firstBytes   int64
}

// tally gathers the requests of the run in progress, as the server receives them.
type tally struct {
	mu         sync.Mutex
	count      int
	bytes      int64
	first      time.Time
	firstBytes int64
	toolErrors []string
	results    []string
}

func (t *tally) add(req llmtest.Request) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.count++
	t.bytes += int64(len(req.Body))
	if t.first.IsZero() {
		t.first, t.firstBytes = req.Time, int64(len(req.Body))
	}
	if len(req.Messages) == 0 {
		return
	}
	for _, b := range req.Messages[len(req.Messages)-1].Content {
		if b.Type != llm.BlockToolResult {
			continue
		}
		t.results = append(t.results, resultText(b, 2000))
		if b.IsError || failedCommand.MatchString(resultText(b, 300)) {
			t.toolErrors = append(t.toolErrors, resultText(b, 300))
		}
	}
}

// failedCommand finds the exit status Codex CLI reports in the output of a
// command that failed; its results carry no error flag.
var failedCommand = regexp.MustCompile(`^(Chunk ID: \S+\n)?(Wall time: [^\n]*\n)?Process exited with code [1-9]`)

func resultText(b llm.ContentBlock, limit int) string {
	var parts []string
	for _, c := range b.Content {
		parts = append(parts, c.Text)
	}
	text := strings.Join(parts, " ")
	if len(text) > limit {
		text = text[:limit] + "…"
	}
	return text
}

// runOnce runs the agent on the scenario once in dir and checks it succeeded:
// exit 0, the expected number of requests, no tool result an error, no
// protocol violation.
func runOnce(a agent, sc scenario, srv *llmtest.Server, dir, home string, wantRequests int) (sample, error) {
	if sc.reset != nil {
		if err := sc.reset(dir); err != nil {
			return sample{}, fmt.Errorf("reset files: %w", err)
		}
	}
	t := &tally{}
	srv.OnRequest(t.add)
	violationsBefore := len(srv.Violations())
	args, env, err := a.command(a.bin, srv.URL, home)
	if err != nil {
		return sample{}, fmt.Errorf("%s: %w", a.name, err)
	}
	cmd := exec.Command(a.bin, args...)
	cmd.Dir = dir
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "TERM=dumb", "IS_SANDBOX=1"}, env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return sample{}, err
	}
	treeRSS := rss.SampleTree(cmd.Process.Pid, true)
	err = cmd.Wait()
	wall := time.Since(start)
	peakTree := treeRSS()
	srv.OnRequest(nil)
	if err != nil {
		return sample{}, fmt.Errorf("%s: %w\nstderr: %s\nstdout tail: %s", a.name, err, stderr.Bytes(), tail(stdout.Bytes()))
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case t.count != wantRequests:
		return sample{}, fmt.Errorf("%s: the server saw %d requests, want %d\nstdout tail: %s", a.name, t.count, wantRequests, tail(stdout.Bytes()))
	case len(t.toolErrors) > 0:
		return sample{}, fmt.Errorf("%s: tool results were errors: %q", a.name, t.toolErrors)
	case len(srv.Violations()) != violationsBefore:
		return sample{}, fmt.Errorf("%s: protocol violations: %q", a.name, srv.Violations()[violationsBefore:])
	case !bytes.Contains(stdout.Bytes(), []byte(a.success)):
		return sample{}, fmt.Errorf("%s: no %s in the output\nstdout tail: %s", a.name, a.success, tail(stdout.Bytes()))
	}
	for _, want := range sc.expect {
		if !slices.ContainsFunc(t.results, func(r string) bool { return strings.Contains(r, want) }) {
			return sample{}, fmt.Errorf("%s: no tool result holds %q: %q", a.name, want, t.results)
		}
	}
	if sc.check != nil {
		if err := sc.check(dir); err != nil {
			return sample{}, fmt.Errorf("%s: %w", a.name, err)
		}
	}
	usage, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		return sample{}, fmt.Errorf("no rusage for %s", a.name)
	}
	return sample{
		firstRequest: t.first.Sub(start),
		wall:         wall,
		cpu:          cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(),
		peakRSSKB:    max(usage.Maxrss, peakTree),
		requestBytes: t.bytes,
		firstBytes:   t.firstBytes,
	}, nil
}

func tail(b []byte) []byte {
	if len(b) > 2000 {
		return b[len(b)-2000:]
	}
	return b
}

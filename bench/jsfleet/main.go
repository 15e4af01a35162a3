// Command jsfleet runs short tasks through a fleet of `mini-claude fleet
// worker` processes on a standalone `nats-server -js`, against the scripted
// model server, and reports per fleet size the throughput, the engine's peak
// RSS and the workers' (each worker's own, and with the runs it started),
// then the time from a worker's SIGKILL in the middle of a task to the
// resumption of that task on another worker. Every task is a Read → answer
// run in a git repository of its own; every result is checked (done, once,
// the resumed one resumed).
//
//	go run ./bench/jsfleet [-tasks 100] [-workers 1,4] [-kills 3] [-ack-wait 5s] [-nats-server path] [-bin path]
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/mini-claude/mini-claude/bench/build"
	"github.com/mini-claude/mini-claude/internal/fleet"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

func main() {
	tasks := flag.Int("tasks", 100, "short tasks per fleet size")
	workers := flag.String("workers", "1,4", "fleet sizes, comma-separated")
	kills := flag.Int("kills", 3, "workers killed mid-task, one at a time, to time the resumption")
	ackWait := flag.Duration("ack-wait", 5*time.Second, "the workers' --ack-wait")
	natsServer := flag.String("nats-server", "nats-server", "nats-server executable")
	bin := flag.String("bin", "", "mini-claude binary (default: build ./cmd/mini-claude)")
	flag.Parse()
	if err := run(*tasks, *workers, *kills, *ackWait, *natsServer, *bin); err != nil {
		fmt.Fprintln(os.Stderr, "jsfleet:", err)
		os.Exit(1)
	}
}

func run(tasks int, sizes string, kills int, ackWait time.Duration, natsServer, bin string) error {
	scratch, err := os.MkdirTemp("", "mini-claude-jsfleet")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	if bin, err = build.MiniClaude(bin, scratch); err != nil {
		return err
	}
	fmt.Printf("| workers | tasks | wall | tasks/s | engine peak RSS | worker peak RSS (max) | worker + its runs, peak RSS (max) |\n|---|---|---|---|---|---|---|\n")
	for i, field := range strings.Split(sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(field))
		if err != nil || n < 1 {
			return fmt.Errorf("-workers: %q is not a fleet size", field)
		}
		r := &rig{root: filepath.Join(scratch, strconv.Itoa(i)), bin: bin, natsServer: natsServer, ackWait: ackWait}
		if err := r.throughput(n, tasks); err != nil {
			return err
		}
	}
	if kills > 0 {
		r := &rig{root: filepath.Join(scratch, "kills"), bin: bin, natsServer: natsServer, ackWait: ackWait}
		return r.resumptions(kills)
	}
	return nil
}

// rig is one engine, one model server and the workers of a measurement.
type rig struct {
	root, bin, natsServer string
	ackWait               time.Duration
	url                   string
	engine                *exec.Cmd
	srv                   *llmtest.Server
	workers               []*exec.Cmd
}

// start starts the engine and the model server, which answers each task with
// a Read of its notes, then the answer; hold, when set, may hold a request.
func (r *rig) start(hold func(llmtest.Request) <-chan struct{}) error {
	if err := os.MkdirAll(r.root, 0o755); err != nil {
		return err
	}
	port, err := freePort()
	if err != nil {
		return err
	}
	r.engine = exec.Command(r.natsServer, "-js", "-sd", filepath.Join(r.root, "nats"), "-a", "127.0.0.1", "-p", strconv.Itoa(port))
	if err := r.engine.Start(); err != nil {
		return fmt.Errorf("start nats-server: %w", err)
	}
	r.url = fmt.Sprintf("nats://127.0.0.1:%d", port)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		conn, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err == nil {
			conn.Close()
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("nats-server is not listening: %w", err)
		}
	}
	if r.srv, err = llmtest.Start(); err != nil {
		return err
	}
	r.srv.SetRecord(false)
	r.srv.ServeFunc(func(req llmtest.Request) llmtest.Turn {
		var gate <-chan struct{}
		if hold != nil {
			gate = hold(req)
		}
		if req.AssistantTurns() == 0 {
			return llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("", "Read", `{"file_path":"notes.txt"}`)}, Gate: gate}
		}
		return llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("read the notes")}, Gate: gate}
	})
	return nil
}

// stop stops the workers, the model server and the engine, and returns the
// engine's peak RSS in kB.
func (r *rig) stop() int64 {
	for _, w := range r.workers {
		w.Process.Signal(syscall.SIGTERM)
		w.Wait()
	}
	peak := peakRSS(r.engine.Process.Pid)
	r.engine.Process.Signal(syscall.SIGTERM)
	r.engine.Wait()
	r.srv.Close()
	return peak
}

func (r *rig) env(home string) []string {
	return []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "MINI_CLAUDE_HOME=" + filepath.Join(home, ".mini-claude"),
		"ANTHROPIC_BASE_URL=" + r.srv.URL, "ANTHROPIC_API_KEY=bench", "IS_SANDBOX=1", "NATS_URL=" + r.url,
		"GIT_AUTHOR_NAME=b", "GIT_AUTHOR_EMAIL=b@example.com", "GIT_COMMITTER_NAME=b", "GIT_COMMITTER_EMAIL=b@example.com"}
}

// startWorkers starts n workers, each with a home of its own.
func (r *rig) startWorkers(n int) error {
	for i := range n {
		home := filepath.Join(r.root, fmt.Sprintf("worker-%d", i))
		if err := os.MkdirAll(home, 0o755); err != nil {
			return err
		}
		cmd := exec.Command(r.bin, "fleet", "worker", "--name", fmt.Sprintf("w%d", i), "--ack-wait", r.ackWait.String())
		cmd.Env, cmd.Dir = r.env(home), home
		cmd.Stderr = &bytes.Buffer{}
		if err := cmd.Start(); err != nil {
			return err
		}
		r.workers = append(r.workers, cmd)
	}
	return nil
}

// tasks writes n tasks, each in a git repository of its own with a notes file.
func (r *rig) tasks(prefix string, n int) (string, error) {
	var lines bytes.Buffer
	for i := range n {
		id := fmt.Sprintf("%s-%03d", prefix, i)
		dir := filepath.Join(r.root, "tasks", id)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return "", err
		}
		if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("one\ntwo\n"), 0o644); err != nil {
			return "", err
		}
		if out, err := exec.Command("git", "-C", dir, "init", "-q").CombinedOutput(); err != nil {
			return "", fmt.Errorf("git init: %w: %s", err, out)
		}
		line, _ := json.Marshal(fleet.Task{ID: id, Prompt: "Task " + id + ": read notes.txt and say what it holds", Dir: dir, AllowedTools: []string{"Read"}})
		lines.Write(append(line, '\n'))
	}
	path := filepath.Join(r.root, prefix+".jsonl")
	return path, os.WriteFile(path, lines.Bytes(), 0o644)
}

// fleetCmd runs a fleet command other than worker and returns its stdout.
func (r *rig) fleetCmd(args ...string) ([]byte, error) {
	cmd := exec.Command(r.bin, append([]string{"fleet"}, args...)...)
	cmd.Env = r.env(r.root)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("fleet %s: %w: %s", args[0], err, stderr.String())
	}
	return out, nil
}

// results submits the task file, waits for every result and checks them.
func (r *rig) results(file string, n int) (map[string]fleet.Result, error) {
	if _, err := r.fleetCmd("submit", file); err != nil {
		return nil, err
	}
	out, err := r.fleetCmd("results", "--wait")
	if err != nil {
		return nil, err
	}
	results := map[string]fleet.Result{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var res fleet.Result
		if err := json.Unmarshal(sc.Bytes(), &res); err != nil {
			return nil, err
		}
		if res.Status != fleet.StateDone {
			return nil, fmt.Errorf("task %s: %s: %s", res.ID, res.Status, res.Reason)
		}
		if _, dup := results[res.ID]; dup {
			return nil, fmt.Errorf("task %s has two results", res.ID)
		}
		results[res.ID] = res
	}
	if len(results) != n {
		return nil, fmt.Errorf("%d results, want %d", len(results), n)
	}
	return results, nil
}

// throughput runs n tasks through a fleet of size workers and prints a row.
func (r *rig) throughput(size, n int) error {
	if err := r.start(nil); err != nil {
		return err
	}
	file, err := r.tasks("t", n)
	if err != nil {
		return err
	}
	if err := r.startWorkers(size); err != nil {
		return err
	}
	start := time.Now()
	if _, err := r.results(file, n); err != nil {
		return err
	}
	wall := time.Since(start)
	var ownPeak, treePeak int64
	for _, w := range r.workers {
		ownPeak = max(ownPeak, peakRSS(w.Process.Pid))
	}
	enginePeak := r.stop()
	for _, w := range r.workers {
		if usage, ok := w.ProcessState.SysUsage().(*syscall.Rusage); ok {
			treePeak = max(treePeak, usage.Maxrss)
		}
	}
	fmt.Printf("| %d | %d | %.2f s | %.1f | %.1f MB | %.1f MB | %.1f MB |\n", size, n, wall.Seconds(), float64(n)/wall.Seconds(),
		mb(enginePeak), mb(ownPeak), mb(treePeak))
	return nil
}

// resumptions kills, one at a time, the worker of a task whose second
// request is held, and times from the kill to that task's next request,
// which another worker makes with the transcript it resumed.
func (r *rig) resumptions(kills int) error {
	var mu sync.Mutex
	held := map[string]bool{}
	var killedAt time.Time
	resumed := make(chan time.Time, 1)
	release := make(chan struct{})
	defer close(release)
	err := r.start(func(req llmtest.Request) <-chan struct{} {
		mu.Lock()
		defer mu.Unlock()
		prompt := firstText(req)
		if req.AssistantTurns() == 0 || !strings.Contains(prompt, "Task victim") {
			return nil
		}
		if !held[prompt] {
			held[prompt] = true
			return release
		}
		if !killedAt.IsZero() {
			select {
			case resumed <- req.Time:
			default:
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	defer r.stop()
	if err := r.startWorkers(2); err != nil {
		return err
	}
	f, err := fleet.Connect(context.Background(), r.url, "bench")
	if err != nil {
		return err
	}
	defer f.Close()
	fmt.Printf("\n| kill | ack wait | kill → resumed request | kill → result |\n|---|---|---|---|\n")
	for k := range kills {
		if err := r.resumption(f, k, &mu, &killedAt, resumed); err != nil {
			return err
		}
	}
	return nil
}

func (r *rig) resumption(f *fleet.Fleet, k int, mu *sync.Mutex, killedAt *time.Time, resumed chan time.Time) error {
	file, err := r.tasks(fmt.Sprintf("victim%d", k), 1)
	if err != nil {
		return err
	}
	id := fmt.Sprintf("victim%d-000", k)
	if _, err := r.fleetCmd("submit", file); err != nil {
		return err
	}
	ctx := context.Background()
	var owner string
	for deadline := time.Now().Add(time.Minute); owner == ""; time.Sleep(20 * time.Millisecond) {
		data, err := f.Transcript(ctx, id)
		if err == nil && bytes.Contains(data, []byte(`"name":"Read"`)) {
			sum, err := f.Status(ctx)
			if err != nil {
				return err
			}
			for _, s := range sum.Running {
				if s.ID == id {
					owner = s.Worker
				}
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s never got to its held request", id)
		}
	}
	w := r.workers[owner[1]-'0']
	mu.Lock()
	*killedAt = time.Now()
	mu.Unlock()
	w.Process.Signal(syscall.SIGKILL)
	w.Wait()
	at := <-resumed
	mu.Lock()
	kill := *killedAt
	*killedAt = time.Time{}
	mu.Unlock()
	out, err := r.fleetCmd("results", "--wait")
	if err != nil {
		return err
	}
	done := time.Since(kill)
	if !bytes.Contains(out, []byte(`"id":"`+id+`","status":"done"`)) || !bytes.Contains(out, []byte(`"resumed":true`)) {
		return fmt.Errorf("%s was not done by a resumed run: %s", id, out)
	}
	fmt.Printf("| %d | %s | %.2f s | %.2f s |\n", k+1, r.ackWait, at.Sub(kill).Seconds(), done.Seconds())
	// A worker in the killed one's place, under the same name.
	home := filepath.Join(r.root, fmt.Sprintf("worker-%c-%d", owner[1], k))
	if err := os.MkdirAll(home, 0o755); err != nil {
		return err
	}
	cmd := exec.Command(r.bin, "fleet", "worker", "--name", owner, "--ack-wait", r.ackWait.String())
	cmd.Env, cmd.Dir = r.env(home), home
	if err := cmd.Start(); err != nil {
		return err
	}
	r.workers[owner[1]-'0'] = cmd
	return nil
}

// firstText is the text of a request's first user message.
func firstText(req llmtest.Request) string {
	if len(req.Messages) == 0 {
		return ""
	}
	return req.Messages[0].Text()
}

// peakRSS is a live process's peak resident set in kB (VmHWM), or 0.
func peakRSS(pid int) int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb
		}
	}
	return 0
}

func mb(kb int64) float64 { return float64(kb) / 1024 }

// freePort returns a TCP port free on 127.0.0.1 a moment ago.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	addr, ok := l.Addr().(*net.TCPAddr)
	if !ok {
		return 0, errors.New("no TCP address")
	}
	return addr.Port, nil
}

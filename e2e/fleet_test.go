package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/fleet"
	"github.com/mini-claude/mini-claude/internal/fleet/natstest"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
	"github.com/mini-claude/mini-claude/internal/reaper"
)

// fleetRig is a NATS server, the scripted model and the workers of a fleet
// test, each worker a process of the binary with a home of its own, as if on
// a machine of its own.
type fleetRig struct {
	t       *testing.T
	nats    string
	srv     *llmtest.Server
	workers map[string]*fleetWorker
}

// fleetWorker is a running `mini-claude fleet worker`.
type fleetWorker struct {
	cmd  *exec.Cmd
	log  *syncBuffer
	done chan struct{}
}

// syncBuffer is a buffer a process writes to while the test reads it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func newFleetRig(t *testing.T) *fleetRig {
	t.Helper()
	return &fleetRig{t: t, nats: natstest.Start(t), srv: llmtest.New(t), workers: map[string]*fleetWorker{}}
}

// env is the environment of a process of the rig with its own home.
func (r *fleetRig) env(home string) []string {
	return []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + home,
		"MINI_CLAUDE_HOME=" + filepath.Join(home, ".mini-claude"),
		"ANTHROPIC_API_KEY=test-key",
		"ANTHROPIC_BASE_URL=" + r.srv.URL,
		"IS_SANDBOX=1",
		"NATS_URL=" + r.nats,
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com",
	}
}

// startWorker starts a worker named name; its log is shown when the test fails.
func (r *fleetRig) startWorker(name string, args ...string) *fleetWorker {
	r.t.Helper()
	home := r.t.TempDir()
	cmd := exec.Command(binary, append([]string{"fleet", "worker", "--name", name, "--work-root", filepath.Join(home, "work")}, args...)...)
	cmd.Env, cmd.Dir = r.env(home), home
	w := &fleetWorker{cmd: cmd, log: &syncBuffer{}, done: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = w.log, w.log
	if err := cmd.Start(); err != nil {
		r.t.Fatal(err)
	}
	go func() { cmd.Wait(); close(w.done) }()
	r.workers[name] = w
	r.t.Cleanup(func() {
		cmd.Process.Kill()
		<-w.done
		if r.t.Failed() {
			r.t.Logf("worker %s:\n%s", name, w.log.String())
		}
	})
	return w
}

// fleet runs a fleet command other than worker and returns its stdout and stderr.
func (r *fleetRig) fleet(ctx context.Context, args ...string) (string, string) {
	r.t.Helper()
	cmd := exec.CommandContext(ctx, binary, append([]string{"fleet"}, args...)...)
	cmd.Env, cmd.Dir = r.env(r.t.TempDir()), r.t.TempDir()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		r.t.Fatalf("mini-claude fleet %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return stdout.String(), stderr.String()
}

// connect opens the fleet's buckets from the test.
func (r *fleetRig) connect() *fleet.Fleet {
	r.t.Helper()
	f, err := fleet.Connect(context.Background(), r.nats, "e2e")
	if err != nil {
		r.t.Fatal(err)
	}
	r.t.Cleanup(f.Close)
	return f
}

// sourceRepo makes a repository with one commit for the tasks to clone.
func (r *fleetRig) sourceRepo() string {
	r.t.Helper()
	return r.sourceRepoWith(nil)
}

// sourceRepoWith makes a repository whose one commit holds files, by name.
func (r *fleetRig) sourceRepoWith(files map[string]string) string {
	r.t.Helper()
	dir := r.t.TempDir()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			r.t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"commit", "-q", "--allow-empty", "-m", "start"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = dir, r.env(r.t.TempDir())
		if out, err := cmd.CombinedOutput(); err != nil {
			r.t.Fatalf("git %s: %v\n%s", args[0], err, out)
		}
	}
	return dir
}

// taskOf is the task id a request's conversation works on: the prompts name it.
var taskOf = regexp.MustCompile(`fleet task (\S+):`)

func requestTask(req llmtest.Request) string {
	for _, m := range req.Messages {
		for _, b := range m.Content {
			if b.Type == llm.BlockText {
				if m := taskOf.FindStringSubmatch(b.Text); m != nil {
					return m[1]
				}
			}
		}
	}
	return ""
}

// writeTasks writes a task file and returns its path.
func writeTasks(t *testing.T, tasks []fleet.Task) string {
	t.Helper()
	var b strings.Builder
	for _, task := range tasks {
		line, err := json.Marshal(task)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	path := filepath.Join(t.TempDir(), "tasks.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// readResults parses `fleet results` output by task id, failing on a task
// reported twice.
func readResults(t *testing.T, out string) map[string]fleet.Result {
	t.Helper()
	results := map[string]fleet.Result{}
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r fleet.Result
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("result line %q: %v", sc.Text(), err)
		}
		if _, dup := results[r.ID]; dup {
			t.Fatalf("task %s has two results", r.ID)
		}
		results[r.ID] = r
	}
	return results
}

// waitFor polls cond every 50ms until it holds or timeout passes.
func waitFor(t *testing.T, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", timeout, what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// processTree returns root and every process below it, read from /proc.
func processTree(root int) []int {
	children := map[int][]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		s := string(stat)
		if fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:]); len(fields) > 1 {
			ppid, _ := strconv.Atoi(fields[1])
			children[ppid] = append(children[ppid], pid)
		}
	}
	tree := []int{root}
	for i := 0; i < len(tree); i++ {
		tree = append(tree, children[tree[i]]...)
	}
	return tree
}

func TestFleetRunsEveryTaskOnceWhenAWorkerIsKilledMidTask(t *testing.T) {
	r := newFleetRig(t)
	const victim = "task-07"
	var mu sync.Mutex
	finals := map[string]int{}
	// Each task touches a file of its own, then answers; the victim first
	// leaves processes running in the background, detached every way
	// treeScript knows, their pids in its clone's marks/pids, then sleeps
	// long enough to be killed in the middle.
	r.srv.ServeFunc(func(req llmtest.Request) llmtest.Turn {
		id := requestTask(req)
		step := req.AssistantTurns()
		if id == victim {
			switch step {
			case 0:
				script := "mkdir -p marks\n" + treeScript("marks", selfTail("marks"))
				return llmtest.Turn{Blocks: []llm.ContentBlock{bashUse("", script, `"run_in_background":true`)}}
			case 1:
				return llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("", "Sleep", `{"label":"long","ms":60000}`)}}
			}
			step -= 2
		}
		if step == 0 {
			return llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("", "Touch", fmt.Sprintf(`{"path":"%s.txt"}`, id))}}
		}
		mu.Lock()
		finals[id]++
		mu.Unlock()
		return llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("finished " + id)}}
	})
	repo := r.sourceRepo()
	var tasks []fleet.Task
	for i := range 20 {
		id := fmt.Sprintf("task-%02d", i)
		tasks = append(tasks, fleet.Task{ID: id, Prompt: "fleet task " + id + ": touch " + id + ".txt", Repo: repo, AllowedTools: []string{"Touch"}, MaxTurns: 5})
	}
	// Bash runs the victim's commands, Edit lets them write in its clone.
	tasks[7].AllowedTools = append(tasks[7].AllowedTools, "Bash", "Edit(./**)")
	file := writeTasks(t, tasks)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	out, _ := r.fleet(ctx, "submit", file)
	if got := strings.Fields(out); len(got) != 20 || got[0] != "task-00" || got[19] != "task-19" {
		t.Fatalf("submit printed %q, want the 20 ids", out)
	}
	out, errOut := r.fleet(ctx, "submit", file)
	if out != "" || strings.Count(errOut, "not queued: already queued") != 20 {
		t.Fatalf("a second submit queued tasks again:\nstdout %q\nstderr %q", out, errOut)
	}

	for _, name := range []string{"w1", "w2", "w3"} {
		r.startWorker(name, "--concurrency", "2", "--ack-wait", "3s", "--max-deliver", "3")
	}
	f := r.connect()
	// Kill the victim's worker once the victim is sleeping and its
	// transcript, holding that call, is in the object store.
	var owner string
	waitFor(t, time.Minute, "the victim's transcript to hold its Sleep call", func() bool {
		data, err := f.Transcript(ctx, victim)
		return err == nil && bytes.Contains(data, []byte(`"name":"Sleep"`))
	})
	sum, err := f.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range sum.Running {
		if s.ID == victim {
			owner = s.Worker
		}
	}
	if owner == "" {
		t.Fatalf("the victim is not running: %+v", sum)
	}
	killed := r.workers[owner]
	// The worker's whole tree: its process helper, the victim's run, the
	// run's helper, the Bash command and what it left, detached or not.
	marks := filepath.Join(killed.cmd.Dir, "work", victim, "marks", "pids")
	var left []int
	waitFor(t, 30*time.Second, "the victim's Bash command to record its processes", func() bool {
		data, _ := os.ReadFile(marks)
		fields := strings.Fields(string(data))
		left = left[:0]
		for _, f := range fields {
			pid, _ := strconv.Atoi(f)
			left = append(left, pid)
		}
		return len(fields) == 1+len(treeLeavers)
	})
	tree := append(processTree(killed.cmd.Process.Pid), left...)
	slices.Sort(tree)
	tree = slices.Compact(tree)
	runs, helpers := 0, 0
	for _, pid := range tree {
		cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		if bytes.Contains(cmdline, []byte(fleet.SessionID(victim))) {
			runs++
		}
		if bytes.Contains(cmdline, []byte(reaper.HelperArg)) {
			helpers++
		}
	}
	if runs != 1 || helpers < 2 {
		t.Fatalf("the worker's tree %v holds %d runs of the victim and %d process helpers, want 1 and the worker's and the run's", tree, runs, helpers)
	}
	killedAt := time.Now()
	killed.cmd.Process.Signal(syscall.SIGKILL)
	<-killed.done
	if alive := waitGoneWithin(tree, 2*time.Second); len(alive) > 0 {
		t.Fatalf("2s after the worker's SIGKILL these processes of its tree %v still run: %v", tree, alive)
	}
	t.Logf("the %d processes of the killed worker's tree were gone %v after its SIGKILL", len(tree), time.Since(killedAt).Round(time.Millisecond))

	out, _ = r.fleet(ctx, "results", "--wait")
	results := readResults(t, out)
	if len(results) != 20 {
		t.Fatalf("%d results, want 20:\n%s", len(results), out)
	}
	for _, task := range tasks {
		res := results[task.ID]
		if res.Status != fleet.StateDone {
			t.Errorf("task %s: status %q (%s), want done", task.ID, res.Status, res.Reason)
		}
		if !strings.Contains(res.Diff, task.ID+".txt") {
			t.Errorf("task %s: the diff does not show its file:\n%s", task.ID, res.Diff)
		}
		if !strings.Contains(string(res.Output), `"result":"finished `+task.ID+`"`) {
			t.Errorf("task %s: result %s", task.ID, res.Output)
		}
		mu.Lock()
		n := finals[task.ID]
		mu.Unlock()
		if n != 1 {
			t.Errorf("task %s reached its final answer %d times, want once", task.ID, n)
		}
	}
	res := results[victim]
	if !res.Resumed || res.Attempts != 2 || res.Worker == owner {
		t.Errorf("the victim finished as %+v; want resumed on its second attempt by another worker than %s", res, owner)
	}
	// The resumed run sent the conversation of the killed one: its prompt and its Sleep call.
	var resumed *llmtest.Request
	for _, req := range r.srv.Requests() {
		if requestTask(req) == victim && req.Time.After(killedAt) {
			resumed = &req
			break
		}
	}
	if resumed == nil {
		t.Fatal("no request of the victim after the kill")
	}
	history, _ := json.Marshal(resumed.Messages)
	for _, want := range []string{"fleet task " + victim, `"name":"Sleep"`, fleet.ResumePrompt} {
		if !bytes.Contains(history, []byte(want)) {
			t.Errorf("the resumed run's first request lacks %q:\n%s", want, history)
		}
	}
	t.Logf("the victim resumed %s after its worker was killed", resumed.Time.Sub(killedAt).Round(time.Millisecond))

	out, _ = r.fleet(ctx, "status")
	if !strings.HasPrefix(out, "pending 0  running 0  done 20  failed 0") {
		t.Errorf("status: %q", out)
	}
	// The others stop cleanly on SIGTERM.
	for name, w := range r.workers {
		if w == killed {
			continue
		}
		w.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-w.done:
			if code := w.cmd.ProcessState.ExitCode(); code != 0 {
				t.Errorf("worker %s exited %d on SIGTERM", name, code)
			}
		case <-time.After(10 * time.Second):
			t.Errorf("worker %s did not stop within 10s of SIGTERM", name)
		}
	}
}

// crashScript kills the run whose Bash tool runs it with SIGKILL. It climbs
// its ancestors, by the fourth field of their /proc stat (after the command
// name), to the run's process helper, whose parent is the run. It is a script
// in the task's repository because a Bash command reading /proc/$PPID names a
// path only known when it runs, which needs an approval a headless run cannot get.
const crashScript = `parent() { local s; s=$(</proc/$1/stat); set -- ${s##*) }; echo "$2"; }
p=$$
until [ "$p" -le 1 ] || grep -qa __mini-claude-reaper /proc/$p/cmdline; do p=$(parent $p); done
[ "$p" -gt 1 ] && kill -KILL "$(parent $p)"
`

func TestFleetParksATaskWhoseRunAlwaysCrashesAsFailed(t *testing.T) {
	r := newFleetRig(t)
	// Every turn kills the run's own process, as a crash would.
	r.srv.ServeFunc(func(llmtest.Request) llmtest.Turn {
		return llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("", "Bash", `{"command":"bash crash.sh"}`)}}
	})
	repo := r.sourceRepoWith(map[string]string{"crash.sh": crashScript})
	file := writeTasks(t, []fleet.Task{{ID: "crasher", Prompt: "fleet task crasher: crash", Repo: repo, AllowedTools: []string{"Bash"}}})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	r.fleet(ctx, "submit", file)
	r.startWorker("w1", "--ack-wait", "3s", "--max-deliver", "3")

	out, _ := r.fleet(ctx, "results", "--wait")
	res := readResults(t, out)["crasher"]
	if res.Status != fleet.StateFailed || res.Attempts != 3 {
		t.Fatalf("the crashing task ended as %+v; want failed after 3 attempts", res)
	}
	for _, want := range []string{"each of 3 deliveries", "without a result", "signal: killed"} {
		if !strings.Contains(res.Reason, want) {
			t.Errorf("reason %q lacks %q", res.Reason, want)
		}
	}
	runs := 0
	for _, req := range r.srv.Requests() {
		if req.AssistantTurns() == 0 {
			runs++
		}
	}
	if runs != 1 {
		t.Errorf("%d runs started afresh; the later attempts should resume the first one's transcript", runs)
	}
	out, _ = r.fleet(ctx, "status")
	if !strings.HasPrefix(out, "pending 0  running 0  done 0  failed 1  (queued messages 0") || !strings.Contains(out, "failed   crasher  after 3 attempts") {
		t.Errorf("status: %q", out)
	}
}

// serveSleeper scripts a task that sleeps a minute, long enough to be
// stopped in the middle, then answers.
func (r *fleetRig) serveSleeper() {
	r.srv.ServeFunc(func(req llmtest.Request) llmtest.Turn {
		if req.AssistantTurns() == 0 {
			return llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("", "Sleep", `{"label":"long","ms":60000}`)}}
		}
		return llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("finished " + requestTask(req))}}
	})
}

// waitSleeping waits until task's transcript in the object store holds its Sleep call.
func (r *fleetRig) waitSleeping(ctx context.Context, f *fleet.Fleet, task string) {
	r.t.Helper()
	waitFor(r.t, time.Minute, task+"'s transcript to hold its Sleep call", func() bool {
		data, err := f.Transcript(ctx, task)
		return err == nil && bytes.Contains(data, []byte(`"name":"Sleep"`))
	})
}

func TestFleetWorkerReleasesItsTaskOnSIGTERMAndAnotherResumesIt(t *testing.T) {
	r := newFleetRig(t)
	r.serveSleeper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	r.fleet(ctx, "submit", writeTasks(t, []fleet.Task{{ID: "long", Prompt: "fleet task long: sleep", Repo: r.sourceRepo()}}))
	first := r.startWorker("w1", "--ack-wait", "30s", "--grace", "0s")
	f := r.connect()
	r.waitSleeping(ctx, f, "long")

	first.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-first.done:
		if code := first.cmd.ProcessState.ExitCode(); code != 0 {
			t.Fatalf("the worker exited %d on SIGTERM", code)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("the worker did not stop within 15s of SIGTERM")
	}
	if !strings.Contains(first.log.String(), "task long: released unfinished") {
		t.Errorf("the worker did not release its task:\n%s", first.log.String())
	}
	// Released, the task goes to the next worker at once, not after the 30s ack wait.
	released := time.Now()
	r.startWorker("w2", "--ack-wait", "30s")
	out, _ := r.fleet(ctx, "results", "--wait")
	res := readResults(t, out)["long"]
	if res.Status != fleet.StateDone || !res.Resumed || res.Attempts != 2 || res.Worker != "w2" {
		t.Fatalf("the released task ended as %+v; want done, resumed by w2 on its second attempt", res)
	}
	if waited := time.Since(released); waited > 20*time.Second {
		t.Errorf("the released task took %s to finish on w2", waited)
	}
}

func TestFleetParksATaskWhoseWorkerDiedOnItsLastDelivery(t *testing.T) {
	r := newFleetRig(t)
	r.serveSleeper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	r.fleet(ctx, "submit", writeTasks(t, []fleet.Task{{ID: "doomed", Prompt: "fleet task doomed: sleep", Repo: r.sourceRepo()}}))
	victim := r.startWorker("w1", "--ack-wait", "2s", "--max-deliver", "1")
	f := r.connect()
	r.waitSleeping(ctx, f, "doomed")
	// w2 takes no task (there is none left to deliver) but hears the advisory.
	r.startWorker("w2", "--ack-wait", "2s", "--max-deliver", "1")
	victim.cmd.Process.Signal(syscall.SIGKILL)
	<-victim.done

	out, _ := r.fleet(ctx, "results", "--wait")
	res := readResults(t, out)["doomed"]
	if res.Status != fleet.StateFailed || res.Attempts != 1 || !strings.Contains(res.Reason, "no worker finished it in 1 deliveries") {
		t.Fatalf("the task ended as %+v; want parked as failed after its one delivery", res)
	}
	out, _ = r.fleet(ctx, "status")
	if !strings.HasPrefix(out, "pending 0  running 0  done 0  failed 1  (queued messages 0") {
		t.Errorf("status: %q", out)
	}
}

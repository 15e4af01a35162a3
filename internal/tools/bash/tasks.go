package bash

import (
	"crypto/rand"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mini-claude/mini-claude/internal/shell"
	"github.com/mini-claude/mini-claude/internal/tool"
)

// status is where a command is in its life.
type status string

// The statuses TaskOutput reports.
const (
	running   status = "running"
	completed status = "completed"
	failed    status = "failed"
	killed    status = "killed"
)

// task is one command of the session, from its start: in the foreground until
// it finishes, times out or was started in the background.
type task struct {
	id          string
	command     string
	description string
	proc        *shell.Process
	out         *outputLog
	started     time.Time
	// done is closed once the command has finished and status is final.
	done chan struct{}

	// The fields below are guarded by the manager's mutex.
	background bool
	status     status
	exit       shell.Exit
	// stopReason says why the session stopped the task ("stopped by TaskStop").
	stopReason string
	// readOffset is where the next TaskOutput starts reading.
	readOffset int64
	// waiters counts TaskOutput calls blocked on the task: they report its
	// end, so no notice is needed when one is waiting.
	waiters int
	limit   *time.Timer
}

// label names the task for notices: its description, or its command.
func (t *task) label() string {
	if t.description != "" {
		return t.description
	}
	line, _, _ := strings.Cut(t.command, "\n")
	if len(line) > 80 {
		line = line[:77] + "..."
	}
	return line
}

// manager holds the session's commands: the background tasks by id, and
// every process group started, so that closing the session kills them all,
// including children a finished command left running (`sleep 1000 &`), and
// ends the copy of their output; a command whose group is gone but whose
// output is still held open, by a process that left the group, is kept in
// leftovers for its copy to be ended too.
type manager struct {
	session   *tool.Session
	closeOnce sync.Once
	noticed   sync.Once

	mu        sync.Mutex
	tasks     map[string]*task
	groups    map[int]*shell.Process
	leftovers []*shell.Process
	closed    bool
	// watchers counts the goroutines that watch the commands (watch); none
	// is added once closed is set.
	watchers sync.WaitGroup
}

type managerKey struct{}

// managerOf returns the session's manager, registering its clean-up at the
// first use (tool.Value holds the session's lock while it creates the value,
// so OnClose cannot be called from inside it).
func managerOf(s *tool.Session) *manager {
	m := tool.Value(s, managerKey{}, func() *manager {
		return &manager{session: s, tasks: map[string]*task{}, groups: map[int]*shell.Process{}}
	})
	m.closeOnce.Do(func() { s.OnClose(m.close) })
	return m
}

// errSessionClosed is the error of a command started after the session ended.
var errSessionClosed = errors.New("the session has ended; no more commands can run in it")

// start runs a command as a task of the session. With background set it is
// a background task from its first instant, stopped after limit, so even one
// that ends at once is reported as one.
func (m *manager) start(spec shell.Spec, command, description string, out *outputLog, background bool, limit time.Duration) (*task, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, errSessionClosed
	}
	spec.Output = out
	proc, err := shell.Start(spec)
	if err != nil {
		return nil, err
	}
	t := &task{id: m.newID(), command: command, description: description, proc: proc, out: out,
		started: time.Now(), done: make(chan struct{}), status: running}
	m.tasks[t.id] = t
	m.groups[proc.Pid()] = proc
	if background {
		m.setBackground(t, limit)
	}
	m.watchers.Go(func() { m.watch(t) })
	return t, nil
}

// newID returns a task id like Claude Code's: "b" and eight base-36 characters.
func (m *manager) newID() string {
	const digits = "0123456789abcdefghijklmnopqrstuvwxyz"
	for {
		b := make([]byte, 8)
		_, _ = rand.Read(b)
		for i := range b {
			b[i] = digits[int(b[i])%len(digits)]
		}
		id := "b" + string(b)
		if m.tasks[id] == nil {
			return id
		}
	}
}

// watch waits for the command to finish, records how it ended and, for a
// background task nobody is waiting on, queues a notice for the model.
func (m *manager) watch(t *task) {
	<-t.proc.Done()
	exit := t.proc.Exit()
	gone := shell.GroupGone(t.proc.Pid())
	m.mu.Lock()
	t.exit = exit
	switch {
	case t.stopReason != "":
		t.status = killed
	case exit.Code == 0:
		t.status = completed
	default:
		t.status = failed
	}
	if t.limit != nil {
		t.limit.Stop()
	}
	if gone {
		delete(m.groups, t.proc.Pid())
		if t.proc.Copying() {
			m.leftovers = append(m.leftovers, t.proc)
		}
	}
	if !t.background {
		delete(m.tasks, t.id)
	}
	notify := t.background && t.waiters == 0 && t.stopReason != stoppedByTaskStop && !m.closed
	m.mu.Unlock()
	if notify {
		m.session.Notify(finishedNotice(t))
	}
	close(t.done)
}

// finishedNotice tells the model a background task ended, in Claude Code's
// <task-notification> form.
func finishedNotice(t *task) string {
	summary := fmt.Sprintf("Background command %q %s (exit code %d)", t.label(), t.status, t.exit.Code)
	if t.status == killed {
		summary = fmt.Sprintf("Background command %q was %s (exit code %d)", t.label(), t.stopReason, t.exit.Code)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "<task-notification>\n<task-id>%s</task-id>\n", t.id)
	if path := t.out.Path(); path != "" {
		fmt.Fprintf(&b, "<output-file>%s</output-file>\n", path)
	}
	fmt.Fprintf(&b, "<status>%s</status>\n<summary>%s</summary>\n", t.status, summary)
	b.WriteString("Read its output with TaskOutput.\n</task-notification>")
	return b.String()
}

// toBackground moves a running task to the background, with its output in a
// file and a limit after which it is stopped; it reports false when the task
// finished meanwhile.
func (m *manager) toBackground(t *task, limit time.Duration) bool {
	if !m.isRunning(t) {
		return false
	}
	_, err := t.out.Spill()
	m.reportSpill(t, err)
	m.mu.Lock()
	defer m.mu.Unlock()
	if t.status != running {
		return false
	}
	m.setBackground(t, limit)
	return true
}

// reportSpill tells the model when a background task's output could not be
// moved to its file (outputLog.Spill's error).
func (m *manager) reportSpill(t *task, err error) {
	if err != nil {
		m.session.Notify(fmt.Sprintf("The output of background task %s could not be written to a file (%v); only its start and end are kept.", t.id, err))
	}
}

// setBackground makes t a background task stopped after limit; m.mu is held.
func (m *manager) setBackground(t *task, limit time.Duration) {
	t.background = true
	t.limit = time.AfterFunc(limit, func() {
		m.stop(t, fmt.Sprintf("stopped after its %s limit", limit.Round(time.Second)))
	})
}

func (m *manager) isRunning(t *task) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return t.status == running
}

// stoppedByTaskStop is the stop reason of a task the model stopped; it needs no notice.
const stoppedByTaskStop = "stopped by TaskStop"

// stop terminates a running task, recording why, and waits until it is gone;
// it reports false when the task had already ended or was being stopped.
func (m *manager) stop(t *task, reason string) bool {
	m.mu.Lock()
	if t.status != running || t.stopReason != "" {
		m.mu.Unlock()
		return false
	}
	t.stopReason = reason
	m.mu.Unlock()
	t.proc.Terminate(shell.TerminateGrace)
	<-t.done
	return true
}

// lookup returns the background task with the id, or an error listing the
// session's tasks.
func (m *manager) lookup(id string) (*task, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if t := m.tasks[id]; t != nil && t.background {
		return t, nil
	}
	var ids []string
	for id, t := range m.tasks {
		if t.background {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	known := "This session has no background tasks."
	if len(ids) > 0 {
		known = "The background tasks of this session are: " + strings.Join(ids, ", ") + "."
	}
	return nil, fmt.Errorf("no background task has the ID %q. %s", id, known)
}

// close kills everything the session's commands started: running commands
// get SIGTERM and, after a short grace, SIGKILL, like the process groups that
// finished commands left behind. It returns once the goroutines of the
// commands have ended.
func (m *manager) close() {
	m.mu.Lock()
	m.closed = true
	var runningTasks []*task
	for _, t := range m.tasks {
		if t.status == running {
			runningTasks = append(runningTasks, t)
			if t.stopReason == "" {
				t.stopReason = "stopped because the session ended"
			}
		}
	}
	groups := make([]*shell.Process, 0, len(m.groups))
	for _, proc := range m.groups {
		groups = append(groups, proc)
	}
	leftovers := m.leftovers
	m.mu.Unlock()
	var wg sync.WaitGroup
	for _, t := range runningTasks {
		wg.Go(func() { t.proc.Terminate(closeGrace) })
	}
	wg.Wait()
	for _, proc := range groups {
		wg.Go(proc.Kill)
	}
	for _, proc := range leftovers {
		wg.Go(proc.Close)
	}
	wg.Wait()
	m.watchers.Wait()
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, t := range m.tasks {
		t.out.Close()
	}
}

// closeGrace is the SIGTERM grace of commands still running when the session ends.
const closeGrace = 200 * time.Millisecond

package bash

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/leakcheck"
)

func TestTimeoutMovesTheCommandToTheBackground(t *testing.T) {
	h := newHarness(t)
	start := time.Now()
	r := h.bash("echo before; sleep 3; echo after", `"timeout":500`)
	if d := time.Since(start); d > 2500*time.Millisecond {
		t.Errorf("the call took %v with a 500 ms timeout: it waited for the command", d)
	}
	if r.isError || r.out.TaskID == "" || r.out.ExitCode != -1 {
		t.Fatalf("got %q (error %v), output %+v", r.text, r.isError, r.out)
	}
	h.golden("moved-to-background", r.text)
	id := taskID(t, r.text)
	if id != r.out.TaskID {
		t.Errorf("text names %s, output %s", id, r.out.TaskID)
	}
	got := h.taskOutput(id)
	h.golden("task-output-completed", got)
	if notices := h.session.TakeNotices(); len(notices) != 0 {
		t.Errorf("a notice though TaskOutput was waiting: %q", notices)
	}
	if data, err := os.ReadFile(r.out.OutputPath); err != nil || string(data) != "before\nafter\n" {
		t.Errorf("output file: %q, %v", data, err)
	}
	if again := h.taskOutput(id, `"block":false`); strings.Contains(again, "<output>") {
		t.Errorf("a second read repeats output: %q", again)
	}
}

func TestRunInBackgroundAndNotice(t *testing.T) {
	h := newHarness(t)
	start := time.Now()
	r := h.bash("sleep 1.5; echo finished; exit 4", `"run_in_background":true`, `"description":"Wait and finish"`)
	if time.Since(start) > time.Second {
		t.Errorf("run_in_background took %v to return: it waited for the command", time.Since(start))
	}
	h.golden("run-in-background", r.text)
	id := taskID(t, r.text)
	first := h.taskOutput(id, `"block":false`)
	if !strings.HasPrefix(first, "<retrieval_status>not_ready</retrieval_status>") || !strings.Contains(first, "<status>running</status>") {
		t.Errorf("while running: %q", first)
	}
	deadline := time.Now().Add(5 * time.Second)
	var notices []string
	for len(notices) == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
		notices = h.session.TakeNotices()
	}
	if len(notices) != 1 {
		t.Fatalf("notices %q, want one", notices)
	}
	h.golden("task-notification", notices[0])
	done := h.taskOutput(id, `"block":false`)
	if !strings.Contains(done, "<status>failed</status>") || !strings.Contains(done, "<exit_code>4</exit_code>") || !strings.Contains(done, "finished") {
		t.Errorf("after the end: %q", done)
	}
}

func TestTaskOutputTimesOutAndStreams(t *testing.T) {
	h := newHarness(t)
	r := h.bash("for i in 1 2 3 4 5 6; do echo tick $i; sleep 0.3; done", `"run_in_background":true`)
	id := taskID(t, r.text)
	first := h.taskOutput(id, `"timeout":400`)
	if !strings.HasPrefix(first, "<retrieval_status>timeout</retrieval_status>") || !strings.Contains(first, "tick 1") {
		t.Errorf("first read %q", first)
	}
	rest := h.taskOutput(id, `"timeout":5000`)
	if strings.Contains(rest, "tick 1\n") || !strings.Contains(rest, "tick 6") || !strings.Contains(rest, "<status>completed</status>") {
		t.Errorf("second read %q", rest)
	}
}

func TestTaskStopKillsTheGroup(t *testing.T) {
	h := newHarness(t)
	marker := uniqueSleep(t)
	r := h.bash(marker+" & "+marker+" & wait", `"run_in_background":true`)
	id := taskID(t, r.text)
	deadline := time.Now().Add(2 * time.Second)
	for !processRunning(t, marker) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	stop, err := h.call(context.Background(), TaskStop, `{"task_id":"`+id+`"}`)
	if err != nil {
		t.Fatal(err)
	}
	var out TaskStopOutput
	if err := json.Unmarshal([]byte(stop.text), &out); err != nil || out.TaskID != id || out.TaskType != "local_bash" || !strings.HasPrefix(out.Message, "Successfully stopped task: "+id) {
		t.Errorf("TaskStop said %q (%v)", stop.text, err)
	}
	waitGone(t, marker)
	if got := h.taskOutput(id, `"block":false`); !strings.Contains(got, "<status>killed</status>") {
		t.Errorf("after TaskStop: %q", got)
	}
	if _, err := h.call(context.Background(), TaskStop, `{"task_id":"`+id+`"}`); err == nil || !strings.Contains(err.Error(), "not running") {
		t.Errorf("stopping twice: %v", err)
	}
	if notices := h.session.TakeNotices(); len(notices) != 0 {
		t.Errorf("notice for a task the model stopped: %q", notices)
	}
}

func TestUnknownTask(t *testing.T) {
	h := newHarness(t)
	if _, err := h.call(context.Background(), TaskOutput, `{"task_id":"bnope"}`); err == nil || !strings.Contains(err.Error(), "no background tasks") {
		t.Errorf("TaskOutput: %v", err)
	}
	r := h.bash("sleep 5", `"run_in_background":true`)
	id := taskID(t, r.text)
	if _, err := h.call(context.Background(), TaskStop, `{"task_id":"bnope"}`); err == nil || !strings.Contains(err.Error(), id) {
		t.Errorf("TaskStop: %v", err)
	}
	if _, err := h.call(context.Background(), TaskStop, `{"shell_id":"x"}`); err == nil {
		t.Error("TaskStop without task_id passed validation")
	}
}

func TestBackgroundLimitStopsTheTask(t *testing.T) {
	h := newHarness(t)
	marker := uniqueSleep(t)
	r := h.bash(marker, `"run_in_background":true`, `"timeout":300`)
	id := taskID(t, r.text)
	got := h.taskOutput(id, `"timeout":3000`)
	if !strings.Contains(got, "<status>killed</status>") || !strings.Contains(got, "<exit_code>143</exit_code>") {
		t.Errorf("got %q", got)
	}
	waitGone(t, marker)
}

func TestSessionEndKillsBackgroundTasks(t *testing.T) {
	h := newHarness(t)
	marker := uniqueSleep(t)
	h.bash("trap '' TERM; "+marker, `"run_in_background":true`)
	moved := h.bash(marker+" 2>/dev/null; echo never", `"timeout":200`)
	if moved.out.TaskID == "" {
		t.Fatalf("not moved: %q", moved.text)
	}
	start := time.Now()
	h.session.Close()
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("closing the session took %v", d)
	}
	waitGone(t, marker)
	if notices := h.session.TakeNotices(); len(notices) != 0 {
		t.Errorf("notices after the session ended: %q", notices)
	}
}

func TestLargeBackgroundOutputIsPreviewed(t *testing.T) {
	h := newHarness(t)
	r := h.bash("seq 1 30000", `"run_in_background":true`)
	got := h.taskOutput(taskID(t, r.text))
	if !strings.Contains(got, "<persisted-output>\nOutput too large (164.9KB). Full output saved to: "+r.out.OutputPath) ||
		!strings.Contains(got, "\n1\n2\n") || !strings.Contains(got, "29999\n30000\n</persisted-output>") {
		t.Errorf("got %q", got)
	}
}

// killMarked kills, by id, the processes whose command line holds marker.
func killMarked(t *testing.T, marker string) {
	out, err := exec.Command("ps", "-eo", "pid=,args=").Output()
	if err != nil {
		t.Errorf("ps: %v", err)
		return
	}
	for _, line := range strings.Split(string(out), "\n") {
		if pid, args, ok := strings.Cut(strings.TrimSpace(line), " "); ok && strings.Contains(args, marker) {
			if n, err := strconv.Atoi(pid); err == nil {
				_ = syscall.Kill(n, syscall.SIGKILL)
			}
		}
	}
}

func TestSessionEndEndsTheCopyOfTheOutputOfWhatCommandsLeftRunning(t *testing.T) {
	leakcheck.Ended(t)
	h := newHarness(t)
	inSession, escaped := uniqueSleep(t), uniqueSleep(t)+"1"
	t.Cleanup(func() { killMarked(t, escaped) })
	// Both children hold the output pipe of a command that has finished; the
	// second left the command's session, so no signal of the session's
	// reaches it.
	h.bash(inSession + " &")
	h.bash("setsid " + escaped + " &")
	start := time.Now()
	h.session.Close()
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("closing the session took %v", d)
	}
	const shell = "github.com/mini-claude/mini-claude/internal/shell."
	leakcheck.NotRunning(t, shell+"(*Process).copyOutput", shell+"(*Process).wait",
		"github.com/mini-claude/mini-claude/internal/tools/bash.(*manager).watch")
	waitGone(t, inSession)
}

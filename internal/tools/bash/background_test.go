package bash

import (
	"context"
	"strings"
	"testing"
	"time"
)

func TestRunningListsOnlyRunningBackgroundTasks(t *testing.T) {
	h := newHarness(t)
	m := managerOf(h.session)
	if got := m.running(); len(got) != 0 {
		t.Fatalf("Running before any command = %+v, want none", got)
	}
	h.bash("echo foreground")
	long := taskID(t, h.bash("sleep 30", `"run_in_background":true`, `"description":"Sleep a long time"`).text)
	short := taskID(t, h.bash("true", `"run_in_background":true`).text)
	h.taskOutput(short)
	got := m.running()
	if len(got) != 1 || got[0].id != long || got[0].command != "sleep 30" || got[0].description != "Sleep a long time" || got[0].outputPath == "" {
		t.Fatalf("Running = %+v, want only the sleeping task %s with its output file", got, long)
	}
	carried := h.session.Carried(nil)
	want := "- " + long + " (running since " + got[0].started.Format("15:04:05") + ") Sleep a long time: sleep 30; output in " +
		got[0].outputPath + "; read it with TaskOutput, stop it with TaskStop"
	if len(carried) != 1 || carried[0].Tag != "background-tasks" || len(carried[0].Lines) != 1 || carried[0].Lines[0] != want {
		t.Errorf("the session carries %+v, want the one line\n%s", carried, want)
	}
	if _, err := h.call(context.Background(), TaskStop, `{"task_id":"`+long+`"}`); err != nil {
		t.Fatal(err)
	}
	if got := m.running(); len(got) != 0 {
		t.Errorf("Running after TaskStop = %+v, want none", got)
	}
}

// TestABackgroundCommandThatEndsAtOnceIsStillATask: run_in_background
// answers with a task id however fast the command ends (one that ended
// before it was moved to the background used to answer as a foreground run).
func TestABackgroundCommandThatEndsAtOnceIsStillATask(t *testing.T) {
	h := newHarness(t)
	for range 20 {
		id := taskID(t, h.bash("true", `"run_in_background":true`).text)
		if got := h.taskOutput(id); !strings.Contains(got, "completed") {
			t.Fatalf("TaskOutput of %s = %q, want it completed", id, got)
		}
	}
}

// TestABackgroundCommandWithATinyTimeoutIsStillATask: a timeout that rounds
// to no time still runs the command as a background task (stopped at once),
// not as a foreground one the result calls a background task.
func TestABackgroundCommandWithATinyTimeoutIsStillATask(t *testing.T) {
	h := newHarness(t)
	id := taskID(t, h.bash("sleep 5", `"run_in_background":true`, `"timeout":1e-7`).text)
	if got := h.taskOutput(id); strings.Contains(got, "no background task") {
		t.Fatalf("TaskOutput of %s = %q, want the task", id, got)
	}
}

func TestShortDuration(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{10 * time.Minute, "10m"},
		{90 * time.Minute, "1h 30m"},
		{2 * time.Hour, "2h"},
		{time.Hour + 30*time.Second, "1h 0m 30s"},
		{45 * time.Second, "45s"},
		{0, "0s"},
	}
	for _, tt := range tests {
		if got := shortDuration(tt.d); got != tt.want {
			t.Errorf("shortDuration(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
}

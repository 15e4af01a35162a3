package bash

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/tool"
)

// TaskOutputInput asks for a background task's new output.
type TaskOutputInput struct {
	TaskID  string  `json:"task_id" jsonschema_description:"The ID of the background task, as the Bash result gave it"`
	Block   *bool   `json:"block,omitempty" jsonschema_description:"Whether to wait for the task to finish before answering (default true)"`
	Timeout float64 `json:"timeout,omitempty" jsonschema:"minimum=0,maximum=600000" jsonschema_description:"How long to wait when blocking, in milliseconds (default 30000, max 600000)"`
}

const defaultWait = 30 * time.Second

// TaskOutput returns what a background task printed since the last read, and
// whether it still runs.
var TaskOutput = tool.MustBuild(tool.Def[TaskOutputInput, string]{
	Name:               "TaskOutput",
	Aliases:            []string{"BashOutput"},
	SearchHint:         "read output of a background command",
	Description:        taskOutputDescription,
	MaxResultSizeChars: maxResultChars,
	IsReadOnly:         tool.Always[TaskOutputInput],
	IsConcurrencySafe:  tool.Always[TaskOutputInput],
	Call:               taskOutput,
})

const taskOutputDescription = `Returns the new output of a background task (a Bash command run with run_in_background, or moved to the background at its timeout) since the last time you read it, with its status: running, completed, failed or killed, and its exit code once it has ended.

- block (default true) waits until the task ends or timeout milliseconds pass (default 30000, max 600000); block: false answers at once.
- Output larger than 30000 characters comes as its start and end plus the path of the file that holds all of it.
- You are notified when a background task ends, so there is no need to poll in a loop.`

func taskOutput(ctx context.Context, in TaskOutputInput, env *tool.Env, _ tool.Progress) (string, error) {
	m := managerOf(env.Session)
	t, err := m.lookup(in.TaskID)
	if err != nil {
		return "", err
	}
	retrieval := "success"
	if in.Block == nil || *in.Block {
		wait := defaultWait
		if in.Timeout > 0 {
			wait = time.Duration(in.Timeout * float64(time.Millisecond))
		}
		if !m.await(ctx, t, wait) {
			if ctx.Err() != nil {
				return "", fmt.Errorf("interrupted while waiting for task %s: %w", t.id, ctx.Err())
			}
			retrieval = "timeout"
		}
	}
	m.mu.Lock()
	st, exit, from := t.status, t.exit, t.readOffset
	m.mu.Unlock()
	if st == running && retrieval == "success" && (in.Block != nil && !*in.Block) {
		retrieval = "not_ready"
	}
	v, end := t.out.Since(from)
	m.mu.Lock()
	t.readOffset = end
	m.mu.Unlock()
	sections := []string{
		"<retrieval_status>" + retrieval + "</retrieval_status>",
		"<task_id>" + t.id + "</task_id>",
		"<task_type>local_bash</task_type>",
		"<status>" + string(st) + "</status>",
	}
	if st != running {
		sections = append(sections, fmt.Sprintf("<exit_code>%d</exit_code>", exit.Code))
	}
	if text := renderView(v); text != "" {
		sections = append(sections, "<output>\n"+text+"\n</output>")
	}
	return strings.Join(sections, "\n\n"), nil
}

// await waits until the task ends, ctx is done or wait passes, and reports
// whether the task ended. While it waits, the task's end needs no notice: this
// call reports it.
func (m *manager) await(ctx context.Context, t *task, wait time.Duration) bool {
	m.mu.Lock()
	t.waiters++
	m.mu.Unlock()
	defer func() {
		m.mu.Lock()
		t.waiters--
		m.mu.Unlock()
	}()
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-t.done:
		return true
	case <-ctx.Done():
	case <-timer.C:
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return t.status != running
}

// TaskStopInput names the task to stop.
type TaskStopInput struct {
	TaskID string `json:"task_id" jsonschema_description:"The ID of the background task to stop"`
}

// TaskStopOutput is TaskStop's answer, in Claude Code's shape.
type TaskStopOutput struct {
	Message  string `json:"message"`
	TaskID   string `json:"task_id"`
	TaskType string `json:"task_type"`
	Command  string `json:"command,omitempty"`
}

// TaskStop stops a background task and every process it started.
var TaskStop = tool.MustBuild(tool.Def[TaskStopInput, TaskStopOutput]{
	Name:               "TaskStop",
	Aliases:            []string{"KillShell", "KillBash"},
	SearchHint:         "kill a running background task",
	Description:        "Stops a running background task by its ID: SIGTERM to the command and every process it started, then SIGKILL to what is left half a second later. Use it for servers and watchers you no longer need.",
	MaxResultSizeChars: 100_000,
	IsReadOnly:         tool.Never[TaskStopInput],
	IsConcurrencySafe:  tool.Always[TaskStopInput],
	// Stopping a task the model itself started needs no approval.
	CheckPermissions: func(context.Context, TaskStopInput, *tool.Env) tool.PermissionResult {
		return tool.PermissionResult{Behavior: tool.Allow}
	},
	Call:      taskStop,
	MapResult: stopResult,
})

func taskStop(_ context.Context, in TaskStopInput, env *tool.Env, _ tool.Progress) (TaskStopOutput, error) {
	m := managerOf(env.Session)
	t, err := m.lookup(in.TaskID)
	if err != nil {
		return TaskStopOutput{}, err
	}
	if !m.stop(t, stoppedByTaskStop) {
		m.mu.Lock()
		st := t.status
		m.mu.Unlock()
		return TaskStopOutput{}, fmt.Errorf("task %s is not running (its status is %s), so there is nothing to stop; read its output with TaskOutput", t.id, st)
	}
	return TaskStopOutput{Message: fmt.Sprintf("Successfully stopped task: %s (%s)", t.id, t.command),
		TaskID: t.id, TaskType: "local_bash", Command: t.command}, nil
}

func stopResult(out TaskStopOutput) []llm.ContentBlock {
	b, _ := json.Marshal(out)
	return []llm.ContentBlock{llm.TextBlock(string(b))}
}

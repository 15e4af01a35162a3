package bash

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mini-claude/mini-claude/internal/tool"
)

// backgroundTask describes a command of the session that runs in the background.
type backgroundTask struct {
	id          string
	command     string
	description string
	// outputPath is the file that holds the task's output.
	outputPath string
	started    time.Time
}

// running returns the session's background tasks that are still running,
// oldest first.
func (m *manager) running() []backgroundTask {
	m.mu.Lock()
	defer m.mu.Unlock()
	var list []backgroundTask
	for _, t := range m.tasks {
		if t.background && t.status == running {
			list = append(list, backgroundTask{id: t.id, command: t.command, description: t.description,
				outputPath: t.out.Path(), started: t.started})
		}
	}
	slices.SortFunc(list, func(a, b backgroundTask) int {
		if c := a.started.Compare(b.started); c != 0 {
			return c
		}
		return strings.Compare(a.id, b.id)
	})
	return list
}

// Carry lists the running background tasks one a line, as a compaction
// carries them over, with how to reach them.
func (m *manager) Carry([]string) tool.Section {
	tasks := m.running()
	lines := make([]string, len(tasks))
	for i, t := range tasks {
		label := t.command
		if t.description != "" {
			label = t.description + ": " + t.command
		}
		lines[i] = fmt.Sprintf("- %s (running since %s) %s; output in %s; read it with TaskOutput, stop it with TaskStop",
			t.id, t.started.Format("15:04:05"), label, t.outputPath)
	}
	return tool.Section{Tag: "background-tasks", Lines: lines}
}

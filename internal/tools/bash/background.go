package bash

import (
	"slices"
	"strings"
	"time"

	"github.com/mini-claude/mini-claude/internal/tool"
)

// BackgroundTask describes a command of the session that runs in the background.
type BackgroundTask struct {
	ID          string
	Command     string
	Description string
	// OutputPath is the file that holds the task's output.
	OutputPath string
	Started    time.Time
}

// Running returns the session's background tasks that are still running,
// oldest first: what compaction carries over and the UI lists.
func Running(s *tool.Session) []BackgroundTask {
	m := managerOf(s)
	m.mu.Lock()
	defer m.mu.Unlock()
	var list []BackgroundTask
	for _, t := range m.tasks {
		if t.background && t.status == running {
			list = append(list, BackgroundTask{ID: t.id, Command: t.command, Description: t.description,
				OutputPath: t.out.Path(), Started: t.started})
		}
	}
	slices.SortFunc(list, func(a, b BackgroundTask) int {
		if c := a.Started.Compare(b.Started); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return list
}

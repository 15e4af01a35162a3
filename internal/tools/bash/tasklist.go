package bash

import (
	"fmt"
	"slices"

	"github.com/mini-claude/mini-claude/internal/tool"
)

// TaskInfo describes one background task of a session, for the UI's /tasks.
type TaskInfo struct {
	ID      string
	Label   string
	Status  string
	Started string
}

// String is the task on one line: id, status and what it runs.
func (t TaskInfo) String() string {
	return fmt.Sprintf("%s  %-9s  %s (started %s)", t.ID, t.Status, t.Label, t.Started)
}

// Tasks lists the session's background tasks, oldest first.
func Tasks(s *tool.Session) []TaskInfo {
	m := managerOf(s)
	m.mu.Lock()
	defer m.mu.Unlock()
	var list []TaskInfo
	var order []*task
	for _, t := range m.tasks {
		if t.background {
			order = append(order, t)
		}
	}
	slices.SortFunc(order, func(a, b *task) int { return a.started.Compare(b.started) })
	for _, t := range order {
		list = append(list, TaskInfo{ID: t.id, Label: t.label(), Status: string(t.status), Started: t.started.Format("15:04:05")})
	}
	return list
}

package tool

import (
	"slices"
	"sync"
	"testing"
)

type counterKey struct{}

func TestSessionValueIsCreatedOnce(t *testing.T) {
	s := NewSession("/work")
	created := 0
	var wg sync.WaitGroup
	for range 10 {
		wg.Go(func() {
			Value(s, counterKey{}, func() *int { created++; n := 0; return &n })
		})
	}
	wg.Wait()
	if created != 1 {
		t.Errorf("created %d times, want once", created)
	}
}

func TestSessionCwdNoticesAndClose(t *testing.T) {
	s := NewSession("/work")
	s.SetCwd("/work/sub")
	if s.Cwd() != "/work/sub" || s.OriginalCwd() != "/work" {
		t.Errorf("Cwd = %q, OriginalCwd = %q", s.Cwd(), s.OriginalCwd())
	}
	s.Notify("task 1 finished")
	s.Notify("task 2 finished")
	if got := s.TakeNotices(); !slices.Equal(got, []string{"task 1 finished", "task 2 finished"}) || s.TakeNotices() != nil {
		t.Errorf("notices = %v, want both once", got)
	}
	var order []int
	s.OnClose(func() { order = append(order, 1) })
	s.OnClose(func() { order = append(order, 2) })
	s.Close()
	s.Close()
	s.OnClose(func() { order = append(order, 3) })
	if !slices.Equal(order, []int{2, 1, 3}) {
		t.Errorf("clean-ups ran in order %v, want [2 1 3]", order)
	}
}

// inheritedCount is a session value a sub-agent's session gets a copy of.
type inheritedCount struct{ n int }

func (c *inheritedCount) Inherit() any { return &inheritedCount{n: c.n} }

func TestAChildSessionCopiesOnlyInheritableValues(t *testing.T) {
	parent := NewSession("/project")
	parent.SetCwd("/project/sub")
	Value(parent, "files", func() *inheritedCount { return &inheritedCount{n: 2} })
	Value(parent, "tasks", func() *[]string { return &[]string{"b123"} })
	child := parent.Child()
	if child.OriginalCwd() != "/project" || child.Cwd() != "/project/sub" {
		t.Errorf("child in %s (started %s), want the parent's directories", child.Cwd(), child.OriginalCwd())
	}
	files := Value(child, "files", func() *inheritedCount { return &inheritedCount{} })
	if files.n != 2 {
		t.Errorf("the child's inherited value holds %d, want the parent's 2", files.n)
	}
	files.n = 5
	if Value(parent, "files", func() *inheritedCount { return nil }).n != 2 {
		t.Error("changing the child's copy changed the parent's value")
	}
	if tasks := Value(child, "tasks", func() *[]string { return &[]string{} }); len(*tasks) != 0 {
		t.Errorf("the child got the parent's non-inheritable value %v", *tasks)
	}
}

func TestSessionContextRoom(t *testing.T) {
	s := NewSession(t.TempDir())
	if _, known := s.ContextRoom(); known {
		t.Error("a new session knows its context room")
	}
	steps := []struct {
		set, use int
		want     int
	}{
		{set: 1000, use: 300, want: 700},
		{set: -1, use: 0, want: 0},
		{set: 50, use: 80, want: 0},
	}
	for _, st := range steps {
		s.SetContextRoom(st.set)
		s.UseContextRoom(st.use)
		if got, known := s.ContextRoom(); got != st.want || !known {
			t.Errorf("set %d, used %d: room %d (known %v), want %d", st.set, st.use, got, known, st.want)
		}
	}
	if _, known := s.Child().ContextRoom(); known {
		t.Error("a sub-agent's session inherits its parent's room")
	}
}

func TestMoveRootMovesRootAndCwdAndChildrenFollow(t *testing.T) {
	s := NewSession("/repo")
	s.SetCwd("/repo/sub")
	if s.Moved() != "" {
		t.Fatalf("Moved = %q before any move", s.Moved())
	}
	s.MoveRoot("/repo/.mini-claude/worktrees/feat")
	if s.OriginalCwd() != "/repo/.mini-claude/worktrees/feat" || s.Cwd() != s.OriginalCwd() || s.Moved() != s.OriginalCwd() {
		t.Errorf("after MoveRoot: root %q, cwd %q, moved %q", s.OriginalCwd(), s.Cwd(), s.Moved())
	}
	if child := s.Child(); child.Moved() != s.Moved() || child.OriginalCwd() != s.OriginalCwd() {
		t.Errorf("child root %q moved %q, want the parent's", child.OriginalCwd(), child.Moved())
	}
}

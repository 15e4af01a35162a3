package tool

import (
	"slices"
	"testing"
)

// carriedList is a session value that carries its items, less the edited ones.
type carriedList struct {
	tag   string
	items []string
}

func (l *carriedList) Carry(edited []string) Section {
	var lines []string
	for _, item := range l.items {
		if !slices.Contains(edited, item) {
			lines = append(lines, item)
		}
	}
	return Section{Tag: l.tag, Lines: lines}
}

type listKey string

func TestCarriedAsksEveryCarriedValueInTagOrder(t *testing.T) {
	s := NewSession("/work")
	Value(s, listKey("todos"), func() *carriedList { return &carriedList{tag: "todo-list", items: []string{"1. [pending] Test"}} })
	Value(s, listKey("plain"), func() *int { n := 3; return &n })
	Value(s, listKey("reads"), func() *carriedList { return &carriedList{tag: "files-read", items: []string{"/a", "/b"}} })
	got := s.Carried([]string{"/a"})
	want := []Section{{Tag: "files-read", Lines: []string{"/b"}}, {Tag: "todo-list", Lines: []string{"1. [pending] Test"}}}
	if !slices.EqualFunc(got, want, func(a, b Section) bool { return a.Tag == b.Tag && slices.Equal(a.Lines, b.Lines) }) {
		t.Errorf("Carried = %+v, want %+v", got, want)
	}
	if got := NewSession("/work").Carried(nil); len(got) != 0 {
		t.Errorf("a fresh session carries %+v, want nothing", got)
	}
}

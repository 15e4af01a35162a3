package tool

import (
	"cmp"
	"slices"
)

// Carried is a session value part of whose state a compaction keeps verbatim
// next to its summary, such as the todo list, the files read and the running
// background tasks: the agent asks the session for these (Session.Carried),
// not the tools that keep them.
type Carried interface {
	// Carry returns the value's section of the compacted message. edited are
	// the files the message already lists as changed, which a list of files
	// need not repeat.
	Carry(edited []string) Section
}

// Section is a part of the state a compaction carries: the compacted message
// holds it as <Tag>, its lines, </Tag>, and leaves it out when it has none.
type Section struct {
	Tag   string
	Lines []string
}

// Carried returns the sections of the session's Carried values, sorted by tag.
func (s *Session) Carried(edited []string) []Section {
	s.mu.Lock()
	var carried []Carried
	for _, v := range s.values {
		if c, ok := v.(Carried); ok {
			carried = append(carried, c)
		}
	}
	s.mu.Unlock()
	sections := make([]Section, 0, len(carried))
	for _, c := range carried {
		sections = append(sections, c.Carry(edited))
	}
	slices.SortFunc(sections, func(a, b Section) int { return cmp.Compare(a.Tag, b.Tag) })
	return sections
}

package todowrite

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/mini-claude/mini-claude/internal/tool"
)

// Restore sets the session's todo list from the input of the TodoWrite call
// that set it last, as a resumed session finds it in its transcript (Claude
// Code restores its list the same way); a list whose items are all completed
// is empty, as after the call itself, and so is the list of a nil input: a
// session that never called TodoWrite.
func Restore(s *tool.Session, input json.RawMessage) error {
	var in Input
	if input == nil {
		input = json.RawMessage(`{}`)
	}
	if err := json.Unmarshal(input, &in); err != nil {
		return fmt.Errorf("restore the todo list from the transcript: %w", err)
	}
	l := listOf(s)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.items = nil
	if !allCompleted(in.Todos) {
		l.items = slices.Clone(in.Todos)
	}
	return nil
}

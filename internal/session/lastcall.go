package session

import (
	"encoding/json"

	"github.com/mini-claude/mini-claude/internal/llm"
)

// LastCall returns the input of the transcript's last call of the tool
// named name whose result is not an error, before a compact boundary too: the
// state a tool keeps for the session (TodoWrite's list) outlives a
// compaction, so it is restored from the call that set it last. A call whose
// result the transcript lacks counts, as the tool ran before the session
// ended. False when there is no such call.
func (l *Loaded) LastCall(name string) (json.RawMessage, bool) {
	failed := map[string]bool{}
	for _, line := range l.Lines {
		if line.Type != TypeUser || line.Message == nil {
			continue
		}
		for _, b := range line.Message.Content {
			if b.Type == llm.BlockToolResult && b.IsError {
				failed[b.ToolUseID] = true
			}
		}
	}
	for i := len(l.Lines) - 1; i >= 0; i-- {
		line := l.Lines[i]
		if line.Type != TypeAssistant || line.Message == nil {
			continue
		}
		uses := line.Message.Content
		for j := len(uses) - 1; j >= 0; j-- {
			if b := uses[j]; b.Type == llm.BlockToolUse && b.Name == name && !failed[b.ID] {
				return b.Input, true
			}
		}
	}
	return nil, false
}

package agent

import (
	"context"
	"fmt"
	"slices"

	"github.com/mini-claude/mini-claude/internal/tool"
)

// Checkpoints keeps what files were before each prompt changed them, for
// /rewind (package checkpoint implements it). The executor is its one
// caller: around every call of a file tool (Write, Edit, NotebookEdit), a
// sub-agent's too, with the id of the user's prompt the call serves.
type Checkpoints interface {
	// Begin marks the start of the user's prompt, before its first call.
	Begin(prompt string) error
	// Snapshot stores the files at paths (absolute, symlinks followed) as
	// they are before the prompt's first change to each.
	Snapshot(prompt string, paths []string) error
	// Wrote notes the files at paths as a call of the prompt left them.
	Wrote(prompt string, paths []string) error
}

// PromptMark is a prompt of the conversation, as /rewind lists it: its id
// (the prompt id hooks and checkpoints know it by), what the user typed, and
// how many messages of the conversation came before it.
type PromptMark struct {
	ID   string
	Text string
	At   int
}

// CheckpointFailed says the files a call was about to change could not be
// stored, so /rewind cannot put them back; the call ran all the same.
type CheckpointFailed struct {
	Err error
}

// ConversationRewound says the conversation went back to before the prompt
// PromptID: that prompt and everything after it are gone from the history.
type ConversationRewound struct {
	PromptID string
}

func (CheckpointFailed) isEvent()    {}
func (ConversationRewound) isEvent() {}

// Prompts returns the prompts of the conversation that /rewind can go back
// before, oldest first: those since the last compaction, which replaced the
// ones before it by a summary.
func (a *Agent) Prompts() []PromptMark { return slices.Clone(a.marks) }

// Rewind takes the conversation back to before the prompt id, dropping it
// and every message after it, and returns the prompt. It must not run while
// Run does.
func (a *Agent) Rewind(id string) (PromptMark, error) {
	i := slices.IndexFunc(a.marks, func(m PromptMark) bool { return m.ID == id })
	if i < 0 {
		return PromptMark{}, fmt.Errorf("no prompt %s in the conversation", id)
	}
	mark := a.marks[i]
	a.messages = slices.Clone(a.messages[:mark.At])
	a.marks = a.marks[:i]
	if a.reportedLen > mark.At {
		a.reported, a.reportedLen = 0, 0
	}
	a.latestRequest = ""
	if i > 0 {
		a.latestRequest = a.marks[i-1].Text
	}
	if len(a.messages) == 0 {
		a.originalTask = ""
	}
	a.emit(ConversationRewound{PromptID: id})
	return mark, nil
}

// snapshot stores the files a file tool's call is about to change, when the
// session keeps checkpoints, and returns them for noteWritten.
func (a *Agent) snapshot(ctx context.Context, p *pending, env *tool.Env) []string {
	if a.opts.Checkpoints == nil {
		return nil
	}
	if _, edits := editTools[p.call.Tool().Name()]; !edits {
		return nil
	}
	paths := p.call.Accesses(ctx, env).Writes
	if err := a.opts.Checkpoints.Snapshot(a.promptID, paths); err != nil {
		a.emit(CheckpointFailed{Err: err})
	}
	return paths
}

// noteWritten tells the checkpoints how the call left the files it wrote.
func (a *Agent) noteWritten(paths []string) {
	if len(paths) == 0 {
		return
	}
	if err := a.opts.Checkpoints.Wrote(a.promptID, paths); err != nil {
		a.emit(CheckpointFailed{Err: err})
	}
}

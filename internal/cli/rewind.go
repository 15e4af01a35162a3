package cli

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/checkpoint"
	transcript "github.com/mini-claude/mini-claude/internal/session"
	"github.com/mini-claude/mini-claude/internal/tui"
)

// checkpointDir is the folder of a session's checkpoints, in its folder beside its transcript.
func checkpointDir(project, id string) string {
	return filepath.Join(transcript.Dir(project), id, "checkpoints")
}

// openCheckpoints gives the conversation the store of its session's
// checkpoints, which an earlier run of the session may have left; a store
// that cannot be read leaves the session without them, with a warning.
func (in *interactive) openCheckpoints(conv *conversation) {
	store, err := checkpoint.Open(checkpointDir(in.s.cwd, conv.id))
	if err != nil {
		// The UI may not run yet, and Warn waits for it.
		go in.ui.Warn(fmt.Sprintf("Checkpoints are off for this session: %v", err))
		return
	}
	conv.checkpoints = store
}

// checkpointer returns the conversation's store as the agent takes it: nil when there is none.
func (c *conversation) checkpointer() agent.Checkpoints {
	if c.checkpoints == nil {
		return nil
	}
	return c.checkpoints
}

// rewindPoints lists the conversation's prompts for /rewind, each with the
// number of files it changed.
func (in *interactive) rewindPoints() []tui.RewindPoint {
	marks := in.agent.Prompts()
	points := make([]tui.RewindPoint, len(marks))
	for i, m := range marks {
		points[i] = tui.RewindPoint{ID: m.ID, Prompt: m.Text}
		if in.conv.checkpoints != nil {
			points[i].Files = len(in.conv.checkpoints.Changed(m.ID))
		}
	}
	return points
}

// rewindPlan says which files restoring the code to before the prompt id
// would change, and which of them changed outside mini-claude.
func (in *interactive) rewindPlan(id string) (tui.RewindPlan, error) {
	if in.conv.checkpoints == nil {
		return tui.RewindPlan{}, nil
	}
	plan, err := in.conv.checkpoints.Plan(id)
	if err != nil {
		return tui.RewindPlan{}, err
	}
	return tui.RewindPlan{Files: plan.Paths(), Outside: plan.Outside()}, nil
}

// rewind restores the code, the conversation or both to before the prompt
// id: the code from the checkpoints (files changed outside only when the
// user said to overwrite them), the conversation by dropping the prompt and
// what followed, which the transcript records.
func (in *interactive) rewind(id string, c tui.RewindChoice) (tui.RewindOutcome, error) {
	var out tui.RewindOutcome
	var errs []error
	if c.Code && in.conv.checkpoints != nil {
		plan, err := in.conv.checkpoints.Plan(id)
		if err != nil {
			return out, err
		}
		res, err := in.conv.checkpoints.Restore(plan, c.Overwrite)
		out.Restored, out.Deleted, out.Kept = res.Restored, res.Deleted, res.Kept
		errs = append(errs, err)
	}
	if c.Conversation {
		if _, err := in.agent.Rewind(id); err != nil {
			return out, errors.Join(append(errs, err)...)
		}
		out.Conversation = &tui.Resumed{ID: in.conv.id, Messages: in.agent.Messages(), Results: in.conv.results}
	}
	return out, errors.Join(errs...)
}

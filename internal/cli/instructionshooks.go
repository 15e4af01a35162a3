package cli

import (
	"context"
	"sync"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/hooks"
	"github.com/mini-claude/mini-claude/internal/prompt"
)

// memoryTypes are Claude Code's names of the kinds of memory file.
var memoryTypes = map[string]string{prompt.KindUser: "User", prompt.KindProject: "Project", prompt.KindLocal: "Local"}

// instructionsLoaded runs the InstructionsLoaded hooks of each memory file
// (CLAUDE.md…) the session loaded as it started, in the background as
// Claude Code does: what they answer is ignored, and only the end of the
// session waits for them, with the wait it returns.
func (s *session) instructionsLoaded(ctx context.Context, conv *conversation, show func(agent.Event)) (wait func()) {
	const reason = "session_start"
	if !s.hooks.Has(hooks.InstructionsLoaded, reason) {
		return func() {}
	}
	var inputs []hooks.InstructionsLoadedInput
	for _, f := range s.memory().Files {
		inputs = append(inputs, hooks.InstructionsLoadedInput{Common: s.hookCommon(conv, hooks.InstructionsLoaded),
			FilePath: f.Path, MemoryType: memoryTypes[f.Kind], LoadReason: reason})
	}
	var wg sync.WaitGroup
	wg.Go(func() {
		for _, in := range inputs {
			s.hooks.Run(ctx, hooks.InstructionsLoaded, reason, in, observe(show))
		}
	})
	return wg.Wait
}

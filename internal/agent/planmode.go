package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/permission"
	"github.com/mini-claude/mini-claude/internal/planmode"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/workspace"
)

// ModeChanged says the session's permission mode changed during a turn: a
// plan was approved (ExitPlanMode) or an answer chose a mode. The change
// holds from the next call on; the front end shows it.
type ModeChanged struct {
	Mode permission.Mode
}

func (ModeChanged) isEvent() {}

// modeState is the permission mode a turn switched to, shared by an agent
// and its sub-agents; the session's permission context takes it when the
// run ends, so the front end, which changes that context only between
// turns, never races the loop.
type modeState struct {
	mu   sync.Mutex
	mode permission.Mode
}

func (s *modeState) get() permission.Mode {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.mode
}

// switchMode moves the session to mode from the next call on.
func (a *Agent) switchMode(mode permission.Mode) {
	if mode == "" || mode == a.permissions().Mode {
		return
	}
	a.mode.mu.Lock()
	a.mode.mode = mode
	a.mode.mu.Unlock()
	a.emit(ModeChanged{Mode: mode})
}

// settleMode writes the mode the run switched to into the session's
// permission context; only the main agent does, once its run ended.
func (a *Agent) settleMode() {
	if a.depth > 0 {
		return
	}
	a.mode.mu.Lock()
	defer a.mode.mu.Unlock()
	if a.mode.mode != "" {
		a.opts.Permissions.Mode = a.mode.mode
		a.mode.mode = ""
	}
}

// planReminder is the block that tells the model about plan mode with a
// prompt of the main conversation (see planmode.State.Prompt); nil for none.
func (a *Agent) planReminder(prompt string) []llm.ContentBlock {
	if a.depth > 0 {
		return nil
	}
	if text := planmode.Of(a.opts.Env.Session).Prompt(string(a.permissions().Mode), prompt); text != "" {
		return []llm.ContentBlock{llm.TextBlock(text)}
	}
	return nil
}

// withheld reports whether the session withholds the tool: a question to the
// user where nobody can answer it (a sub-agent, -p without an SDK client).
func (a *Agent) withheld(t tool.Tool) bool {
	return t.RequiresUserInteraction() && (a.depth > 0 || a.opts.NoUserInteraction)
}

// disabledMessage is Claude Code's answer to a call of a withheld tool.
func disabledMessage(name string) string {
	return fmt.Sprintf("Error: No such tool available: %s. %s is disabled for this session, in subagents as well as here.", name, name)
}

// askInput is the input whoever answers is asked about: what the tool adds
// for the question (ExitPlanMode's plan), or the call's input.
func askInput(ctx context.Context, p *pending, env *tool.Env) json.RawMessage {
	if in, err := p.call.AskInput(ctx, env); err == nil && in != nil {
		return in
	}
	if p.input != nil {
		return p.input
	}
	return p.use.Input
}

// planFile is the real path of the session's plan file, "" before it has one.
func (a *Agent) planFile() string {
	if path := planmode.Of(a.opts.Env.Session).Path(); path != "" {
		return workspace.RealPath(path)
	}
	return ""
}

// Package tui is the interactive terminal UI. It consumes the agent's event
// stream (the same one the headless printer reads) and answers permission
// asks with a dialog; it holds no agent logic. The agent runs on its own
// goroutine and reaches the UI only through OnEvent and Ask, which turn into
// messages of the bubbletea program.
package tui

import (
	"context"
	"errors"
	"io"

	tea "charm.land/bubbletea/v2"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/permission"
	"github.com/mini-claude/mini-claude/internal/tool"
)

// Options connect the UI to a session; cli fills them.
type Options struct {
	// Model and Cwd are shown in the status line.
	Model string
	Cwd   string
	// Permissions is the session's permission context. The UI changes it only
	// between turns (the mode on shift+tab, rules answered "don't ask again",
	// rules removed with /permissions), never while the agent runs.
	Permissions *permission.Context
	// Tools returns the session's tool pool, whose render hooks draw the calls.
	Tools func() []tool.Tool
	// Run runs one prompt through the agent and returns when the turn ends;
	// it is called on its own goroutine, never twice at once.
	Run func(ctx context.Context, prompt string) agent.Result
	// Clear starts a new conversation, for /clear; called between turns.
	Clear func()
	// SetModel switches the model of the next turns, for /model; called
	// between turns. Nil makes /model only show the model.
	SetModel func(model string) error
	// ContextWindow is the model's context size in tokens, for the context
	// use shown in the status line; 0 hides it.
	ContextWindow int
	// HistoryPath is the file of this project's past prompts; empty keeps none.
	HistoryPath string
	// Tasks describes the session's background tasks, one line each, for /tasks.
	Tasks func() []string
	// AddAllowRule saves a rule answered "yes, don't ask again" to the
	// project's local settings and returns the file it went to.
	AddAllowRule func(rule string) (string, error)
	// RemoveRule deletes a rule of a list (allow, ask, deny) from the
	// project's local settings, for /permissions remove, and returns the file
	// it was in, or "" when the file did not hold it; nil removes rules from
	// the session only.
	RemoveRule func(list, rule string) (string, error)
	// InitialPrompt, when set, is sent as soon as the UI opens.
	InitialPrompt string
	// In and Out are the terminal; nil means the process's standard streams.
	In  io.Reader
	Out io.Writer
}

// UI is a running terminal UI; it implements permission.Prompter.
type UI struct {
	program *tea.Program
	model   *model
}

// New builds the UI; Run shows it.
func New(opts Options) *UI {
	m := newModel(opts)
	var progOpts []tea.ProgramOption
	if opts.In != nil {
		progOpts = append(progOpts, tea.WithInput(opts.In))
	}
	if opts.Out != nil {
		progOpts = append(progOpts, tea.WithOutput(opts.Out))
	}
	return &UI{program: tea.NewProgram(m, progOpts...), model: m}
}

// Run shows the UI until the user leaves it; cancelling ctx leaves it too.
func (u *UI) Run(ctx context.Context) error {
	go func() {
		<-ctx.Done()
		u.program.Quit()
	}()
	_, err := u.program.Run()
	if errors.Is(err, tea.ErrProgramKilled) {
		return nil
	}
	u.model.interrupt()
	return err
}

// OnEvent hands an agent event to the UI; it is the agent's Options.OnEvent.
func (u *UI) OnEvent(e agent.Event) {
	u.program.Send(eventMsg{e})
}

// Ask shows the permission dialog and blocks the agent until the user answers
// or ctx ends (the turn was interrupted).
func (u *UI) Ask(ctx context.Context, p permission.Prompt) (permission.Answer, error) {
	if u.model.remembered(p.Rule) {
		return permission.Answer{Allow: true}, nil
	}
	reply := make(chan permission.Answer, 1)
	u.program.Send(askMsg{prompt: p, reply: reply})
	select {
	case a := <-reply:
		return a, nil
	case <-ctx.Done():
		u.program.Send(askCancelledMsg{})
		return permission.Answer{}, ctx.Err()
	}
}

// eventMsg carries an agent event into the program.
type eventMsg struct{ event agent.Event }

// askMsg opens the permission dialog; the answer goes to reply.
type askMsg struct {
	prompt permission.Prompt
	reply  chan permission.Answer
}

// askCancelledMsg closes a dialog whose turn was interrupted.
type askCancelledMsg struct{}

// turnDoneMsg says the agent's turn ended.
type turnDoneMsg struct{ result agent.Result }

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
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/commands"
	"github.com/mini-claude/mini-claude/internal/hooks"
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
	// Commands are the session's custom slash commands and skills: /help and
	// the / completion list them, and typing one sends it as a prompt.
	Commands *commands.Set
	// Run runs one prompt through the agent and returns when the turn ends;
	// it is called on its own goroutine, never twice at once.
	Run func(ctx context.Context, prompt string) agent.Result
	// RunNotices gives the model what background agents reported since its
	// last turn, in a turn of its own, and reports whether there was any;
	// called like Run, when a background agent has finished and no turn runs.
	RunNotices func(ctx context.Context) (agent.Result, bool)
	// Compact replaces the conversation by a summary, for /compact;
	// instructions say what the summary should focus on. Called between
	// turns, on its own goroutine; ctx ends when the user presses Esc.
	Compact func(ctx context.Context, instructions string) error
	// Clear starts a new conversation, for /clear; called between turns. An
	// error is shown; the conversation on screen is cleared only without one,
	// and then the warnings of opening the new one, "" when none, follow.
	Clear func() (warnings string, err error)
	// SetModel switches the model of the next turns, for /model; called
	// between turns. Nil makes /model only show the model.
	SetModel func(model string) error
	// ContextWindow returns a model's context size in tokens, for the
	// context use shown in the status line; nil hides it.
	ContextWindow func(model string) int
	// HistoryPath is the file of this project's past prompts; empty keeps none.
	HistoryPath string
	// Tasks describes the session's background tasks, one line each, for /tasks.
	Tasks func() []string
	// Todos returns the session's todo list, one item a line, for /todos;
	// "" when there is none.
	Todos func() string
	// Sessions lists the sessions /resume can switch to, newest first.
	Sessions func() ([]SessionChoice, error)
	// Resume replaces the conversation by the session id's, for /resume;
	// called between turns. Nil (or Sessions nil) disables /resume.
	Resume func(id string) (Resumed, error)
	// RewindPoints lists the prompts /rewind can go back before, oldest
	// first; nil (or Rewind nil) disables /rewind.
	RewindPoints func() []RewindPoint
	// RewindPlan says what restoring the code to before a prompt would
	// change; nil has no code to restore.
	RewindPlan func(id string) (RewindPlan, error)
	// Rewind restores the code, the conversation or both to before the
	// prompt id; called between turns. What it did is reported even with an error.
	Rewind func(id string, c RewindChoice) (RewindOutcome, error)
	// Resumed is the conversation the session resumed at start, shown first;
	// only its Messages and Results are read.
	Resumed Resumed
	// PickSession opens the /resume picker as soon as the UI opens.
	PickSession bool
	// PickSearch, when set, lists in that picker only the sessions whose
	// first prompt or id holds it, in any case.
	PickSearch string
	// AddAllowRule saves a rule answered "yes, don't ask again" to the
	// project's local settings and returns the file it went to; nil keeps
	// such rules for this session only (a folder that is not trusted, whose
	// local settings are not read).
	AddAllowRule func(rule string) (string, error)
	// RemoveRule deletes a rule of a list (allow, ask, deny) from the
	// project's local settings, for /permissions remove, and returns the file
	// it was in, or "" when the file did not hold it; nil removes rules from
	// the session only.
	RemoveRule func(list, rule string) (string, error)
	// StartNotice, when set, is shown first in the conversation: what the
	// session ignored of the folder, and why.
	StartNotice string
	// InitialPrompt, when set, is sent as soon as the UI opens.
	InitialPrompt string
	// PassEnv names the credentials mini-claude uses that the user's own
	// settings pass to child processes; a "!command" gets none of the others.
	PassEnv []string
	// Hooks are the session's configured hooks, which /hooks lists.
	Hooks []hooks.Hook
	// Notify runs the Notification hooks with Claude Code's message and
	// notification_type: a permission dialog open for
	// PermissionNotifyDelay (default 6 s), or the UI waiting for a prompt
	// for IdleNotifyDelay after a turn (default 60 s). It is called on the
	// UI's goroutine and must not block; nil notifies no one.
	Notify                                 func(message, notificationType string)
	PermissionNotifyDelay, IdleNotifyDelay time.Duration
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
// It returns once the turn, compaction or "!command" that was running has
// ended: leaving the UI cancels them.
func (u *UI) Run(ctx context.Context) error {
	quit := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		defer close(quit)
		u.program.Quit()
	})
	_, err := u.program.Run()
	if !stop() {
		<-quit
	}
	u.model.stopWork()
	if errors.Is(err, tea.ErrProgramKilled) {
		return nil
	}
	return err
}

// LeftByUser reports, once Run returned, whether the user left the UI
// (/exit, Ctrl+C twice) rather than the program being stopped.
func (u *UI) LeftByUser() bool { return u.model.quitting }

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

// Warn shows an error line in the conversation, such as an MCP server that
// failed; it may be called from any goroutine.
func (u *UI) Warn(text string) {
	u.program.Send(noticeMsg{text: text, warning: true})
}

// noticeMsg carries a line of information, or a warning, into the program.
type noticeMsg struct {
	text    string
	warning bool
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

// compactDoneMsg says a /compact ended; err is why it failed.
type compactDoneMsg struct{ err error }

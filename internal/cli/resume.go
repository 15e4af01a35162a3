package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/checkpoint"
	"github.com/mini-claude/mini-claude/internal/llm"
	transcript "github.com/mini-claude/mini-claude/internal/session"
	"github.com/mini-claude/mini-claude/internal/tool"
)

// Version is mini-claude's version, written on every transcript line.
var Version = "0.1.0"

// pickSession starts the value of --resume given without an id: choose the
// session in a picker, among those matching the search term that follows it
// (Claude Code's -r [value]: a session id, or a search term for the picker).
const pickSession = "\x00pick"

// resumeSearch reports whether --resume asks for the picker, and the search
// term given with it.
func resumeSearch(opts *Options) (search string, picking bool) {
	return strings.CutPrefix(opts.Resume, pickSession)
}

// conversation is the session a run adds to: its id, its transcript (nil when
// it cannot be written) and, when resumed, the conversation so far with what
// the transcript kept of its calls.
type conversation struct {
	id         string
	transcript *transcript.Transcript
	history    []llm.Message
	results    map[string]transcript.ToolResult
	// last is the resumed conversation's last response, which SessionStart
	// hooks are told of; nil for a new conversation or one without any.
	last *transcript.LastResponse
	// prompts are the resumed conversation's prompts /rewind can go back before.
	prompts []agent.PromptMark
	// checkpoints keeps the files before each prompt changed them, for
	// /rewind; nil in print mode, and when it cannot be opened.
	checkpoints *checkpoint.Store
}

// checkSessionFlags refuses combinations of the session flags that mean
// nothing; canPick says a bare --resume can open the session picker.
func checkSessionFlags(opts *Options, canPick bool) error {
	resuming := opts.Continue || opts.Resume != ""
	switch {
	case opts.Continue && opts.Resume != "":
		return usageError("--continue and --resume both choose the session to resume; use one of them")
	case strings.HasPrefix(opts.Resume, pickSession) && !canPick:
		return usageError("--resume without a session id (or with a search term) needs the interactive picker; in print mode pass the id (mini-claude -p -r <id> \"prompt\") or use --continue for the newest session")
	case opts.ForkSession && !resuming:
		return usageError("--fork-session copies a resumed session; use it with --continue or --resume")
	case opts.SessionID != "" && resuming && !opts.ForkSession:
		return usageError("--session-id names a new session; with --continue or --resume it needs --fork-session")
	}
	if opts.SessionID != "" {
		if err := transcript.ValidID(opts.SessionID); err != nil {
			return usageError("--session-id: %v", err)
		}
	}
	return nil
}

// openConversation starts the run's session: a new one, or the one --continue
// or --resume names with its conversation, repaired and with the tools' file
// state rebuilt. A resumed session that cannot be read is an error; a
// transcript that cannot be written is a warning, and the run goes on unsaved.
func openConversation(opts *Options, s *session, state *tool.Session, errOut io.Writer) (*conversation, error) {
	cfg := transcript.Config{Project: s.cwd, ID: opts.SessionID, Version: Version, Model: s.model, State: state,
		OnError: func(err error) { fmt.Fprintf(errOut, "Warning: %v\n", err) }}
	if cfg.ID == "" {
		cfg.ID = transcript.NewID()
	}
	if !opts.Continue && opts.Resume == "" {
		t, err := transcript.Create(cfg)
		if errors.Is(err, transcript.ErrExists) {
			return nil, usageError("--session-id: %v", err)
		}
		if err != nil {
			fmt.Fprintf(errOut, "Warning: %v; this session will not be saved\n", err)
		}
		return &conversation{id: cfg.ID, transcript: t}, nil
	}
	path, err := resumePath(opts, s.cwd)
	if err != nil {
		return nil, &ExitError{Code: ExitUsage, Err: err}
	}
	loaded, err := transcript.Load(path)
	if err != nil {
		return nil, &ExitError{Code: ExitFailed, Err: err}
	}
	for _, w := range loaded.Warnings {
		fmt.Fprintf(errOut, "Warning: %s\n", w)
	}
	current, stale := loaded.RestoreFiles(state)
	if opts.Verbose {
		fmt.Fprintf(errOut, "Resumed session %s: %d messages; of the files it read or wrote, %d are unchanged and %d changed since\n",
			loaded.ID, len(loaded.Messages), current, stale)
	}
	if !opts.ForkSession {
		cfg.ID = loaded.ID
	}
	t, err := transcript.Resume(cfg, loaded)
	if err != nil {
		fmt.Fprintf(errOut, "Warning: %v; this session will not be saved\n", err)
	}
	conv := &conversation{id: cfg.ID, transcript: t, history: loaded.Messages, results: loaded.Results, prompts: loaded.Prompts}
	if last, ok := loaded.LastResponse(); ok {
		conv.last = &last
	}
	return conv, nil
}

// resumePath finds the transcript --continue or --resume names.
func resumePath(opts *Options, project string) (string, error) {
	if opts.Continue {
		newest, err := transcript.Newest(project)
		if err != nil {
			return "", fmt.Errorf("--continue: %w; start one without --continue", err)
		}
		return newest.Path, nil
	}
	path, err := transcript.Find(project, opts.Resume)
	if err != nil {
		return "", fmt.Errorf("--resume: %w", err)
	}
	return path, nil
}

// record passes an event to the transcript, if the session has one.
func (c *conversation) record(e agent.Event) {
	if c.transcript != nil {
		c.transcript.OnEvent(e)
	}
}

// close ends the transcript; a session that never got a message leaves
// none, so that --continue and the /resume picker skip it.
func (c *conversation) close() {
	if c.checkpoints != nil {
		c.checkpoints.Close()
	}
	if c.transcript == nil {
		return
	}
	c.transcript.Close()
	if info, err := os.Stat(c.transcript.Path()); err == nil && info.Size() == 0 {
		os.Remove(c.transcript.Path())
	}
}

// joinResumeValue reads `-r <value>`, `--resume <value>` and
// `--resume=<value>` as the flag's value, since a flag with an optional value
// takes it only after '=': a session id, or else a search term for the
// picker, as Claude Code reads it; a bare -r (last, or before another flag)
// as "pick one".
func joinResumeValue(args []string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		if value, ok := strings.CutPrefix(a, "--resume="); ok && value != "" && transcript.ValidID(value) != nil {
			out = append(out, "--resume="+pickSession+value)
			continue
		}
		if a != "-r" && a != "--resume" {
			out = append(out, a)
			continue
		}
		next := ""
		if i+1 < len(args) {
			next = args[i+1]
		}
		switch {
		case next != "" && transcript.ValidID(next) == nil:
			out = append(out, "--resume="+next)
			i++
		case next != "" && !strings.HasPrefix(next, "-"):
			out = append(out, "--resume="+pickSession+next)
			i++
		default:
			out = append(out, "--resume="+pickSession)
		}
	}
	return out
}

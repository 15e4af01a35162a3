package cli

import (
	"context"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/google/uuid"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/config"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools/bash"
	"github.com/mini-claude/mini-claude/internal/tui"
)

// contextWindow is the context size the status line measures use against.
const contextWindow = 200_000

// runInteractive opens the terminal UI on a session in the working directory;
// prompt arguments become the first message.
func runInteractive(ctx context.Context, f *Factory, opts *Options) error {
	if !f.IO.InIsTerminal {
		return usageError(`the interactive UI needs a terminal; run a prompt headless with -p "your prompt"`)
	}
	if opts.MaxTurns < 0 {
		return usageError("--max-turns must be 0 (no limit) or more, not %d", opts.MaxTurns)
	}
	s, err := newSession(f, opts, f.IO.ErrOut)
	if err != nil {
		return err
	}
	client, err := f.NewClient(s.provider)
	if err != nil {
		return &ExitError{Code: ExitUsage, Err: err}
	}
	state := tool.NewSession(s.cwd)
	defer state.Close()
	agentOpts := agent.Options{
		Client: client, Model: s.model, System: s.systemPrompt(opts), Tools: s.pool,
		Permissions: s.perm, Env: s.env(uuid.NewString(), state), MaxTurns: opts.MaxTurns,
	}
	if s.provider.Local {
		agentOpts.Cost = func(llm.Usage) float64 { return 0 }
	}
	var ag *agent.Agent
	ui := tui.New(tui.Options{
		Model: s.model, Cwd: s.cwd, Permissions: s.perm, ContextWindow: contextWindow,
		Tools:         func() []tool.Tool { return s.pool },
		Run:           func(ctx context.Context, prompt string) agent.Result { return ag.Run(ctx, prompt) },
		Clear:         func() { ag = agent.New(agentOpts) },
		SetModel:      func(name string) error { return setModel(ag, &agentOpts, name) },
		HistoryPath:   historyPath(s.cwd),
		Tasks:         func() []string { return taskLines(state) },
		AddAllowRule:  func(rule string) (string, error) { return config.LocalPath(s.cwd), config.AddAllowRule(s.cwd, rule) },
		RemoveRule:    func(list, rule string) (string, error) { return removeLocalRule(s.cwd, list, rule) },
		InitialPrompt: strings.TrimSpace(strings.Join(opts.Prompt, " ")),
	})
	agentOpts.OnEvent = ui.OnEvent
	agentOpts.Prompter = ui
	ag = agent.New(agentOpts)
	return ui.Run(ctx)
}

func setModel(ag *agent.Agent, opts *agent.Options, name string) error {
	if full, ok := modelAliases[name]; ok {
		name = full
	}
	opts.Model = name
	ag.SetModel(name)
	return nil
}

func taskLines(state *tool.Session) []string {
	var lines []string
	for _, t := range bash.Tasks(state) {
		lines = append(lines, t.String())
	}
	return lines
}

var unsafePathChars = regexp.MustCompile(`[^A-Za-z0-9]`)

// historyPath is the file of the project's prompt history, under the user's
// mini-claude folder, one per working directory.
func historyPath(cwd string) string {
	home := config.Home()
	if home == "" {
		return ""
	}
	return filepath.Join(home, "projects", unsafePathChars.ReplaceAllString(cwd, "-"), "history.jsonl")
}

// removeLocalRule deletes a rule from the project's local settings and
// returns the file's path when it was there.
func removeLocalRule(cwd, list, rule string) (string, error) {
	removed, err := config.RemoveRule(cwd, list, rule)
	if err != nil || !removed {
		return "", err
	}
	return config.LocalPath(cwd), nil
}

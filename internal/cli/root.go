// Package cli is mini-claude's command line: the flags (Claude Code's names, so
// scripts carry over), headless runs with text, json and stream-json output,
// and the tools and system-prompt commands.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/mini-claude/mini-claude/internal/llm"
)

// Exit codes of the binary.
const (
	ExitOK          = 0
	ExitFailed      = 1
	ExitUsage       = 2
	ExitInterrupted = 130
)

// ExitError carries the exit code of a failure along with its one-line message;
// a nil Err is a failure the output has already told of, which adds no line.
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("exit status %d", e.Code)
	}
	return e.Err.Error()
}
func (e *ExitError) Unwrap() error { return e.Err }

func usageError(format string, args ...any) error {
	return &ExitError{Code: ExitUsage, Err: fmt.Errorf(format, args...)}
}

// IOStreams are the standard streams a command reads and writes.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
	// InIsTerminal says whether In is an interactive terminal rather than a pipe or file.
	InIsTerminal bool
}

// Factory holds what commands depend on, as fields a test can replace.
type Factory struct {
	IO *IOStreams
	// NewClient returns the model client of a provider; it fails when the
	// provider needs credentials and none are set.
	NewClient func(Provider) (llm.Client, error)
	// Getenv reads the environment.
	Getenv func(string) string
	// Getwd returns the working directory.
	Getwd func() (string, error)
}

// Options are the parsed flags and arguments of the root command.
type Options struct {
	Print              bool
	Prompt             []string
	OutputFormat       string
	Verbose            bool
	Model              string
	Provider           string
	MaxTurns           int
	Tools              []string
	ToolsSet           bool
	AllowedTools       []string
	DisallowedTools    []string
	PermissionMode     string
	SkipPermissions    bool
	SystemPrompt       string
	AppendSystemPrompt string
	AddDirs            []string
	CompactThreshold   int
	MCPConfig          []string
	StrictMCPConfig    bool
	// IncludeHookEvents reports every hook run in stream-json, not only SessionStart's.
	IncludeHookEvents bool
	// MaxBudgetUSD stops a headless run once it has cost this much; 0 is no limit.
	MaxBudgetUSD float64
	// Trust trusts the working folder for this run only, as if the user had
	// trusted it; nothing is recorded.
	Trust bool
	// Continue, Resume, SessionID and ForkSession choose the session: the
	// newest of the project, a given one (pickSession: pick one), the id of a
	// new one, a copy of the resumed one under a new id.
	Continue    bool
	Resume      string
	SessionID   string
	ForkSession bool
	// SDK are the flags the Agent SDK passes (sdkflags.go).
	SDK
	// Worktree names the git worktree --worktree starts the session in;
	// WorktreeSet says the flag was given, "" then asking for a made-up name.
	Worktree    string
	WorktreeSet bool
	// checkout is the checkout --worktree isolated the session from.
	checkout string
}

// NewCmdRoot builds the root command; runF, when not nil, replaces the run so a
// test can check flag parsing alone.
func NewCmdRoot(f *Factory, runF func(context.Context, *Options) error) *cobra.Command {
	opts := &Options{}
	cmd := &cobra.Command{
		Use:   "mini-claude [prompt]",
		Short: "A terminal coding agent: a model reads, searches, edits and runs code through permission-checked tools",
		Long: "mini-claude lets a language model work on the code in the current directory through typed,\n" +
			"permission-checked tools. Without -p it opens the interactive terminal UI; -p runs one prompt headless and prints the answer.",
		Args:          cobra.ArbitraryArgs,
		SilenceErrors: true,
		SilenceUsage:  true,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Prompt = args
			opts.ToolsSet = cmd.Flags().Changed("tools")
			opts.SettingSourcesSet = cmd.Flags().Changed("setting-sources")
			opts.WorktreeSet = cmd.Flags().Changed("worktree")
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			if opts.InputFormat != inputText && opts.InputFormat != inputStreamJSON {
				return usageError("--input-format %q: use text or stream-json", opts.InputFormat)
			}
			headless := opts.Print || opts.InputFormat == inputStreamJSON
			if !opts.WorktreeSet || !headless && !f.IO.InIsTerminal {
				return runMode(cmd.Context(), f, opts)
			}
			if err := checkHeadlessFlags(opts, headless); err != nil {
				return err
			}
			moved, tree, err := startInWorktree(cmd.Context(), f, opts)
			if err != nil {
				return err
			}
			err = runMode(cmd.Context(), moved, opts)
			if !headless {
				fmt.Fprint(f.IO.ErrOut, worktreeKept(tree))
			}
			return err
		},
	}
	fl := cmd.Flags()
	fl.BoolVarP(&opts.Print, "print", "p", false, "Run the prompt headless, print the answer and exit")
	fl.StringVar(&opts.OutputFormat, "output-format", "text", "Output of -p: text (the answer), json (one result object) or stream-json (one event per line)")
	fl.BoolVar(&opts.Verbose, "verbose", false, "Report retries, progress and hook runs on stderr in text mode")
	fl.StringVar(&opts.Model, "model", "", "Model to use, optionally after a provider: ollama/qwen3-coder (default $ANTHROPIC_MODEL, else "+llm.DefaultModel+")")
	fl.StringVar(&opts.Provider, "provider", "", "Model provider: anthropic, openai, or a local server: ollama, llamacpp, vllm (default anthropic)")
	fl.IntVar(&opts.MaxTurns, "max-turns", 0, "Stop after this many model turns (0: no limit)")
	fl.Float64Var(&opts.MaxBudgetUSD, "max-budget-usd", 0, "Stop a headless run once its API calls cost this many dollars (only with -p; 0: no limit)")
	fl.StringArrayVar(&opts.Tools, "tools", nil, `Offer exactly these built-in tools ("" for none, "default" for all)`)
	fl.StringArrayVar(&opts.AllowedTools, "allowedTools", nil, `Rules that allow tools without asking, e.g. "Read,Bash(git log:*)"`)
	fl.StringArrayVar(&opts.DisallowedTools, "disallowedTools", nil, `Rules that deny tools, e.g. "Bash(rm:*)" or "WebFetch"`)
	fl.StringArrayVar(&opts.AllowedTools, "allowed-tools", nil, "Same as --allowedTools")
	fl.StringArrayVar(&opts.DisallowedTools, "disallowed-tools", nil, "Same as --disallowedTools")
	fl.StringVar(&opts.PermissionMode, "permission-mode", "", "Permission mode: default, acceptEdits, plan or bypassPermissions")
	fl.BoolVar(&opts.SkipPermissions, "dangerously-skip-permissions", false, "Run every tool call without asking (bypassPermissions mode); deny rules still apply")
	fl.StringVar(&opts.SystemPrompt, "system-prompt", "", "Replace the built-in system prompt")
	fl.StringVar(&opts.AppendSystemPrompt, "append-system-prompt", "", "Append text to the system prompt")
	fl.StringArrayVar(&opts.AddDirs, "add-dir", nil, "Additional directories the tools may use")
	fl.IntVar(&opts.CompactThreshold, "compact-threshold", 0, "Compact the conversation when a request's input exceeds this many tokens (0: 80% of the model's context window)")
	addMCPFlags(fl, opts)
	addSDKFlags(fl, opts)
	addTrustFlag(fl, opts)
	fl.BoolVar(&opts.IncludeHookEvents, "include-hook-events", false, "With --output-format stream-json: report every hook run (hook_started, hook_response), not only SessionStart's")
	fl.BoolVarP(&opts.Continue, "continue", "c", false, "Continue the most recent session of this directory")
	fl.StringVarP(&opts.Resume, "resume", "r", "", "Resume the session with this id (without an id: pick one)")
	fl.StringVar(&opts.SessionID, "session-id", "", "Use this id (a UUID) for the new session")
	fl.BoolVar(&opts.ForkSession, "fork-session", false, "With --continue or --resume: copy the session under a new id instead of adding to it")
	fl.StringVarP(&opts.Worktree, "worktree", "w", "", "Start the session in a new git worktree under .mini-claude/worktrees/<name>, on the branch worktree-<name> (without a name: a made-up one)")
	cmd.AddCommand(newCmdTools(f), newCmdSystemPrompt(f), newCmdDoctor(f), newCmdMCP(f), newCmdCost(f), newCmdTrust(f), newCmdACP(f), newCmdFleet(f))
	return cmd
}

// checkHeadlessFlags refuses, before --worktree creates anything, the flags
// the headless run would refuse, so a refused run leaves no worktree behind.
func checkHeadlessFlags(opts *Options, headless bool) error {
	switch {
	case !headless:
		return nil
	case opts.InputFormat == inputStreamJSON:
		return checkStreamFlags(opts)
	default:
		return checkPrintFlags(opts)
	}
}

// runMode runs the session stream-json input asks for (the SDK protocol), the
// interactive UI, or with -p the headless run.
func runMode(ctx context.Context, f *Factory, opts *Options) error {
	if opts.InputFormat == inputStreamJSON {
		return runStream(ctx, f, opts)
	}
	if !opts.Print {
		return runInteractive(ctx, f, opts)
	}
	return runPrint(ctx, f, opts)
}

// Main runs the command line with args and returns the process exit code.
func Main(ctx context.Context, f *Factory, args []string) int {
	cmd := NewCmdRoot(f, nil)
	cmd.SetArgs(joinWorktreeValue(joinResumeValue(args)))
	cmd.SetIn(f.IO.In)
	cmd.SetOut(f.IO.Out)
	cmd.SetErr(f.IO.ErrOut)
	err := cmd.ExecuteContext(ctx)
	if err == nil {
		return ExitOK
	}
	var exit *ExitError
	if errors.As(err, &exit) && exit.Err == nil {
		return exit.Code
	}
	fmt.Fprintln(f.IO.ErrOut, "Error:", err)
	if exit != nil {
		return exit.Code
	}
	return ExitUsage
}

// System returns a Factory on the process's real streams and environment.
func System(newClient func(Provider) (llm.Client, error)) *Factory {
	stat, err := os.Stdin.Stat()
	terminal := err == nil && stat.Mode()&os.ModeCharDevice != 0
	return &Factory{
		IO:        &IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr, InIsTerminal: terminal},
		NewClient: newClient,
		Getenv:    os.Getenv,
		Getwd:     os.Getwd,
	}
}

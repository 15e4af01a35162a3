package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/llm"
	transcript "github.com/mini-claude/mini-claude/internal/session"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools"
)

// runPrint runs one prompt headless: nothing waits for input, a permission that
// would need asking is refused, and the output goes out in the chosen format.
func runPrint(ctx context.Context, f *Factory, opts *Options) error {
	switch opts.OutputFormat {
	case formatText, formatJSON, formatStreamJSON:
	default:
		return usageError("--output-format %q: use text, json or stream-json", opts.OutputFormat)
	}
	if err := checkSessionFlags(opts); err != nil {
		return err
	}
	if opts.MaxTurns < 0 {
		return usageError("--max-turns must be 0 (no limit) or more, not %d", opts.MaxTurns)
	}
	text, err := readPrompt(f.IO, opts.Prompt)
	if err != nil {
		return err
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
	conv, err := openConversation(opts, s, state, f.IO.ErrOut)
	if err != nil {
		return err
	}
	defer conv.close()
	price := llm.Cost
	if s.provider.Local {
		price = func(string, llm.Usage) float64 { return 0 }
	}
	p := &printer{format: opts.OutputFormat, out: f.IO.Out, errOut: f.IO.ErrOut, verbose: opts.Verbose,
		sessionID: conv.id, model: s.model, costs: transcript.NewCosts(price)}
	p.start(s, tools.Names(s.pool), keySource(s.provider, f.Getenv))
	agentOpts := agent.Options{
		Client: client, Model: s.model, System: s.systemPrompt(opts), Tools: s.pool,
		Permissions: s.perm, Env: s.env(conv.id, state), MaxTurns: opts.MaxTurns, History: conv.history,
		OnEvent: func(e agent.Event) {
			conv.record(e)
			p.costs.OnEvent(e)
			p.event(e)
		},
	}
	if s.provider.Local {
		agentOpts.Cost = func(llm.Usage) float64 { return 0 }
	}
	res := agent.New(agentOpts).Run(ctx, text)
	p.finish(res)
	return exitFor(res, s.provider, f.Getenv)
}

// readPrompt joins the prompt arguments with whatever is piped on stdin, as in
// `git diff | mini-claude -p "review this"`.
func readPrompt(streams *IOStreams, args []string) (string, error) {
	var parts []string
	if !streams.InIsTerminal && streams.In != nil {
		piped, err := io.ReadAll(streams.In)
		if err != nil {
			return "", &ExitError{Code: ExitUsage, Err: fmt.Errorf("read the prompt from stdin: %w", err)}
		}
		if s := strings.TrimSpace(string(piped)); s != "" {
			parts = append(parts, s)
		}
	}
	if s := strings.TrimSpace(strings.Join(args, " ")); s != "" {
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return "", usageError(`no prompt: give one as an argument (mini-claude -p "explain this repo") or pipe it on stdin`)
	}
	return strings.Join(parts, "\n\n"), nil
}

// exitFor maps how the run ended to the exit code and the one line on stderr.
func exitFor(res agent.Result, p Provider, getenv func(string) string) error {
	switch res.Outcome {
	case agent.Completed:
		return nil
	case agent.Interrupted:
		return &ExitError{Code: ExitInterrupted, Err: errors.New("interrupted")}
	case agent.MaxTurnsReached:
		return &ExitError{Code: ExitFailed, Err: fmt.Errorf("%w; raise --max-turns to let the run go on", res.Err)}
	}
	var apiErr *llm.APIError
	switch {
	case errors.As(res.Err, &apiErr) && (apiErr.Status == 401 || apiErr.Status == 403):
		return &ExitError{Code: ExitFailed, Err: fmt.Errorf("%w; %s", res.Err, credentialHint(p))}
	case errors.As(res.Err, &apiErr) && apiErr.Retryable:
		return &ExitError{Code: ExitFailed, Err: fmt.Errorf("%w; the request failed after retries, %s", res.Err, serverHint(p, getenv))}
	case errors.As(res.Err, &apiErr):
		return &ExitError{Code: ExitFailed, Err: fmt.Errorf("%w; %s", res.Err, serverHint(p, getenv))}
	case errors.Is(res.Err, agent.ErrLoop):
		return &ExitError{Code: ExitFailed, Err: fmt.Errorf("stopped: %w; rephrase the task or check the tool it keeps calling", res.Err)}
	}
	return &ExitError{Code: ExitFailed, Err: res.Err}
}

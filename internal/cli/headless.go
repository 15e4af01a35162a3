package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/mcp"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools"
	"github.com/mini-claude/mini-claude/internal/tools/subagent"
)

// runPrint runs one prompt headless: nothing waits for input, a permission that
// would need asking is refused, and the output goes out in the chosen format.
func runPrint(ctx context.Context, f *Factory, opts *Options) error {
	tools.Prepare()
	if err := checkPrintFlags(opts); err != nil {
		return err
	}
	text, err := readPrompt(f.IO, opts.Prompt)
	if err != nil {
		return err
	}
	s, err := newSession(f, opts, f.IO.ErrOut)
	if err != nil {
		return err
	}
	fmt.Fprint(f.IO.ErrOut, s.notice(s.heldServers))
	s.warnRefusedMemory(f.IO.ErrOut)
	client, err := f.NewClient(s.provider)
	if noCredentials(err) {
		err = fmt.Errorf("%w; or run mini-claude without -p once to save a key or pick a local model server", err)
	}
	if err != nil {
		return &ExitError{Code: ExitUsage, Err: err}
	}
	servers := mcp.Start(s.mcpServers, mcpLimits(f.Getenv, s.passEnv))
	defer servers.Close()
	defer reportFailedServers(servers, f.IO.ErrOut)
	state := tool.NewSession(s.cwd)
	defer state.Close()
	conv, err := openConversation(opts, s, state, f.IO.ErrOut)
	if err != nil {
		return err
	}
	defer conv.close()
	servers.Wait(ctx, mcpWait(f.Getenv))
	pool := func() []tool.Tool { return s.poolWith(servers) }
	p := &printer{format: opts.OutputFormat, out: f.IO.Out, errOut: f.IO.ErrOut, verbose: opts.Verbose,
		includeHooks: opts.IncludeHookEvents, sessionID: conv.id, model: s.model, maxBudgetUSD: opts.MaxBudgetUSD}
	p.start(s, tool.Names(answerable(pool())), mcpServerEvents(servers), keySource(s.provider, f.Getenv))
	agentOpts := s.agentOptions(opts, client, servers, conv, state, p.event)
	agentOpts.UnknownCommands = true
	agentOpts.NoUserInteraction = true
	agentOpts.StartContext = s.sessionStart(ctx, conv, startSource(opts), f.IO.ErrOut, p.event)
	instructionsRan := s.instructionsLoaded(ctx, conv, p.event)
	a := agent.New(agentOpts)
	res := runWithBackground(ctx, a, state, text, p)
	instructionsRan()
	s.sessionEnd(conv, "other", a.PromptID(), p.event)
	p.finish(res)
	return exitFor(res, s.provider, f.Getenv)
}

// checkPrintFlags refuses the flags a -p run cannot run with.
func checkPrintFlags(opts *Options) error {
	switch opts.OutputFormat {
	case formatText, formatJSON, formatStreamJSON:
	default:
		return usageError("--output-format %q: use text, json or stream-json", opts.OutputFormat)
	}
	if err := checkSessionFlags(opts, false); err != nil {
		return err
	}
	return checkRunFlags(opts)
}

// runWithBackground runs the prompt (with its attached blocks), then, as long as background agents the
// run started are still working, waits for them and gives the model their
// reports in a new turn, as Claude Code does: -p does not exit while a
// background agent works, and no report is lost. Each run but the last is
// reported to p as a turn of its own.
func runWithBackground(ctx context.Context, a *agent.Agent, state *tool.Session, prompt string, p *printer, attached ...llm.ContentBlock) agent.Result {
	res := a.Run(ctx, prompt, attached...)
	for res.Outcome == agent.Completed && subagent.Launched(state) > 0 {
		if err := subagent.WaitAny(ctx, state); err != nil {
			p.finishTurn(res)
			return agent.Result{Outcome: agent.Interrupted, Err: err}
		}
		next, ran := a.RunNotices(ctx)
		if !ran {
			if subagent.Running(state) == 0 {
				return res
			}
			continue
		}
		p.finishTurn(res)
		res = next
	}
	return res
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
	case agent.MaxBudgetReached:
		return &ExitError{Code: ExitFailed, Err: fmt.Errorf("%w; raise --max-budget-usd to let the run go on", res.Err)}
	}
	var apiErr *llm.APIError
	switch {
	case errors.As(res.Err, &apiErr) && (apiErr.Status == 401 || apiErr.Status == 403):
		return &ExitError{Code: ExitFailed, Err: fmt.Errorf("%w; %s", res.Err, credentialHint(p))}
	case errors.As(res.Err, &apiErr) && apiErr.Retryable:
		return &ExitError{Code: ExitFailed, Err: fmt.Errorf("%w; the request failed after retries, %s", res.Err, serverHint(p, getenv))}
	case errors.As(res.Err, &apiErr):
		return &ExitError{Code: ExitFailed, Err: fmt.Errorf("%w; %s", res.Err, serverHint(p, getenv))}
	case errors.Is(res.Err, agent.ErrHookInterrupt):
		// As Claude Code: the result (or "Execution error" in text) says it all.
		return &ExitError{Code: ExitFailed}
	case errors.Is(res.Err, agent.ErrLoop):
		return &ExitError{Code: ExitFailed, Err: fmt.Errorf("stopped: %w; rephrase the task or check the tool it keeps calling", res.Err)}
	}
	return &ExitError{Code: ExitFailed, Err: res.Err}
}

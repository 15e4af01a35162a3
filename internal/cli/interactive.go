package cli

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/config"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/mcp"
	transcript "github.com/mini-claude/mini-claude/internal/session"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools/bash"
	"github.com/mini-claude/mini-claude/internal/tools/subagent"
	"github.com/mini-claude/mini-claude/internal/tools/todowrite"
	"github.com/mini-claude/mini-claude/internal/tui"
)

// runInteractive opens the terminal UI on a session in the working directory;
// prompt arguments become the first message. The agent is assembled as in
// print mode; the MCP servers connect while the UI is already open, which
// shows each one that fails, while starting or later.
func runInteractive(ctx context.Context, f *Factory, opts *Options) error {
	if !f.IO.InIsTerminal {
		return usageError(`the interactive UI needs a terminal; run a prompt headless with -p "your prompt"`)
	}
	if err := checkRunFlags(opts); err != nil {
		return err
	}
	if err := checkSessionFlags(opts, true); err != nil {
		return err
	}
	if err := settleTrust(ctx, f, opts); err != nil {
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
	search, picking := resumeSearch(opts)
	first := *opts
	if picking {
		first.Resume = ""
	}
	conv, err := openConversation(&first, s, state, f.IO.ErrOut)
	if err != nil {
		return err
	}
	servers := mcp.Start(s.mcpServers, mcpLimits(f.Getenv, s.passEnv))
	defer servers.Close()
	hooksCtx, stopHooks := context.WithCancel(ctx)
	defer stopHooks()
	in := &interactive{s: s, opts: opts, client: client, servers: servers, state: state, ctx: hooksCtx, stopHooks: stopHooks}
	defer func() { in.conv.close() }()
	in.ui = tui.New(tui.Options{
		Model: s.model, Cwd: s.cwd, Permissions: s.perm, ContextWindow: llm.ContextWindow,
		Tools:                 func() []tool.Tool { return s.poolWith(servers) },
		Commands:              s.commands,
		Run:                   in.run,
		RunNotices:            in.runNotices,
		Compact:               func(ctx context.Context, instructions string) error { return in.agent.Compact(ctx, instructions) },
		Clear:                 in.clear,
		SetModel:              in.setModel,
		HistoryPath:           historyPath(s.cwd),
		Tasks:                 func() []string { return taskLines(state) },
		Todos:                 func() string { return todowrite.Format(todowrite.List(state)) },
		Sessions:              in.sessions,
		Resume:                in.resume,
		RewindPoints:          in.rewindPoints,
		RewindPlan:            in.rewindPlan,
		Rewind:                in.rewind,
		Resumed:               tui.Resumed{Messages: conv.history, Results: conv.results},
		PickSession:           picking,
		PickSearch:            search,
		AddAllowRule:          s.addAllowRule(),
		StartNotice:           strings.TrimSpace(s.notice(s.heldServers)),
		RemoveRule:            func(list, rule string) (string, error) { return removeLocalRule(s.cwd, list, rule) },
		InitialPrompt:         strings.TrimSpace(strings.Join(opts.Prompt, " ")),
		PassEnv:               s.passEnv,
		Hooks:                 s.hooks.Hooks(),
		Notify:                in.notifier(),
		PermissionNotifyDelay: notifyDelay(f.Getenv, permissionNotifyEnv),
		IdleNotifyDelay:       notifyDelay(f.Getenv, idleNotifyEnv),
	})
	in.use(conv)
	in.startSession(startSource(&first))
	instructionsRan := s.instructionsLoaded(ctx, in.conv, in.ui.OnEvent)
	watchCtx, stopWatching := context.WithCancel(ctx)
	defer stopWatching()
	servers.WatchFailures(watchCtx, func(st mcp.Status) { in.ui.Warn(serverFailure(st)) })
	err = in.ui.Run(ctx)
	reason := "other"
	if in.ui.LeftByUser() {
		reason = "prompt_input_exit"
	}
	in.endHooks()
	instructionsRan()
	in.endSession(reason)
	return err
}

// interactive is an interactive session: the agent of its current
// conversation, which /clear and /resume replace between turns.
type interactive struct {
	s       *session
	opts    *Options
	client  llm.Client
	servers *mcp.Manager
	state   *tool.Session
	ui      *tui.UI
	conv    *conversation
	agent   *agent.Agent
	// ctx is the session's: the hooks run in the background stop with it,
	// or when stopHooks is called once the UI has ended.
	ctx       context.Context
	stopHooks context.CancelFunc
	// hooksRunning counts the hooks run in the background: SessionStart,
	// Notification, and the SessionEnd of a /clear.
	hooksRunning sync.WaitGroup
	// started is closed once the conversation's SessionStart hooks ran.
	started chan struct{}
}

// use makes conv the session's conversation, with an agent holding its history.
func (in *interactive) use(conv *conversation) {
	in.conv = conv
	in.openCheckpoints(conv)
	agentOpts := in.s.agentOptions(in.opts, in.client, in.servers, conv, in.state, in.ui.OnEvent)
	agentOpts.Prompter = in.ui
	in.agent = agent.New(agentOpts)
}

// clear starts a new conversation, with a transcript of its own, for /clear,
// and returns what opening it warned about for the UI to show.
func (in *interactive) clear() (string, error) {
	fresh := *in.opts
	fresh.Continue, fresh.Resume, fresh.SessionID, fresh.ForkSession = false, "", "", false
	var warnings strings.Builder
	conv, err := openConversation(&fresh, in.s, in.state, &warnings)
	if err != nil {
		return "", err
	}
	in.endSession("clear")
	in.conv.close()
	in.use(conv)
	in.startSession("clear")
	return strings.TrimSpace(warnings.String()), nil
}

// resume replaces the conversation with the session id's, as -r id does,
// and returns its messages for the UI to show.
func (in *interactive) resume(id string) (tui.Resumed, error) {
	chosen := *in.opts
	chosen.Continue, chosen.Resume = false, id
	if !chosen.ForkSession {
		chosen.SessionID = ""
	}
	var warnings strings.Builder
	conv, err := openConversation(&chosen, in.s, in.state, &warnings)
	if err != nil {
		return tui.Resumed{}, err
	}
	in.conv.close()
	in.use(conv)
	in.startSession(startSource(&chosen))
	return tui.Resumed{ID: conv.id, Messages: conv.history, Results: conv.results, Warnings: strings.TrimSpace(warnings.String())}, nil
}

// reportDelay bounds the wait for the report of a background agent whose end
// was announced: the report is queued right after the announcement.
const reportDelay = 2 * time.Second

// runNotices gives the model the reports of the background agents that
// ended, as print mode does after its turn; when the report of the agent
// just announced is not queued yet, it waits for it a moment.
func (in *interactive) runNotices(ctx context.Context) (agent.Result, bool) {
	wait, cancel := context.WithTimeout(ctx, reportDelay)
	defer cancel()
	for {
		if res, ran := in.agent.RunNotices(ctx); ran {
			return res, true
		}
		if subagent.Running(in.state) == 0 || subagent.WaitAny(wait, in.state) != nil {
			return agent.Result{}, false
		}
	}
}

// sessions lists the project's sessions for the /resume picker, newest first,
// leaving out the current one and those without a message.
func (in *interactive) sessions() ([]tui.SessionChoice, error) {
	infos, err := transcript.List(in.s.cwd)
	if err != nil {
		return nil, err
	}
	var choices []tui.SessionChoice
	for _, info := range infos {
		if info.ID == in.conv.id || info.MessageCount == 0 {
			continue
		}
		choices = append(choices, tui.SessionChoice{ID: info.ID, FirstPrompt: info.FirstPrompt,
			Modified: info.Modified, Messages: info.MessageCount})
	}
	return choices, nil
}

func (in *interactive) setModel(name string) error {
	if full, ok := modelAliases[name]; ok {
		name = full
	}
	in.s.model = name
	in.agent.SetModel(name)
	return nil
}

func taskLines(state *tool.Session) []string {
	var lines []string
	for _, t := range bash.Tasks(state) {
		lines = append(lines, t.String())
	}
	return lines
}

// historyPath is the file of the project's prompt history, in the project's
// folder of transcripts.
func historyPath(cwd string) string {
	return filepath.Join(transcript.Dir(cwd), "history.jsonl")
}

// addAllowRule saves "don't ask again" answers to the project's local
// settings; in a folder that is not trusted those settings are not read, so
// the answers hold for the session only (nil).
func (s *session) addAllowRule() func(string) (string, error) {
	if !s.gate.Trusted() {
		return nil
	}
	return func(rule string) (string, error) { return config.LocalPath(s.cwd), config.AddAllowRule(s.cwd, rule) }
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

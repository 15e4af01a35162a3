package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/credentials"
	"github.com/mini-claude/mini-claude/internal/hooks"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/mcp"
	"github.com/mini-claude/mini-claude/internal/permission"
	"github.com/mini-claude/mini-claude/internal/sdkproto"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools/subagent"
)

// sdkIdentity opens the system prompt an Agent SDK program replaces, as
// Claude Code opens it.
const sdkIdentity = "You are a Claude agent, built on Anthropic's Claude Agent SDK."

// stream is a session served to an Agent SDK program (--input-format
// stream-json): the program's user messages are its turns, one at a time,
// on one conversation, until its input ends; its control requests configure
// the session (initialize) and steer it (interrupt, set_permission_mode,
// set_model); the session asks it what the UI would ask a user.
type stream struct {
	f      *Factory
	opts   *Options
	s      *session
	conn   *sdkproto.Conn
	client llm.Client
	p      *printer
	// partial, with --include-partial-messages, writes stream_event lines.
	partial *sdkproto.Partial

	// Set by start, on the first user message.
	servers *mcp.Manager
	state   *tool.Session
	conv    *conversation
	agent   *agent.Agent
	pool    func() []tool.Tool
	ended   func()
	turns   int

	// mu guards what the control requests change while a turn runs: the
	// turn's cancel function and the mode and model for the next turn.
	mu        sync.Mutex
	cancel    context.CancelFunc
	nextMode  permission.Mode
	nextModel string
}

// checkStreamFlags refuses the flags a stream-json session cannot run with.
func checkStreamFlags(opts *Options) error {
	if opts.OutputFormat != formatStreamJSON {
		return usageError("--input-format stream-json needs --output-format stream-json")
	}
	if opts.PermissionPromptTool != "" && opts.PermissionPromptTool != "stdio" {
		return usageError("--permission-prompt-tool %q: only stdio (the Agent SDK's canUseTool) is supported", opts.PermissionPromptTool)
	}
	if err := checkSessionFlags(opts, false); err != nil {
		return err
	}
	if err := checkRunFlags(opts); err != nil {
		return err
	}
	if len(opts.Prompt) > 0 {
		return usageError("with --input-format stream-json the prompts come on stdin, not as arguments")
	}
	return nil
}

// runStream serves the program until its input ends.
func runStream(ctx context.Context, f *Factory, opts *Options) error {
	if err := checkStreamFlags(opts); err != nil {
		return err
	}
	s, err := newSession(f, opts, f.IO.ErrOut)
	if err != nil {
		return err
	}
	fmt.Fprint(f.IO.ErrOut, s.notice(s.heldServers))
	client, err := f.NewClient(s.provider)
	if err != nil {
		return &ExitError{Code: ExitUsage, Err: err}
	}
	st := &stream{f: f, opts: opts, s: s, client: client}
	st.conn = sdkproto.New(f.IO.Out, st.control)
	st.p = &printer{format: formatStreamJSON, out: st.conn, errOut: f.IO.ErrOut, verbose: opts.Verbose,
		includeHooks: opts.IncludeHookEvents, model: s.model, maxBudgetUSD: opts.MaxBudgetUSD}
	input := newStoppableInput(f.IO.In, f.IO.InIsTerminal)
	read := make(chan error, 1)
	go func() { read <- st.conn.Read(input) }()
	// stopReading ends the reader and waits for it, unless the input
	// cannot be stopped (a terminal), whose reader the exit ends.
	stopReading := func() error {
		if input.stop == nil {
			return nil
		}
		input.stop()
		err := <-read
		input.done()
		return err
	}
	var last agent.Result
	for {
		in, ok := st.conn.Next(ctx)
		if !ok {
			break
		}
		switch {
		case in.Init != nil:
			st.initialize(in.ID, in.Init)
		case in.User != nil:
			if st.agent == nil {
				if err := st.start(ctx); err != nil {
					_ = stopReading()
					return err
				}
			}
			last = st.turn(ctx, in.User.Text(), in.User.Images())
		}
	}
	if st.agent != nil {
		st.ended()
	}
	if ctx.Err() != nil {
		// A signal: the input may still be open.
		_ = stopReading()
		return &ExitError{Code: ExitInterrupted, Err: ctx.Err()}
	}
	// The input ended, so the reader has returned.
	readErr := <-read
	input.done()
	if readErr != nil {
		return &ExitError{Code: ExitFailed, Err: readErr}
	}
	if st.agent == nil {
		return nil
	}
	return exitFor(last, s.provider, f.Getenv)
}

// initialize applies the program's configuration and answers it.
func (st *stream) initialize(id string, init *sdkproto.Initialize) {
	if st.agent != nil {
		_ = st.conn.RespondError(id, fmt.Errorf("the session has already started"))
		return
	}
	if init.SystemPrompt != nil {
		st.opts.SystemPrompt = sdkIdentity
		if text := init.SystemPrompt.Text(); text != "" {
			st.opts.SystemPrompt += "\n\n" + text
		}
	}
	if init.AppendSystemPrompt != "" {
		st.opts.AppendSystemPrompt = joinNonEmpty(st.opts.AppendSystemPrompt, init.AppendSystemPrompt)
	}
	if registered := sdkproto.Hooks(st.conn, init.Hooks); len(registered) > 0 {
		st.s.hooks = st.s.hooks.With(registered, hooks.Options{ProjectDir: st.s.cwd, Env: credentials.ChildEnv(os.Environ(), st.s.passEnv)})
	}
	for _, name := range init.SDKMCPServers {
		transport := &sdkproto.MCPTransport{Conn: st.conn, Server: name}
		if m, ok := init.Manifests[name]; ok {
			transport.Manifest = &m
		}
		st.s.mcpServers = append(st.s.mcpServers, mcp.Server{Name: name, Type: mcp.TransportSDK, Source: "sdk", Transport: transport})
	}
	for _, name := range sortedNames(init.Agents) {
		a := init.Agents[name]
		st.s.agentTypes = append(slices.DeleteFunc(st.s.agentTypes, func(t subagent.Type) bool { return t.Name == name }),
			subagent.Type{Name: name, Description: a.Description, Tools: a.Tools, Model: a.Model, Prompt: a.Prompt, Source: "the Agent SDK program"})
	}
	st.s.pool = subagent.Describe(st.s.pool, st.s.agentTypes)
	_ = st.conn.Respond(id, st.initialized())
}

// initialized is the answer to initialize: what the session offers.
func (st *stream) initialized() map[string]any {
	commands := []map[string]string{}
	for _, name := range st.s.commands.Names() {
		commands = append(commands, map[string]string{"name": name, "description": "", "argumentHint": ""})
	}
	return map[string]any{
		"commands": commands, "output_style": "default", "available_output_styles": []string{"default"},
		"models": []any{}, "account": map[string]any{"apiKeySource": keySource(st.s.provider, st.f.Getenv)},
	}
}

// start begins the session on the first user message: the MCP servers,
// the conversation (resumed when asked), the agent and the session's hooks.
func (st *stream) start(ctx context.Context) error {
	s, f := st.s, st.f
	s.warnRefusedMemory(f.IO.ErrOut)
	st.servers = mcp.Start(s.mcpServers, mcpLimits(f.Getenv, s.passEnv))
	st.state = tool.NewSession(s.cwd)
	conv, err := openConversation(st.opts, s, st.state, f.IO.ErrOut)
	if err != nil {
		st.servers.Close()
		st.state.Close()
		return err
	}
	st.conv = conv
	st.p.sessionID = conv.id
	st.servers.Wait(ctx, mcpWait(f.Getenv))
	st.pool = func() []tool.Tool { return s.poolWith(st.servers) }
	show := st.p.event
	if st.opts.IncludePartialMessages {
		st.partial = &sdkproto.Partial{Send: st.p.emit, SessionID: conv.id, Model: s.model}
		show = func(e agent.Event) {
			st.partial.Before(e)
			st.p.event(e)
			st.partial.After(e)
		}
	}
	agentOpts := s.agentOptions(st.opts, st.client, st.servers, conv, st.state, show)
	agentOpts.UnknownCommands = true
	if st.opts.PermissionPromptTool == "stdio" {
		agentOpts.Prompter = sdkproto.Prompter{Conn: st.conn}
		st.p.asksProgram = true
	} else {
		agentOpts.NoUserInteraction = true
	}
	st.p.start(s, tool.Names(st.offered()), mcpServerEvents(st.servers), keySource(s.provider, f.Getenv))
	agentOpts.StartContext = s.sessionStart(ctx, conv, startSource(st.opts), f.IO.ErrOut, st.p.event)
	instructionsRan := s.instructionsLoaded(ctx, conv, st.p.event)
	st.agent = agent.New(agentOpts)
	st.ended = func() {
		instructionsRan()
		s.sessionEnd(conv, "other", st.agent.PromptID(), st.p.event)
		reportFailedServers(st.servers, f.IO.ErrOut)
		conv.close()
		st.servers.Close()
		st.state.Close()
	}
	return nil
}

// offered is the pool the program is told of: without a program that
// answers questions (--permission-prompt-tool stdio), not the tools that
// ask the user one, which the agent withholds too.
func (st *stream) offered() []tool.Tool {
	if st.opts.PermissionPromptTool == "stdio" {
		return st.pool()
	}
	return answerable(st.pool())
}

// turn runs one user message, its text and its images, to its result; an
// interrupt ends it early.
func (st *stream) turn(ctx context.Context, prompt string, images []llm.ContentBlock) agent.Result {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	st.mu.Lock()
	st.cancel = cancel
	if st.nextMode != "" {
		st.s.perm.Mode, st.nextMode = st.nextMode, ""
	}
	if st.nextModel != "" {
		st.agent.SetModel(st.nextModel)
		st.s.model, st.p.model, st.nextModel = st.nextModel, st.nextModel, ""
	}
	st.mu.Unlock()
	if st.turns > 0 {
		// Claude Code describes the session again at the start of every turn.
		st.p.mu.Lock()
		st.p.start(st.s, tool.Names(st.offered()), mcpServerEvents(st.servers), keySource(st.s.provider, st.f.Getenv))
		st.p.mu.Unlock()
	}
	st.turns++
	res := runWithBackground(ctx, st.agent, st.state, prompt, st.p, images...)
	st.mu.Lock()
	st.cancel = nil
	st.mu.Unlock()
	st.p.finish(res)
	return res
}

// control answers the program's requests that do not wait for the turn.
func (st *stream) control(subtype string, raw json.RawMessage) (any, func(), error) {
	var req struct {
		Mode  string `json:"mode"`
		Model string `json:"model"`
	}
	if err := json.Unmarshal(raw, &req); err != nil {
		return nil, nil, fmt.Errorf("malformed %s request: %w", subtype, err)
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	switch subtype {
	case "interrupt":
		// The open questions are withdrawn before the answer, the turn ended after it.
		release, cancel := st.conn.WithdrawAll(), st.cancel
		return map[string]any{"still_queued": []any{}}, func() {
			if cancel != nil {
				cancel()
			}
			release()
		}, nil
	case "set_permission_mode":
		mode, err := permission.ParseMode(req.Mode)
		if err != nil {
			return nil, nil, err
		}
		st.nextMode = mode
		st.p.emit(statusEvent{Type: "system", Subtype: "status", PermissionMode: string(mode), SessionID: st.p.sessionID, UUID: uuid.NewString()})
		return map[string]any{"mode": mode}, nil, nil
	case "set_model":
		model := req.Model
		if model == "" || model == "default" {
			model = llm.DefaultModel
		}
		if full, ok := modelAliases[model]; ok {
			model = full
		}
		st.nextModel = model
		// Claude Code replays the switch as the output of a local command.
		st.p.emit(replayEvent{Type: "user", Message: replayMessage{Role: "user",
			Content: "<local-command-stdout>Set model to `" + model + "`</local-command-stdout>"},
			SessionID: st.p.sessionID, UUID: uuid.NewString(), Timestamp: time.Now().UTC().Format(time.RFC3339Nano), IsReplay: true})
		return map[string]any{"model": model}, nil, nil
	case "mcp_status":
		return map[string]any{"mcpServers": mcpServerEvents(st.servers)}, nil, nil
	}
	return nil, nil, fmt.Errorf("unsupported control request %q", subtype)
}

// statusEvent reports a change of the session's permission mode.
type statusEvent struct {
	Type           string  `json:"type"`
	Subtype        string  `json:"subtype"`
	Status         *string `json:"status"`
	PermissionMode string  `json:"permissionMode"`
	SessionID      string  `json:"session_id"`
	UUID           string  `json:"uuid"`
}

// replayEvent is a user line Claude Code writes for something that went into
// the session without a prompt (isReplay), such as a model switch.
type replayEvent struct {
	Type            string        `json:"type"`
	Message         replayMessage `json:"message"`
	ParentToolUseID *string       `json:"parent_tool_use_id"`
	SessionID       string        `json:"session_id"`
	UUID            string        `json:"uuid"`
	Timestamp       string        `json:"timestamp"`
	IsReplay        bool          `json:"isReplay"`
}

type replayMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// joinNonEmpty joins the texts that are not empty by a blank line.
func joinNonEmpty(texts ...string) string {
	return sdkproto.Parts(texts).Text()
}

// sortedNames returns the keys of m in order.
func sortedNames[V any](m map[string]V) []string {
	names := make([]string, 0, len(m))
	for name := range m {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

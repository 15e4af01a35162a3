// Package agent runs the query loop: it streams the model's answer, runs the
// tool calls through the executor (validate, permission, call, result) with
// parallel batches of concurrency-safe calls, and feeds the results back until
// the model ends its turn, a limit is reached or the run is interrupted.
package agent

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"

	"github.com/mini-claude/mini-claude/internal/commands"
	"github.com/mini-claude/mini-claude/internal/hooks"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/permission"
	"github.com/mini-claude/mini-claude/internal/prompt"
	"github.com/mini-claude/mini-claude/internal/tool"
)

// Options configure an Agent.
type Options struct {
	Client llm.Client
	Model  string
	System string
	// Tools is the assembled pool offered to the model, in order.
	Tools []tool.Tool
	// Pool, when set, is asked for the current pool before each request and
	// each tool lookup, in place of Tools: for pools that change during a
	// session (MCP servers that connect late or change their tools).
	Pool func() []tool.Tool
	// ToolSearch decides which tools of the pool are deferred: left out of the
	// request until the ToolSearch tool loads them, their names listed after
	// System (the cli wires toolsearch.Policy). Nil defers none. Sub-agents
	// get their parent's.
	ToolSearch  ToolOffer
	Permissions *permission.Context
	// Prompter answers permission asks; nil refuses them, as in headless runs.
	Prompter permission.Prompter
	// Env is the session's tool environment; each call gets a copy with the
	// session's current directory. A nil Env.Session gets a fresh one.
	Env tool.Env
	// MaxTurns stops the run after that many model responses; 0 is no limit.
	MaxTurns int
	// MaxBudgetUSD stops the run once its cost, its sub-agents' included,
	// reaches this many dollars; 0 is no limit. It is checked after each
	// response, as Claude Code does: the calls of the response that reached
	// it are answered as not run.
	MaxBudgetUSD float64
	// MaxTokens caps each response; 0 leaves it to the provider's default.
	MaxTokens int
	// Cost prices the usage of a run; nil means llm.Cost, the list price of
	// Model. A model served locally costs nothing.
	Cost func(llm.Usage) float64
	// OnEvent receives every event of a run, one at a time; nil discards them.
	OnEvent func(Event)
	// History is the conversation so far, for a resumed session: a valid
	// conversation for the API (session.Load repairs one that a crash cut off).
	History []llm.Message
	// CompactThreshold is the input size, in tokens, above which the history
	// is compacted before the next request; 0 means 80% of the model's
	// context window, a negative value never compacts automatically.
	CompactThreshold int
	// Memory is the text of the memory files (CLAUDE.md, AGENTS.md), which
	// compaction carries over verbatim.
	Memory string
	// SubAgents, when set, lets the Agent tool of the pool start sub-agents.
	SubAgents *SubAgents
	// AttachMentions makes Run attach the files a prompt mentions as @path,
	// as Claude Code does for the user's prompts (see Mentions).
	AttachMentions bool
	// Hooks runs the session's lifecycle hooks: PreToolUse, PostToolUse and
	// PostToolUseFailure around each call, UserPromptSubmit before a prompt,
	// Stop (SubagentStop) when the model ends its turn, PreCompact before a
	// compaction and SessionStart (source compact) after it. Nil runs none.
	Hooks *hooks.Engine
	// TranscriptPath is the session's transcript, as hooks are told: a
	// sub-agent's hooks get its session's, and SubagentStop the sub-agent's
	// own beside it (agent_transcript_path).
	TranscriptPath string
	// AgentID and AgentType name a sub-agent to its hooks; empty for the main agent.
	AgentID, AgentType string
	// StartContext is what the SessionStart hooks said, sent as the first
	// blocks of the next prompt's message.
	StartContext []llm.ContentBlock
	// AttachSideModel, when set, gives the session the side model its tools'
	// one-shot requests go to (WebFetch reading a page, WebSearch searching):
	// Client, their usage charged to the run like a sub-agent's. The cli
	// wires the web tools' Attach, with the session's web settings.
	AttachSideModel func(s *tool.Session, m tool.SideModel)
	// Commands are the session's custom commands and skills: a prompt
	// "/name args" naming one runs it, and a conversation's first prompt
	// lists the skills the model may load with the Skill tool. Nil has none.
	Commands *commands.Set
	// NoUserInteraction says nobody can answer a question to the user (-p
	// without an SDK client that answers permission asks): the tools that
	// require one (AskUserQuestion, ExitPlanMode) are withheld, as Claude
	// Code withholds them, and a call to one is refused in its words.
	// Sub-agents withhold them always.
	NoUserInteraction bool
	// Checkpoints, when set, stores the files the file tools are about to
	// change, for /rewind; sub-agents get their parent's.
	Checkpoints Checkpoints
	// Prompts are the prompts of History that /rewind can go back before,
	// for a resumed session.
	Prompts []PromptMark
	// UnknownCommands makes a prompt "/name …" that names no command reach
	// the model with Claude Code's reminder that it did not run, as in
	// headless runs; a front end that tells its user instead leaves it off.
	UnknownCommands bool
}

// ToolOffer splits the pool for each request: the tools to send, in order,
// and the names of those deferred until a tool search loads them, for a
// model whose context window holds contextTokens.
type ToolOffer interface {
	Offer(pool []tool.Tool, s *tool.Session, contextTokens int) (send []tool.Tool, deferred []string)
}

// Outcome says how a run ended.
type Outcome int

// The ways a run ends.
const (
	Completed Outcome = iota
	MaxTurnsReached
	Failed
	Interrupted
	// MaxBudgetReached: the run's cost reached Options.MaxBudgetUSD.
	MaxBudgetReached
)

// Result summarises a run.
type Result struct {
	Outcome Outcome
	// Err explains a Failed or Interrupted run.
	Err error
	// Text is the text of the last assistant message.
	Text     string
	NumTurns int
	Duration time.Duration
	// APIDuration is the time spent waiting for the model.
	APIDuration time.Duration
	// Usage sums the run's own requests, as Claude Code's result reports it.
	Usage llm.Usage
	// CostUSD is the cost of the run and of the sub-agents charged to it.
	CostUSD float64
	// ModelUsage is the usage and cost per model, sub-agents' included.
	ModelUsage map[string]ModelUsage
	Denials    []Denial
}

// Agent holds one conversation; Run adds a prompt and loops until the model is done.
type Agent struct {
	opts     Options
	messages []llm.Message
	emitMu   sync.Mutex
	// askMu keeps permission prompts one at a time; sub-agents share their parent's.
	askMu *sync.Mutex
	// depth is 0 for the main agent and counts the levels of sub-agents.
	depth   int
	spentMu sync.Mutex
	spent   map[string]ModelUsage

	// reported is the input size the provider reported for the last request,
	// which held the first reportedLen messages; 0 and 0 when unknown.
	reported, reportedLen int
	// originalTask and latestRequest are the first and the latest prompt.
	originalTask, latestRequest string
	// edited are the files changed before the last compaction.
	edited          []string
	compactFailures int
	// specChars is the size of the tool definitions of the last request,
	// with the list of deferred tools its system prompt added to System.
	specChars int
	// promptID identifies the prompt being handled, for hooks; lastPromptID
	// is the same, for PromptID.
	promptID     string
	lastPromptID atomic.Pointer[string]
	// parentPromptID is, in a sub-agent, the id of the parent's prompt that
	// started it, which its hooks are told as Claude Code's are.
	parentPromptID string
	// hookStop is set when a hook asked to end the session ("continue": false).
	hookStop atomic.Bool
	// hookInterrupt is set when a PermissionRequest hook, or the answer to a
	// permission question, interrupted the turn.
	hookInterrupt atomic.Bool
	// hookBlocks are the blocks of the last UserPromptSubmit or Stop hooks
	// that blocked, for what the user is shown of them.
	hookBlocks []hooks.Block
	// turnAllow are the rules the running turn allows besides the session's
	// (a command's or a loaded skill's allowed-tools), under turnMu.
	turnMu    sync.Mutex
	turnAllow []permission.Rule
	// mode is the permission mode the running turn switched to, shared with sub-agents.
	mode *modeState
	// marks are the prompts since the last compaction, for /rewind.
	marks []PromptMark
}

// New returns an Agent with an empty conversation.
func New(opts Options) *Agent {
	return newAgent(opts, 0, &sync.Mutex{})
}

func newAgent(opts Options, depth int, askMu *sync.Mutex) *Agent {
	if opts.Prompter == nil {
		opts.Prompter = permission.NeverAsk{}
	}
	if opts.Permissions == nil {
		opts.Permissions = &permission.Context{Mode: permission.ModeDefault}
	}
	if opts.Env.Session == nil {
		opts.Env.Session = tool.NewSession(opts.Env.Cwd)
	}
	opts.Env.ReadDenied = opts.Permissions.ReadDenied
	opts.Env.HostNamed = opts.Permissions.NamesHost
	a := &Agent{opts: opts, depth: depth, askMu: askMu, messages: slices.Clone(opts.History), mode: &modeState{}, marks: slices.Clone(opts.Prompts)}
	if opts.SubAgents != nil && opts.SubAgents.Attach != nil && depth < MaxDepth {
		opts.SubAgents.Attach(opts.Env.Session, subAgentRunner{parent: a})
	}
	if opts.AttachSideModel != nil {
		opts.AttachSideModel(opts.Env.Session, sideModel{a})
	}
	return a
}

// Messages returns the conversation so far.
func (a *Agent) Messages() []llm.Message { return a.messages }

// ErrLoop is the cause of a run stopped because the model repeated a failing call.
var ErrLoop = errors.New("the model repeated the same failing tool call")

// Run adds prompt to the conversation, with images after its text (those of
// an Agent SDK program's message), and runs turns until
// the model ends its turn, MaxTurns is reached, a failure outlasts the
// retries, the model loops, or ctx is cancelled. The conversation stays
// valid for the API in every case.
func (a *Agent) Run(ctx context.Context, prompt string, images ...llm.ContentBlock) Result {
	id := a.parentPromptID
	if id == "" {
		id = uuid.NewString()
	}
	a.promptID = id
	a.lastPromptID.Store(&id)
	extra, blocked := a.promptSubmit(ctx, prompt)
	if blocked != "" {
		a.emit(HookNotice{Level: "warning", Text: blocked, Kind: NoticePromptBlocked, Event: hooks.UserPromptSubmit,
			Reason: blockReasons(a.hookBlocks)})
		return Result{Outcome: Completed, Text: blocked}
	}
	a.latestRequest = prompt
	if a.originalTask == "" && firstPrompt(a.messages) == "" {
		a.originalTask = prompt
	}
	inv, err := a.command(ctx, prompt)
	if err != nil {
		a.endTurnAllow()
		name, _, _ := commands.Parse(prompt)
		a.emit(CommandFailed{Name: name, Text: err.Error()})
		return Result{Outcome: Completed, Text: err.Error()}
	}
	msg, text := llm.UserText(prompt), prompt
	if inv != nil {
		msg.Content, text = inv.blocks(), inv.text
		extra = append(extra, inv.context...)
		if inv.cmd.Model != "" {
			defer a.useModel(inv.cmd.Model)()
		}
	}
	msg.Content = append(msg.Content, images...)
	if first := slices.Concat(a.opts.StartContext, a.skillListing(), extra, a.planReminder(prompt), a.unknownCommand(prompt)); len(first) > 0 {
		a.opts.StartContext = nil
		msg.Content = append(first, msg.Content...)
	}
	if !a.opts.AttachMentions {
		return a.run(ctx, PromptMark{ID: id, Text: prompt}, msg)
	}
	env := a.opts.Env
	env.Cwd = env.Session.Cwd()
	attached := Mentions(ctx, text, MentionSource{Pool: a.pool(), Env: env, Permissions: a.opts.Permissions})
	for _, at := range attached {
		a.emit(MentionAttached{Path: at.Path, Directory: at.Directory})
	}
	return a.run(ctx, PromptMark{ID: id, Text: prompt}, withAttachments(msg, attached)...)
}

// RunNotices sends the session's queued notices as a user message of their
// own and runs turns until the model is done, as Claude Code does when a
// background agent ends after the model's turn. With no notice queued it
// asks nothing and returns false.
func (a *Agent) RunNotices(ctx context.Context) (Result, bool) {
	notices := a.opts.Env.Session.TakeNotices()
	if len(notices) == 0 {
		return Result{}, false
	}
	return a.run(ctx, PromptMark{}, llm.UserText(reminder(notices))), true
}

// run adds the messages of a prompt (with its mark, when it is the user's)
// and runs turns until the model is done.
func (a *Agent) run(ctx context.Context, mark PromptMark, prompt ...llm.Message) (res Result) {
	start := time.Now()
	defer a.settleMode()
	defer a.endTurnAllow()
	defer func() {
		res.Duration = time.Since(start)
		if a.opts.Cost != nil {
			res.CostUSD = a.opts.Cost(res.Usage)
		} else {
			res.CostUSD = llm.Cost(a.opts.Model, res.Usage)
		}
		a.settle(&res)
	}()
	if a.originalTask == "" {
		a.originalTask = firstPrompt(a.messages)
		if a.originalTask == "" {
			a.originalTask = prompt[len(prompt)-1].Text()
		}
	}
	if mark.ID != "" && a.depth == 0 {
		mark.At = len(a.messages)
		a.marks = append(a.marks, mark)
		if a.opts.Checkpoints != nil {
			if err := a.opts.Checkpoints.Begin(mark.ID); err != nil {
				a.emit(CheckpointFailed{Err: err})
			}
		}
	}
	a.addPrompt(mark.ID, prompt...)
	loop := newLoopDetector()
	stopBlocks := 0
	for {
		if a.opts.MaxTurns > 0 && res.NumTurns >= a.opts.MaxTurns {
			res.Outcome = MaxTurnsReached
			res.Err = fmt.Errorf("reached the maximum number of turns (%d)", a.opts.MaxTurns)
			return res
		}
		a.autoCompact(ctx, &res)
		reply, err := a.request(ctx, &res)
		if err != nil {
			a.stopFailure(ctx, err)
			return a.stopped(ctx, res, err)
		}
		res.NumTurns++
		res.Text = reply.Message.Text()
		uses := reply.Message.ToolUses()
		if a.overBudget(res) {
			return a.budgetReached(res, uses)
		}
		if len(uses) == 0 {
			if reply.StopReason == llm.StopPauseTurn {
				continue
			}
			more, blocked := a.stopHooks(ctx, res.Text, stopBlocks > 0)
			if blocked {
				stopBlocks++
			}
			if blocked && stopBlocks < stopHookCap {
				a.addUser(more)
				a.emit(StopHookFeedback{Event: a.stopEvent(), Text: a.stopEvent() + " hook feedback:\n" + blockTexts(a.hookBlocks)})
				continue
			} else if blocked {
				a.emit(HookNotice{Level: "warning", Text: fmt.Sprintf("A hook blocked the turn from ending %d consecutive times—overriding and ending turn. "+
					"For Stop/SubagentStop hooks, check stop_hook_active in the input and return success while it's true.", stopHookCap),
					Kind: NoticeStopCap, Event: a.stopEvent()})
				res.Text = ""
			}
			res.Outcome = Completed
			return res
		}
		stopBlocks = 0
		a.opts.Env.Session.SetContextRoom(a.contextRoom())
		results, denials := a.execute(ctx, uses)
		res.Denials = append(res.Denials, denials...)
		stop := loop.observe(uses, results)
		a.addUser(llm.Message{Role: llm.RoleUser, Content: results})
		if ctx.Err() != nil {
			return a.stopped(ctx, res, ctx.Err())
		}
		if a.hookStop.Load() {
			res.Outcome, res.Text = Completed, ""
			return res
		}
		if a.hookInterrupt.Swap(false) {
			res.Outcome, res.Err = Failed, ErrHookInterrupt
			return res
		}
		if stop != nil {
			res.Outcome, res.Err = Failed, stop
			return res
		}
	}
}

func (a *Agent) stopped(ctx context.Context, res Result, err error) Result {
	res.Err = err
	res.Outcome = Failed
	if ctx.Err() != nil {
		res.Outcome = Interrupted
		res.Err = ctx.Err()
	}
	return res
}

// request streams one model response, forwards its deltas as events and adds
// the finished message to the conversation, in the form the API accepts back
// (see historyMessage); the MessageEnd returned holds the message as received.
func (a *Agent) request(ctx context.Context, res *Result) (llm.MessageEnd, error) {
	specs, system := a.offer()
	req := llm.Request{
		Model: a.opts.Model, System: system, Messages: llm.Alternate(a.messages),
		Tools: specs, MaxTokens: a.opts.MaxTokens,
	}
	started := time.Now()
	defer func() { res.APIDuration += time.Since(started) }()
	sent := len(a.messages)
	a.specChars = specsSize(req.Tools) + len(system) - len(a.opts.System)
	names := map[string]string{}
	for ev, err := range a.opts.Client.Stream(ctx, req) {
		if err != nil {
			return llm.MessageEnd{}, err
		}
		switch ev := ev.(type) {
		case llm.TextDelta:
			a.emit(TextDelta{Text: ev.Text})
		case llm.ThinkingDelta:
			a.emit(ThinkingDelta{Text: ev.Thinking})
		case llm.ToolUseStart:
			names[ev.ID] = ev.Name
			a.emit(ToolInputDelta{ID: ev.ID, Name: ev.Name})
		case llm.ToolUseDelta:
			a.emit(ToolInputDelta{ID: ev.ID, Name: names[ev.ID], PartialJSON: ev.PartialJSON})
		case llm.Retry:
			a.emit(StreamRetry{Attempt: ev.Attempt, Wait: ev.Wait, Err: ev.Err})
		case llm.MessageEnd:
			res.Usage = res.Usage.Add(ev.Usage)
			a.observeUsage(ev.Usage, sent)
			history := historyMessage(ev.Message)
			a.observableInputs(ctx, history)
			a.messages = append(a.messages, history)
			a.emit(AssistantMessage{UUID: uuid.NewString(), ID: ev.MessageID, Message: history,
				Model: a.opts.Model, StopReason: ev.StopReason, Usage: ev.Usage, RequestID: ev.RequestID})
			return ev, nil
		}
	}
	if err := ctx.Err(); err != nil {
		return llm.MessageEnd{}, err
	}
	return llm.MessageEnd{}, errors.New("the model's response ended without a message")
}

// pool returns the tools of the session as they are now, but those it withholds.
func (a *Agent) pool() []tool.Tool {
	return slices.DeleteFunc(slices.Clone(a.fullPool()), a.withheld)
}

// fullPool is the session's pool with the tools it withholds.
func (a *Agent) fullPool() []tool.Tool {
	if a.opts.Pool != nil {
		return a.opts.Pool()
	}
	return a.opts.Tools
}

// offer returns the tools to send with the next request and the system
// prompt: the tools not deferred in pool order, then the deferred tools
// ToolSearch loaded, in load order, so a load only appends to the tools array;
// and System followed by the names of the deferred tools. MCP tools are
// deferred against the context window of the model in use.
func (a *Agent) offer() ([]llm.ToolSpec, string) {
	send, deferred := a.pool(), []string(nil)
	if a.opts.ToolSearch != nil {
		send, deferred = a.opts.ToolSearch.Offer(send, a.opts.Env.Session, llm.ContextWindow(a.opts.Model))
	}
	specs := make([]llm.ToolSpec, len(send))
	for i, t := range send {
		specs[i] = t.Spec()
	}
	return specs, prompt.WithDeferredTools(a.opts.System, deferred)
}

// reminder wraps notices the way the model reads system reminders.
func reminder(notices []string) string {
	return "<system-reminder>\n" + strings.Join(notices, "\n") + "\n</system-reminder>"
}

// addUser adds user messages to the conversation, with the session's queued
// notices (a background task finished, say) at the end of the last, so the
// model reads them on its next turn and the transcript records them, and
// emits each.
func (a *Agent) addUser(msgs ...llm.Message) {
	a.addPrompt("", msgs...)
}

// addPrompt adds user messages, those of the prompt promptID when it is set.
func (a *Agent) addPrompt(promptID string, msgs ...llm.Message) {
	if notices := a.opts.Env.Session.TakeNotices(); len(notices) > 0 {
		last := &msgs[len(msgs)-1]
		last.Content = append(slices.Clone(last.Content), llm.TextBlock(reminder(notices)))
	}
	for _, m := range msgs {
		a.messages = append(a.messages, m)
		a.emit(UserMessage{UUID: uuid.NewString(), Message: m, PromptID: promptID})
	}
}

func (a *Agent) emit(e Event) {
	if a.opts.OnEvent == nil {
		return
	}
	a.emitMu.Lock()
	defer a.emitMu.Unlock()
	a.opts.OnEvent(e)
}

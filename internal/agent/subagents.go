package agent

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/worktree"
)

// MaxDepth is how deep sub-agents nest: the main agent is at depth 0, and an
// agent at MaxDepth cannot start any. A sub-agent gets the Agent tool only
// when its type lists it.
const MaxDepth = 2

// spawnTool is the name of the tool that starts sub-agents, which a
// sub-agent gets only when its type lists it and the depth allows.
const spawnTool = "Agent"

// SubAgents configures the sub-agents an agent may start with the Agent tool.
type SubAgents struct {
	// Attach gives the session of an agent that may start sub-agents the
	// runner that starts them: the composition root wires the Agent tool's
	// Attach, with the session's agent types. Nil starts none.
	Attach func(s *tool.Session, r tool.SubAgentRunner)
	// System returns a sub-agent's system prompt from its request (its
	// type's role), its model and the names of its tools.
	System func(req tool.SubAgentRequest, model string, toolNames []string) string
	// Model resolves the model of an Agent call or type (an alias such as
	// "sonnet", or an id); it is not called for "" or "inherit", which mean
	// the parent's model. Nil takes names as they are.
	Model func(name string) string
}

// ModelUsage is the usage and cost of one model in a run.
type ModelUsage struct {
	Usage   llm.Usage
	CostUSD float64
}

// charge records the usage of a sub-agent, to be added to the result of the
// run in progress, or of the next one for a background agent that ends between runs.
func (a *Agent) charge(spent map[string]ModelUsage) {
	a.spentMu.Lock()
	defer a.spentMu.Unlock()
	if a.spent == nil {
		a.spent = map[string]ModelUsage{}
	}
	for model, u := range spent {
		a.spent[model] = a.spent[model].add(u)
	}
}

// settle adds the run's own usage and the sub-agents' charged so far to res.
func (a *Agent) settle(res *Result) {
	if res.Usage != (llm.Usage{}) {
		res.ModelUsage = map[string]ModelUsage{a.opts.Model: {Usage: res.Usage, CostUSD: res.CostUSD}}
	}
	a.spentMu.Lock()
	spent := a.spent
	a.spent = nil
	a.spentMu.Unlock()
	for model, u := range spent {
		if res.ModelUsage == nil {
			res.ModelUsage = map[string]ModelUsage{}
		}
		res.ModelUsage[model] = res.ModelUsage[model].add(u)
		res.CostUSD += u.CostUSD
	}
}

func (u ModelUsage) add(v ModelUsage) ModelUsage {
	return ModelUsage{Usage: u.Usage.Add(v.Usage), CostUSD: u.CostUSD + v.CostUSD}
}

// subAgentRunner runs the sub-agents of one agent's session.
type subAgentRunner struct{ parent *Agent }

// RunAgent runs a sub-agent to its end: a fresh conversation on the parent's
// client, permissions, prompter and working directory (or a worktree of its
// own, kept only when it changed something there), with the tools of
// the parent's pool its type allows, and a session of its own that starts
// with a copy of the parent's record of the files it read. Its events
// reach the parent's consumer as SubAgentEvent; its usage is charged to the parent.
func (r subAgentRunner) RunAgent(ctx context.Context, req tool.SubAgentRequest) (report tool.SubAgentReport, err error) {
	p := r.parent
	model := p.subAgentModel(req)
	depth := p.depth + 1
	parentPool := p.pool
	pool := func() []tool.Tool { return subAgentPool(parentPool(), req.Tools, depth) }
	session := p.opts.Env.Session.Child()
	var tree *worktree.Tree
	defer func() {
		session.Close()
		if tree != nil {
			settleWorktree(context.WithoutCancel(ctx), *tree, &report)
		}
	}()
	report = tool.SubAgentReport{Model: model}
	if req.Worktree {
		made, err := isolate(ctx, session, req.AgentID)
		if err != nil {
			return report, err
		}
		tree = &made
	}
	req.Cwd = session.Cwd()
	env := p.opts.Env
	env.Session, env.ToolUseID = session, ""
	opts := Options{
		Client: p.opts.Client, Model: model, Pool: pool, Permissions: p.opts.Permissions,
		Prompter: p.opts.Prompter, Env: env, MaxTokens: p.opts.MaxTokens, Cost: p.opts.Cost,
		SubAgents: p.opts.SubAgents, ToolSearch: p.opts.ToolSearch, Hooks: p.opts.Hooks, AgentID: req.AgentID, AgentType: req.Type,
		AttachSideModel: p.opts.AttachSideModel,
		TranscriptPath:  p.opts.TranscriptPath,
		Checkpoints:     p.opts.Checkpoints,
		OnEvent: func(e Event) {
			switch e := e.(type) {
			case AssistantMessage:
				report.ContextTokens = e.Usage.InputTokens + e.Usage.CacheCreationInputTokens + e.Usage.CacheReadInputTokens + e.Usage.OutputTokens
			case ToolStarted:
				report.ToolUses++
			}
			p.emit(SubAgentEvent{AgentID: req.AgentID, ParentToolUseID: req.ToolUseID, Event: e})
		},
	}
	if sys := p.opts.SubAgents.System; sys != nil {
		opts.System = sys(req, model, tool.Names(pool()))
	} else {
		opts.System = req.Role
	}
	child := newAgent(opts, depth, p.askMu)
	child.mode = p.mode
	child.parentPromptID = p.PromptID()
	p.emit(SubAgentStarted{AgentID: req.AgentID, ParentToolUseID: req.ToolUseID, Type: req.Type,
		Description: req.Description, Prompt: req.Prompt, Model: model, Background: req.Background})
	child.opts.StartContext = p.subagentStart(ctx, req.AgentID, req.Type)
	started := time.Now()
	res := child.Run(ctx, req.Prompt)
	report.Duration = time.Since(started)
	report.Text, report.Usage, report.CostUSD = res.Text, res.Usage, res.CostUSD
	p.charge(res.ModelUsage)
	p.emit(SubAgentFinished{AgentID: req.AgentID, ParentToolUseID: req.ToolUseID, Background: req.Background,
		Result: res, ContextTokens: report.ContextTokens, ToolUses: report.ToolUses})
	if res.Outcome != Completed {
		return report, fmt.Errorf("sub-agent %s: %w", req.AgentID, res.Err)
	}
	return report, nil
}

// subAgentTranscript is where a sub-agent's transcript is kept, beside its
// parent's: <session>/subagents/agent-<id>.jsonl, as hooks are told.
func subAgentTranscript(parent, id string) string {
	if parent == "" {
		return ""
	}
	return strings.TrimSuffix(parent, ".jsonl") + "/subagents/agent-" + id + ".jsonl"
}

// subAgentModel picks the model of a sub-agent: the call's, else the type's,
// else the parent's.
func (a *Agent) subAgentModel(req tool.SubAgentRequest) string {
	for _, name := range []string{req.Model, req.TypeModel} {
		if name == "" || name == "inherit" {
			continue
		}
		if resolve := a.opts.SubAgents.Model; resolve != nil {
			return resolve(name)
		}
		return name
	}
	return a.opts.Model
}

// subAgentPool is the part of the parent's pool a sub-agent may use at
// depth: the tools its type lists (all when it lists none), and the Agent
// tool only when the type lists it and depth allows another level.
func subAgentPool(parent []tool.Tool, listed []string, depth int) []tool.Tool {
	var pool []tool.Tool
	for _, candidate := range parent {
		ok := listed == nil || slices.ContainsFunc(listed, candidate.MatchesName)
		if candidate.Name() == spawnTool {
			ok = listed != nil && ok && depth < MaxDepth
		}
		if ok {
			pool = append(pool, candidate)
		}
	}
	return pool
}

// sideModel runs the one-shot requests of an agent's tools (WebFetch reading
// a page, WebSearch searching) on its client, charging their usage to the
// agent's run.
type sideModel struct{ a *Agent }

// Ask sends req, on the agent's model when it names none, and returns the
// answer, its usage charged.
func (m sideModel) Ask(ctx context.Context, req llm.Request) (llm.Message, error) {
	if req.Model == "" {
		req.Model = m.a.opts.Model
	}
	end, err := llm.Complete(ctx, m.a.opts.Client, req)
	if err != nil {
		return llm.Message{}, err
	}
	cost := llm.Cost(req.Model, end.Usage)
	if m.a.opts.Cost != nil && req.Model == m.a.opts.Model {
		cost = m.a.opts.Cost(end.Usage)
	}
	m.a.charge(map[string]ModelUsage{req.Model: {Usage: end.Usage, CostUSD: cost}})
	return end.Message, nil
}

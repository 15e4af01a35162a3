// Package subagent is the Agent tool: it starts a sub-agent with a fresh
// context, a type's system prompt and tools, and returns its final report;
// in the background, the report arrives later as a notice.
//
// The tool does not run agents itself: the agent loop gives each session a
// tool.SubAgentRunner, which the composition root hands to Attach, and the tool asks it.
package subagent

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/tool"
)

// Name is the Agent tool's name in the API.
const Name = "Agent"

// host is what a session offers the Agent tool.
type host struct {
	mu     sync.Mutex
	types  []Type
	runner tool.SubAgentRunner
}

type hostKey struct{}

// Attach gives a session the agent types its Agent calls may start and the
// runner that starts them; without it, Agent calls fail with an explanation.
func Attach(s *tool.Session, types []Type, r tool.SubAgentRunner) {
	h := tool.Value(s, hostKey{}, func() *host { return &host{} })
	h.mu.Lock()
	defer h.mu.Unlock()
	h.types, h.runner = types, r
}

func hostOf(s *tool.Session) ([]Type, tool.SubAgentRunner) {
	h := tool.Value(s, hostKey{}, func() *host { return &host{} })
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.types, h.runner
}

// Input is the input of the Agent tool, Claude Code's schema.
type Input struct {
	Description     string `json:"description" jsonschema_description:"A short (3-5 word) description of the task"`
	Prompt          string `json:"prompt" jsonschema_description:"The task for the agent to perform"`
	SubagentType    string `json:"subagent_type,omitempty" jsonschema_description:"The type of specialized agent to use for this task"`
	Model           string `json:"model,omitempty" jsonschema:"enum=sonnet,enum=opus,enum=haiku" jsonschema_description:"Optional model for this agent. Takes precedence over the agent type's model. If omitted, the type's model is used, else the parent's."`
	RunInBackground bool   `json:"run_in_background,omitempty" jsonschema_description:"Set to true to run the agent in the background and go on with other work; you will be notified when it completes. Leave it unset when your next step depends on the result."`
	Isolation       string `json:"isolation,omitempty" jsonschema:"enum=worktree" jsonschema_description:"Isolation mode. \"worktree\" creates a temporary git worktree so the agent works on an isolated copy of the repo."`
}

// Output is the tool's typed result, shown as tool_use_result in stream-json.
type Output struct {
	// Status is "completed", or "async_launched" for a background agent.
	Status      string `json:"status"`
	Prompt      string `json:"prompt"`
	AgentID     string `json:"agentId"`
	AgentType   string `json:"agentType"`
	Description string `json:"description,omitempty"`
	// The fields below describe a completed run.
	Content           []llm.ContentBlock `json:"content,omitempty"`
	ResolvedModel     string             `json:"resolvedModel,omitempty"`
	TotalDurationMs   int64              `json:"totalDurationMs,omitempty"`
	TotalTokens       int                `json:"totalTokens,omitempty"`
	TotalToolUseCount int                `json:"totalToolUseCount,omitempty"`
	Usage             *llm.Usage         `json:"usage,omitempty"`
	CostUSD           float64            `json:"costUSD,omitempty"`
	// WorktreePath and WorktreeBranch name the worktree an isolated agent
	// changed something in, which is kept.
	WorktreePath   string `json:"worktreePath,omitempty"`
	WorktreeBranch string `json:"worktreeBranch,omitempty"`
}

// Tool is the Agent tool. Its description names only the built-in type;
// Describe gives a session's pool a copy that lists the session's types.
var Tool = tool.MustBuild(tool.Def[Input, Output]{
	Name: Name,
	// Claude Code's former name, which its init event still lists.
	Aliases:            []string{"Task"},
	SearchHint:         "delegate a task to a sub-agent with its own context",
	Description:        description([]Type{GeneralPurpose}),
	MaxResultSizeChars: 100_000,
	// A sub-agent's own calls go through the permission checks with the
	// parent's context, so starting one changes nothing by itself: plan mode
	// may start sub-agents that read, and their writes are refused there.
	IsReadOnly:        tool.Always[Input],
	IsConcurrencySafe: tool.Always[Input],
	ValidateInput:     validate,
	Call:              call,
	MapResult:         content,
	RenderUse:         renderUse,
	RenderResult:      renderResult,
})

func validate(_ context.Context, in Input, env *tool.Env) error {
	if strings.TrimSpace(in.Prompt) == "" {
		return errors.New("prompt is empty: give the sub-agent its whole task, since it sees nothing of this conversation")
	}
	types, runner := hostOf(env.Session)
	if runner == nil {
		return errors.New("sub-agents cannot be started in this session (the depth limit is reached, or no agent runner is set up); do the task yourself")
	}
	if in.Isolation != "" && in.Isolation != isolationWorktree {
		return fmt.Errorf("isolation %q is not supported: use \"worktree\" to run the agent in a git worktree of its own, or leave it out", in.Isolation)
	}
	if _, ok := lookup(types, in.SubagentType); !ok {
		return fmt.Errorf("agent type %q not found. Available agent types: %s. Pass one of them as subagent_type, or leave it out for %s",
			in.SubagentType, strings.Join(Names(types), ", "), GeneralPurposeName)
	}
	return nil
}

// lookup resolves subagent_type, "" being the general-purpose type.
func lookup(types []Type, name string) (Type, bool) {
	if strings.TrimSpace(name) == "" {
		name = GeneralPurposeName
	}
	return Find(types, strings.TrimSpace(name))
}

func call(ctx context.Context, in Input, env *tool.Env, _ tool.Progress) (Output, error) {
	types, runner := hostOf(env.Session)
	typ, ok := lookup(types, in.SubagentType)
	if runner == nil || !ok {
		return Output{}, validate(ctx, in, env)
	}
	req := tool.SubAgentRequest{AgentID: newAgentID(), Type: typ.Name, Role: typ.Prompt, Tools: typ.Tools, TypeModel: typ.Model,
		Model: in.Model, Description: in.Description, Prompt: in.Prompt, ToolUseID: env.ToolUseID, Background: in.RunInBackground,
		Worktree: in.Isolation == isolationWorktree}
	out := Output{Prompt: in.Prompt, AgentID: req.AgentID, AgentType: typ.Name}
	if req.Worktree {
		if err := checkRepository(ctx, env.Cwd); err != nil {
			return Output{}, err
		}
	}
	if in.RunInBackground {
		if err := startBackground(env.Session, runner, req); err != nil {
			return Output{}, err
		}
		out.Status, out.Description = "async_launched", in.Description
		return out, nil
	}
	report, err := runner.RunAgent(ctx, req)
	var refused *tool.OutputError
	if errors.As(err, &refused) {
		return Output{}, err
	}
	if err != nil {
		return Output{}, fmt.Errorf("the sub-agent %q stopped before finishing: %w. Its work so far is lost to you; retry with a narrower task or do it yourself", in.Description, err)
	}
	out.Status = "completed"
	out.Content = []llm.ContentBlock{llm.TextBlock(report.Text)}
	out.ResolvedModel, out.TotalDurationMs = report.Model, report.Duration.Milliseconds()
	out.TotalTokens, out.TotalToolUseCount = report.ContextTokens, report.ToolUses
	out.Usage, out.CostUSD = &report.Usage, report.CostUSD
	out.WorktreePath, out.WorktreeBranch = report.WorktreePath, report.WorktreeBranch
	return out, nil
}

// newAgentID returns an id like Claude Code's: "a" and 16 hex digits.
func newAgentID() string {
	b := make([]byte, 8)
	rand.Read(b)
	return "a" + hex.EncodeToString(b)
}

package tool

// What the agent loop offers tools through their session, beside the
// session's own state: a runner of sub-agents for the Agent tool, a side
// model for tools that ask the model a one-shot question (WebFetch,
// WebSearch). The composition root hands them to the tools' packages, which
// keep them in the session, so no tool imports the loop and the loop no tool.

import (
	"context"
	"time"

	"github.com/mini-claude/mini-claude/internal/llm"
)

// SubAgentRequest is one sub-agent run that a tool (the Agent tool) asks its
// session's SubAgentRunner for.
type SubAgentRequest struct {
	// AgentID identifies the sub-agent in results, notices and events.
	AgentID string
	// Type names the sub-agent's type.
	Type string
	// Role is the type's prompt, the start of the sub-agent's system prompt.
	Role string
	// Tools are the names of the tools the type allows; nil means every tool
	// of the parent's pool but the one that starts sub-agents.
	Tools []string
	// TypeModel is the model the type names: an alias, an id, or "" or
	// "inherit" for the parent's.
	TypeModel string
	// Model is the model the call asked for (an alias such as "sonnet"); ""
	// leaves it to the type, then to the parent.
	Model       string
	Description string
	Prompt      string
	// ToolUseID is the id of the call that started the sub-agent.
	ToolUseID  string
	Background bool
	// Worktree says the sub-agent works in a git worktree of its own (the
	// Agent tool's isolation: "worktree"), kept when it changed something.
	Worktree bool
	// Cwd is the directory the sub-agent works in, which the runner sets
	// for the sub-agent's system prompt.
	Cwd string
}

// SubAgentReport is a finished sub-agent run.
type SubAgentReport struct {
	// Text is the sub-agent's final message.
	Text string
	// Model is the model the sub-agent ran on.
	Model string
	// Usage sums the sub-agent's own requests.
	Usage llm.Usage
	// ContextTokens counts the tokens of its last exchange: the size of its context at the end.
	ContextTokens int
	// CostUSD is the cost of the sub-agent and of the sub-agents it started.
	CostUSD  float64
	ToolUses int
	Duration time.Duration
	// WorktreePath and WorktreeBranch name the worktree of an isolated
	// sub-agent that changed something there, which is kept; they are
	// empty when it changed nothing and its worktree was removed.
	WorktreePath   string
	WorktreeBranch string
}

// SubAgentRunner runs a sub-agent to its end; the loop gives one to each
// session that may start sub-agents.
type SubAgentRunner interface {
	RunAgent(ctx context.Context, req SubAgentRequest) (SubAgentReport, error)
}

// SideModel runs a tool's one-shot request to the session's provider: no
// client tools, no history, nothing of it in the conversation; its usage is
// charged to the run, as a sub-agent's is.
type SideModel interface {
	// Ask sends req and returns the whole answer; a request that names no
	// model goes to the session's.
	Ask(ctx context.Context, req llm.Request) (llm.Message, error)
}

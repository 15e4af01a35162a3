package cli

import (
	"path/filepath"
	"slices"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/config"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/mcp"
	"github.com/mini-claude/mini-claude/internal/planmode"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools/skill"
)

// checkRunFlags refuses the numeric flags both modes read when they are out of range.
func checkRunFlags(opts *Options) error {
	if opts.MaxTurns < 0 {
		return usageError("--max-turns must be 0 (no limit) or more, not %d", opts.MaxTurns)
	}
	if opts.MaxBudgetUSD < 0 {
		return usageError("--max-budget-usd must be 0 (no limit) or more, not %s", agent.FormatUSD(opts.MaxBudgetUSD))
	}
	if opts.CompactThreshold < 0 {
		return usageError("--compact-threshold must be 0 (80%% of the model's context window) or a number of tokens, not %d", opts.CompactThreshold)
	}
	return nil
}

// agentOptions assembles the agent of a run, headless or interactive: the
// session's tools with those of the MCP servers connected so far, the
// ToolSearch policy, sub-agents, compaction with the project's memory, and
// the conversation's history and transcript. Every event goes to the
// transcript, then to show.
func (s *session) agentOptions(opts *Options, client llm.Client, servers *mcp.Manager, conv *conversation,
	state *tool.Session, show func(agent.Event)) agent.Options {
	agentOpts := agent.Options{
		Client: client, Model: s.model, System: s.systemPrompt(opts),
		Pool:       func() []tool.Tool { return s.poolWith(servers) },
		ToolSearch: s.toolSearch, Permissions: s.perm, Env: s.env(conv.id, state), MaxTurns: opts.MaxTurns,
		History: conv.history,
		OnEvent: func(e agent.Event) {
			conv.record(e)
			show(e)
		},
		CompactThreshold: opts.CompactThreshold, Memory: s.memory().Text(),
		SubAgents: s.subAgents(), AttachMentions: true,
		Hooks: s.hooks, TranscriptPath: conv.transcriptPath(s.cwd), AttachSideModel: s.attachSideModel,
		Commands: s.commands, Prompts: conv.prompts, Checkpoints: conv.checkpointer(),
	}
	skill.Attach(state, s.commands)
	planmode.Attach(state, filepath.Join(config.Home(), "plans"))
	tool.AttachConnecting(state, connectingServers{s: s, servers: servers})
	if opts.Print || opts.InputFormat == inputStreamJSON {
		// As in Claude Code, the budget holds for headless runs only.
		agentOpts.MaxBudgetUSD = opts.MaxBudgetUSD
	}
	if s.provider.Local {
		agentOpts.Cost = func(llm.Usage) float64 { return 0 }
	}
	return agentOpts
}

// answerable is the pool without the tools that ask the user a question
// (AskUserQuestion, ExitPlanMode), which a session nobody can answer withholds.
func answerable(pool []tool.Tool) []tool.Tool {
	return slices.DeleteFunc(slices.Clone(pool), tool.Tool.RequiresUserInteraction)
}

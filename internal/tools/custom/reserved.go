package custom

import (
	"slices"
	"strings"
)

// claudeCodeTools are the names of Claude Code's tools: those of its tools
// reference (2.1.x) and the names earlier versions used (Task, BashOutput,
// KillShell, MultiEdit, LS, …). Models trained on Claude Code call them by
// name and expect their meaning, and mini-claude's built-in tools bear these
// names, so a project's settings may not give one to a tool of its own (see
// Load). This list is the one place they are kept.
var claudeCodeTools = []string{
	"Agent", "Artifact", "AskUserQuestion", "Bash", "BashOutput", "CronCreate", "CronDelete", "CronList",
	"Edit", "EnterPlanMode", "EnterWorktree", "ExitPlanMode", "ExitWorktree", "Glob", "Grep",
	"KillBash", "KillShell", "LS", "LSP", "ListMcpResourcesTool", "Monitor", "MultiEdit",
	"NotebookEdit", "NotebookRead", "PowerShell", "Read", "ReadMcpResourceTool", "SendMessage",
	"Skill", "SlashCommand", "StructuredOutput", "Task", "TaskCreate", "TaskGet", "TaskList",
	"TaskOutput", "TaskStop", "TaskUpdate", "TeamCreate", "TeamDelete", "TodoRead", "TodoWrite",
	"ToolSearch", "WebFetch", "WebSearch", "Write",
}

// reserved reports whether name is one of Claude Code's tool names, compared
// regardless of case: beside Bash, a tool named "bash" passes for it as well.
func reserved(name string) bool {
	return slices.ContainsFunc(claudeCodeTools, func(r string) bool { return strings.EqualFold(r, name) })
}

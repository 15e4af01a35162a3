// Package tools is the registry of tools, in three layers: AllBase lists every
// built-in, Enabled removes what the rules, the mode and the selection forbid,
// and AssemblePool merges the extra tools (MCP, custom) in a stable order.
package tools

import (
	"cmp"
	"os"
	"slices"

	"github.com/mini-claude/mini-claude/internal/permission"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools/askuserquestion"
	"github.com/mini-claude/mini-claude/internal/tools/bash"
	"github.com/mini-claude/mini-claude/internal/tools/edit"
	"github.com/mini-claude/mini-claude/internal/tools/exitplanmode"
	"github.com/mini-claude/mini-claude/internal/tools/glob"
	"github.com/mini-claude/mini-claude/internal/tools/grep"
	"github.com/mini-claude/mini-claude/internal/tools/notebookedit"
	"github.com/mini-claude/mini-claude/internal/tools/read"
	"github.com/mini-claude/mini-claude/internal/tools/subagent"
	"github.com/mini-claude/mini-claude/internal/tools/todowrite"
	"github.com/mini-claude/mini-claude/internal/tools/toolsearch"
	"github.com/mini-claude/mini-claude/internal/tools/webfetch"
	"github.com/mini-claude/mini-claude/internal/tools/websearch"
	"github.com/mini-claude/mini-claude/internal/tools/worktrees"
	"github.com/mini-claude/mini-claude/internal/tools/write"
)

// SimpleEnv, set to 1, keeps only the simple tool set (SimpleTools).
const SimpleEnv = "MINI_CLAUDE_SIMPLE"

// SimpleTools are the tools kept in simple mode.
var SimpleTools = []string{"Bash", "Edit", "Read"}

// builtins holds the built-in tools, sorted by package name; each built-in
// tool package adds itself here, the one source of truth.
var builtins = []tool.Tool{
	askuserquestion.Tool,
	bash.Tool, bash.TaskOutput, bash.TaskStop,
	edit.Tool,
	exitplanmode.Tool,
	glob.Tool,
	grep.Tool,
	notebookedit.Tool,
	read.Tool,
	subagent.Tool,
	todowrite.Tool,
	toolsearch.Tool,
	webfetch.Tool,
	websearch.Tool,
	worktrees.Enter, worktrees.Exit,
	write.Tool,
}

// AllBase returns every built-in tool, sorted by name.
func AllBase() []tool.Tool {
	return sortedByName(builtins)
}

// Enabled returns the built-ins the session may offer: those named in only (all
// when only is nil), minus whole-tool deny rules, minus tools that are not
// enabled, and only the simple set when MINI_CLAUDE_SIMPLE=1.
func Enabled(perm *permission.Context, only []string) []tool.Tool {
	simple := os.Getenv(SimpleEnv) == "1"
	var enabled []tool.Tool
	for _, t := range AllBase() {
		switch {
		case only != nil && !slices.Contains(only, t.Name()):
		case simple && !slices.Contains(SimpleTools, t.Name()):
		case perm.DeniesTool(t.Name()):
		case !t.IsEnabled():
		default:
			enabled = append(enabled, t)
		}
	}
	return enabled
}

// AssemblePool returns the tools offered to the model: the enabled built-ins
// sorted by name, then the extra tools not denied, sorted by name; a name that
// appears twice keeps its first tool, so built-ins win. The order is stable so
// the prompt-cache prefix holds when extra tools come and go.
func AssemblePool(perm *permission.Context, only []string, extra []tool.Tool) []tool.Tool {
	pool := Enabled(perm, only)
	seen := make(map[string]bool, len(pool))
	for _, t := range pool {
		seen[t.Name()] = true
	}
	for _, t := range sortedByName(extra) {
		if seen[t.Name()] || perm.DeniesTool(t.Name()) || !t.IsEnabled() {
			continue
		}
		seen[t.Name()] = true
		pool = append(pool, t)
	}
	return pool
}

func sortedByName(ts []tool.Tool) []tool.Tool {
	sorted := slices.Clone(ts)
	slices.SortStableFunc(sorted, func(a, b tool.Tool) int { return cmp.Compare(a.Name(), b.Name()) })
	return sorted
}

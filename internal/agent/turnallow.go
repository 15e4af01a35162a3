package agent

import (
	"slices"

	"github.com/mini-claude/mini-claude/internal/permission"
	"github.com/mini-claude/mini-claude/internal/workspace"
)

// allowForTurn adds permission rules that hold until the running prompt's
// turn ends: the allowed-tools of a command the user ran or of a skill a
// tool loaded, as in Claude Code. Rules that do not parse are left out; they
// were reported when the commands were loaded.
func (a *Agent) allowForTurn(texts []string, source string) {
	if len(texts) == 0 {
		return
	}
	rules, _ := permission.ParseRuleList(texts, source)
	base := a.opts.Env.Session.OriginalCwd()
	for i := range rules {
		rules[i].Base = base
	}
	a.turnMu.Lock()
	a.turnAllow = append(a.turnAllow, rules...)
	a.turnMu.Unlock()
}

// endTurnAllow drops the rules allowForTurn added.
func (a *Agent) endTurnAllow() {
	a.turnMu.Lock()
	a.turnAllow = nil
	a.turnMu.Unlock()
}

// permissions is the permission context calls are decided with: the
// session's, its first allowed directory the worktree the session moved
// into (if it did), with the rules the running turn allows, the mode it
// switched to and the session's plan file.
func (a *Agent) permissions() *permission.Context {
	perm := a.opts.Permissions
	if moved := a.opts.Env.Session.Moved(); moved != "" {
		perm = perm.Isolate(workspace.RealPath(moved))
	}
	mode, plan := a.mode.get(), a.planFile()
	a.turnMu.Lock()
	defer a.turnMu.Unlock()
	if len(a.turnAllow) == 0 && mode == "" && plan == "" {
		return perm
	}
	c := *perm
	c.Allow = slices.Concat(c.Allow, a.turnAllow)
	if mode != "" {
		c.Mode = mode
	}
	if plan != "" {
		c.PlanFile = plan
	}
	return &c
}

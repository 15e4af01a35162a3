package agent

import (
	"fmt"
	"strconv"

	"github.com/mini-claude/mini-claude/internal/llm"
)

// overBudget reports whether the run has cost MaxBudgetUSD or more: its own
// requests and the sub-agents' charged to it so far.
func (a *Agent) overBudget(res Result) bool {
	if a.opts.MaxBudgetUSD <= 0 {
		return false
	}
	cost := llm.Cost(a.opts.Model, res.Usage)
	if a.opts.Cost != nil {
		cost = a.opts.Cost(res.Usage)
	}
	a.spentMu.Lock()
	for _, u := range a.spent {
		cost += u.CostUSD
	}
	a.spentMu.Unlock()
	return cost >= a.opts.MaxBudgetUSD
}

// budgetReached ends a run whose cost reached the budget. The calls of its
// last response do not run; each is answered as such, so the conversation
// stays valid for the API should it go on.
func (a *Agent) budgetReached(res Result, uses []llm.ContentBlock) Result {
	if len(uses) > 0 {
		results := make([]llm.ContentBlock, len(uses))
		for i, u := range uses {
			results[i] = plainError(u.ID, "The session reached its maximum budget; this call was not run.")
		}
		a.addUser(llm.Message{Role: llm.RoleUser, Content: results})
	}
	res.Outcome = MaxBudgetReached
	res.Err = fmt.Errorf("reached the maximum budget ($%s)", FormatUSD(a.opts.MaxBudgetUSD))
	return res
}

// FormatUSD writes an amount of dollars as Claude Code does in its budget
// messages: the shortest decimal form, "0.001" or "5".
func FormatUSD(usd float64) string { return strconv.FormatFloat(usd, 'f', -1, 64) }

package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/mini-claude/mini-claude/internal/hooks"
	"github.com/mini-claude/mini-claude/internal/llm"
)

// postToolBatch runs the PostToolBatch hooks once every call of an assistant
// message has its result, before the next request. What they add for the
// model goes at the end of the batch's last result; a block or an exit 2
// ends the session after the batch, as "continue": false does (Claude
// Code's hook_stopped).
func (a *Agent) postToolBatch(ctx context.Context, calls []*pending, results []llm.ContentBlock) {
	if len(calls) == 0 || ctx.Err() != nil || !a.opts.Hooks.Has(hooks.PostToolBatch, "") {
		return
	}
	batch := make([]hooks.BatchCall, len(calls))
	for i, p := range calls {
		batch[i] = hooks.BatchCall{ToolName: p.use.Name, ToolInput: emptyObject(p.use.Input), ToolUseID: p.use.ID, ToolResponse: modelContent(results[i])}
		if p.call == nil {
			continue
		}
		batch[i].ToolName = p.call.Tool().Name()
		if sent, err := p.call.Tool().Parse(p.use.Input); err == nil {
			batch[i].ToolInput = messageInput(p.call.Tool(), sent.Input(), p.use.Input)
		}
	}
	o := a.runHooks(ctx, hooks.PostToolBatch, "", hooks.PostToolBatchInput{Common: a.hookCommon(hooks.PostToolBatch, true), ToolCalls: batch})
	if o.Stop || o.Blocked() {
		a.hookStop.Store(true)
	}
	var notes []string
	for _, c := range o.Context {
		notes = append(notes, "PostToolBatch hook additional context: "+c.Text)
	}
	if len(notes) > 0 {
		last := len(results) - 1
		results[last] = appendToResult(results[last], "\n\n<system-reminder>\n"+strings.Join(notes, "\n")+"\n</system-reminder>")
	}
}

// modelContent is a tool_result's content as the model gets it: a string
// for a lone text, else the blocks.
func modelContent(result llm.ContentBlock) any {
	if len(result.Content) == 1 && result.Content[0].Type == llm.BlockText {
		return result.Content[0].Text
	}
	if result.Content == nil {
		return []llm.ContentBlock{}
	}
	return result.Content
}

// subagentStart runs the SubagentStart hooks of a sub-agent about to start
// and returns their additionalContext, which opens the sub-agent's first
// message as in Claude Code; their plain stdout, exit 2 and systemMessage
// do nothing there, and a failure is told only as a failure.
func (a *Agent) subagentStart(ctx context.Context, id, agentType string) []llm.ContentBlock {
	if !a.opts.Hooks.Has(hooks.SubagentStart, agentType) {
		return nil
	}
	common := a.hookCommon(hooks.SubagentStart, false)
	common.AgentID, common.AgentType = id, agentType
	o := a.opts.Hooks.Run(ctx, hooks.SubagentStart, agentType, hooks.SubagentStartInput{Common: common}, a.observeHooks())
	for _, f := range o.Failures {
		a.emit(HookNotice{Level: "error", Text: f.Describe(), Event: hooks.SubagentStart})
	}
	return HookContextBlocks(hooks.SubagentStart, o.Context)
}

// postCompact runs the PostCompact hooks after a compaction with the model's
// whole answer; what they say reaches the user only.
func (a *Agent) postCompact(ctx context.Context, trigger CompactTrigger, answer string) {
	if !a.opts.Hooks.Has(hooks.PostCompact, string(trigger)) {
		return
	}
	in := hooks.PostCompactInput{Common: a.hookCommon(hooks.PostCompact, false), Trigger: string(trigger), CompactSummary: answer}
	a.runHooks(ctx, hooks.PostCompact, string(trigger), in)
}

// stopFailure runs the StopFailure hooks when the main agent's turn ends on
// an API error, in place of Stop; Claude Code ignores what they answer.
func (a *Agent) stopFailure(ctx context.Context, err error) {
	var apiErr *llm.APIError
	errors.As(err, &apiErr)
	kind := failureKind(apiErr)
	if a.depth > 0 || ctx.Err() != nil || !a.opts.Hooks.Has(hooks.StopFailure, kind) {
		return
	}
	shown := "API Error: " + err.Error()
	switch {
	case apiErr != nil && apiErr.Status == 0:
		shown = "API Error: " + apiErr.Message
	case apiErr != nil:
		shown = fmt.Sprintf("API Error: %d %s", apiErr.Status, apiErr.Message)
	}
	in := hooks.StopFailureInput{Common: a.hookCommon(hooks.StopFailure, false), Error: kind, LastAssistantMessage: shown}
	a.opts.Hooks.Run(ctx, hooks.StopFailure, kind, in, a.observeHooks())
}

// failureKind is Claude Code's name of the kind of an API error: a 400 is
// "unknown" as it is there.
func failureKind(e *llm.APIError) string {
	switch {
	case e == nil:
		return "unknown"
	case e.Status == 401 || e.Status == 403:
		return "authentication_failed"
	case e.Status == 429:
		return "rate_limit"
	case e.Status == 529:
		return "overloaded"
	case e.Status == 404:
		return "model_not_found"
	case e.Status >= 500:
		return "server_error"
	}
	return "unknown"
}

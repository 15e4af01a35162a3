package tui

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/render"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools/subagent"
)

// subAgentRun is what an Agent call's block shows of the sub-agent the call
// started: the tool uses it made so far and, once it ended, how it ended.
type subAgentRun struct {
	background bool
	uses       []*subToolUse
	done       bool
	// summary is the Done line of a sub-agent that completed; stopped says
	// why one that did not stopped.
	summary, stopped string
}

// subToolUse is one tool call of a sub-agent.
type subToolUse struct {
	id, name string
	input    json.RawMessage
	state    toolState
}

// shownSubUses is how many of a sub-agent's latest tool uses a condensed
// block lists, as Claude Code does; the others are counted.
const shownSubUses = 3

func (s *subAgentRun) running() bool { return s != nil && !s.done }

func (s *subAgentRun) setState(id string, state toolState) {
	for _, u := range s.uses {
		if u.id == id && u.state != toolRejected {
			u.state = state
		}
	}
}

// subAgentStarted attaches a sub-agent to its Agent call; it reports false
// when the call is not in the conversation.
func (c *conversation) subAgentStarted(e agent.SubAgentStarted) bool {
	b := c.tools[e.ParentToolUseID]
	if b == nil {
		return false
	}
	b.call.sub = &subAgentRun{background: e.Background}
	b.refresh()
	return true
}

// subAgentEvent follows the tool calls of a sub-agent; events of its own
// sub-agents, which arrive nested, show as its Agent calls only.
func (c *conversation) subAgentEvent(e agent.SubAgentEvent) {
	b := c.tools[e.ParentToolUseID]
	if b == nil || b.call.sub == nil {
		return
	}
	sub := b.call.sub
	switch e := e.Event.(type) {
	case agent.ToolQueued:
		sub.uses = append(sub.uses, &subToolUse{id: e.ID, name: e.Name, input: e.Input, state: toolQueued})
	case agent.ToolStarted:
		sub.setState(e.ID, toolRunning)
	case agent.PermissionDenied:
		sub.setState(e.Denial.ToolUseID, toolRejected)
	case agent.ToolFinished:
		state := toolDone
		if e.Result.IsError {
			state = toolFailed
		}
		sub.setState(e.ID, state)
	}
}

// subAgentFinished records how a sub-agent ended under its Agent call; it
// reports false when the call is not in the conversation.
func (c *conversation) subAgentFinished(e agent.SubAgentFinished) bool {
	b := c.tools[e.ParentToolUseID]
	if b == nil || b.call.sub == nil {
		return false
	}
	sub := b.call.sub
	sub.done = true
	if e.Result.Outcome == agent.Completed {
		sub.summary = subagent.Summary(e.ToolUses, e.ContextTokens, e.Result.Duration)
	} else {
		sub.stopped = "Stopped: " + outcomeText(e.Result)
	}
	b.refresh()
	return true
}

// subAgentBody draws an Agent call that started a sub-agent, given the
// body its own state draws (running, the Done line, an error): a background
// agent's call says so, then follows the agent; a foreground one lists the
// agent's latest tool uses while it runs and, when condensed, only the Done
// line once it completed. Full, every tool use is listed.
func (r *renderer) subAgentBody(c *toolCall, own tool.Text, o tool.RenderOptions) tool.Text {
	sub := c.sub
	var out tool.Text
	switch {
	case sub.background:
		out = append(append(tool.Text{}, own...), r.subUses(sub, o)...)
		switch {
		case sub.summary != "":
			out = append(out, tool.Line{{Text: sub.summary}})
		case sub.stopped != "":
			out = append(out, tool.Line{{Text: sub.stopped, Style: tool.StyleError}})
		}
	case c.state == toolRunning:
		out = r.subUses(sub, o)
		if len(out) == 0 {
			out = render.Styled("Initializing…", tool.StyleDim)
		}
	case c.state == toolDone && !o.Full:
		out = own
	default:
		out = append(r.subUses(sub, o), own...)
	}
	return render.ClipLines(out, o.Width)
}

// subUses lists a sub-agent's tool uses, each titled by its tool's RenderUse
// hook: the latest few and a count of the others, or all of them when full.
func (r *renderer) subUses(sub *subAgentRun, o tool.RenderOptions) tool.Text {
	uses := sub.uses
	hidden := 0
	if !o.Full && len(uses) > shownSubUses {
		hidden = len(uses) - shownSubUses
		uses = uses[hidden:]
	}
	var out tool.Text
	for _, u := range uses {
		name, args := tool.StyleBold, tool.StylePlain
		switch u.state {
		case toolFailed, toolRejected:
			name, args = tool.StyleError, tool.StyleError
		case toolQueued:
			name, args = tool.StyleDim, tool.StyleDim
		}
		line := tool.Line{{Text: u.name, Style: name}}
		if use := r.rendererOf(u.name).RenderUse(u.input, false); use != "" {
			line = append(line, tool.Span{Text: "(" + use + ")", Style: args})
		}
		out = append(out, line)
	}
	switch {
	case hidden == 1:
		out = append(out, tool.Line{{Text: "+1 more tool use (ctrl+o to expand)", Style: tool.StyleDim}})
	case hidden > 1:
		out = append(out, tool.Line{{Text: fmt.Sprintf("+%d more tool uses (ctrl+o to expand)", hidden), Style: tool.StyleDim}})
	}
	return out
}

// rendererOf returns the render hooks of the session's tool name, or the
// generic ones for a tool the session does not know.
func (r *renderer) rendererOf(name string) render.Renderer {
	if t := r.tools(name); t != nil {
		return render.Of(t)
	}
	return render.Generic()
}

// subAgentStarted shows a sub-agent under its Agent call; a line says it
// started only when the call is not on screen.
func (m *model) subAgentStarted(e agent.SubAgentStarted) {
	name := e.Type
	if e.Description != "" {
		name += ": " + e.Description
	}
	m.subAgents[e.AgentID] = name
	if !m.conv.subAgentStarted(e) {
		m.conv.add(&block{kind: blockNotice, text: "Agent " + name + " started"})
	}
}

// subAgentFinished shows how a sub-agent ended under its Agent call. A
// background agent's end also gets a line at the bottom, where the user
// looks, and its report goes to the model in a turn of its own; so does the
// end of one whose call is not on screen.
func (m *model) subAgentFinished(e agent.SubAgentFinished) {
	shown := m.conv.subAgentFinished(e)
	name := m.subAgents[e.AgentID]
	delete(m.subAgents, e.AgentID)
	if e.Background {
		m.reportsPending = true
	} else if shown {
		return
	}
	uses := fmt.Sprintf("%d tool uses", e.ToolUses)
	if e.ToolUses == 1 {
		uses = "1 tool use"
	}
	if e.Result.Outcome != agent.Completed {
		m.conv.add(&block{kind: blockError, text: fmt.Sprintf("Agent %s stopped: %s", name, outcomeText(e.Result))})
		return
	}
	m.conv.add(&block{kind: blockNotice, text: fmt.Sprintf("Agent %s finished · %s · %s", name, uses, e.Result.Duration.Round(100*time.Millisecond))})
}

package cli

import (
	"github.com/google/uuid"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/llm"
)

// addSpent adds a run's usage and cost per model to the session's totals,
// which the result reports as Claude Code does: modelUsage and
// total_cost_usd cover the whole session, sub-agents included.
func (p *printer) addSpent(res agent.Result) {
	if p.spent == nil {
		p.spent = map[string]agent.ModelUsage{}
	}
	for model, u := range res.ModelUsage {
		prev := p.spent[model]
		p.spent[model] = agent.ModelUsage{Usage: prev.Usage.Add(u.Usage), CostUSD: prev.CostUSD + u.CostUSD}
	}
}

// taskStartedEvent announces a sub-agent in stream-json.
type taskStartedEvent struct {
	Type           string `json:"type"`
	Subtype        string `json:"subtype"`
	TaskID         string `json:"task_id"`
	ToolUseID      string `json:"tool_use_id"`
	Description    string `json:"description"`
	SubagentType   string `json:"subagent_type"`
	IsBackgrounded bool   `json:"is_backgrounded"`
	TaskType       string `json:"task_type"`
	Prompt         string `json:"prompt"`
	UUID           string `json:"uuid"`
	SessionID      string `json:"session_id"`
}

// taskNotificationEvent reports a sub-agent's end in stream-json.
type taskNotificationEvent struct {
	Type      string    `json:"type"`
	Subtype   string    `json:"subtype"`
	TaskID    string    `json:"task_id"`
	ToolUseID string    `json:"tool_use_id"`
	Status    string    `json:"status"`
	Summary   string    `json:"summary"`
	Usage     taskUsage `json:"usage"`
	UUID      string    `json:"uuid"`
	SessionID string    `json:"session_id"`
}

type taskUsage struct {
	TotalTokens int   `json:"total_tokens"`
	ToolUses    int   `json:"tool_uses"`
	DurationMS  int64 `json:"duration_ms"`
}

// subAgent prints a sub-agent's start, messages and end in stream-json: its
// messages carry the id of the Agent call as parent_tool_use_id and its
// agent_id, as Claude Code prints them; a nested sub-agent's are printed
// under its own ids.
func (p *printer) subAgent(e agent.Event) {
	switch e := e.(type) {
	case agent.SubAgentStarted:
		if p.subAgents == nil {
			p.subAgents = map[string]agent.SubAgentStarted{}
		}
		p.subAgents[e.AgentID] = e
		p.emit(taskStartedEvent{Type: "system", Subtype: "task_started", TaskID: e.AgentID, ToolUseID: e.ParentToolUseID,
			Description: e.Description, SubagentType: e.Type, IsBackgrounded: e.Background, TaskType: "local_agent",
			Prompt: e.Prompt, UUID: uuid.NewString(), SessionID: p.sessionID})
	case agent.SubAgentFinished:
		status, summary := "completed", e.Result.Text
		if e.Result.Outcome != agent.Completed {
			status = "failed"
			if e.Result.Err != nil {
				summary = e.Result.Err.Error()
			}
		}
		p.emit(taskNotificationEvent{Type: "system", Subtype: "task_notification", TaskID: e.AgentID, ToolUseID: e.ParentToolUseID,
			Status: status, Summary: summary, UUID: uuid.NewString(), SessionID: p.sessionID,
			Usage: taskUsage{TotalTokens: e.ContextTokens, ToolUses: e.ToolUses, DurationMS: e.Result.Duration.Milliseconds()}})
	case agent.SubAgentEvent:
		if inner, ok := e.Event.(agent.SubAgentEvent); ok {
			p.subAgent(inner)
			return
		}
		if _, ok := e.Event.(agent.SubAgentStarted); ok {
			p.subAgent(e.Event)
			return
		}
		if _, ok := e.Event.(agent.SubAgentFinished); ok {
			p.subAgent(e.Event)
			return
		}
		p.subAgentMessage(e)
	}
}

// subAgentMessage prints an assistant message, a tool result or the prompt of a sub-agent.
func (p *printer) subAgentMessage(e agent.SubAgentEvent) {
	parent := e.ParentToolUseID
	model := p.subAgents[e.AgentID].Model
	line := messageEvent{ParentToolUseID: &parent, AgentID: e.AgentID, SessionID: p.sessionID, Timestamp: timestamp()}
	switch ev := e.Event.(type) {
	case agent.AssistantMessage:
		for _, block := range ev.Message.Content {
			line.Type, line.UUID, line.RequestID = "assistant", uuid.NewString(), ev.RequestID
			line.Message = apiMessage{ID: ev.ID, Type: "message", Role: llm.RoleAssistant, Model: model,
				Content: []llm.ContentBlock{block}, Usage: ev.Usage}
			p.emit(line)
		}
	case agent.ToolFinished:
		result := p.toolResultLine(ev)
		result.ParentToolUseID, result.AgentID = &parent, e.AgentID
		p.emit(result)
	case agent.UserMessage:
		for _, b := range ev.Message.Content {
			if b.Type == llm.BlockToolResult {
				return
			}
		}
		line.Type, line.UUID, line.Message = "user", uuid.NewString(), ev.Message
		p.emit(line)
	}
}

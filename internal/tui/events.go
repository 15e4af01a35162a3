package tui

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mini-claude/mini-claude/internal/agent"
)

// sessionEvent shows the events that are not part of a message: sub-agents
// and their tool calls, and compactions (what hooks do is hookEvent's).
func (m *model) sessionEvent(e agent.Event) {
	switch e := e.(type) {
	case agent.SubAgentStarted:
		m.subAgentStarted(e)
	case agent.SubAgentEvent:
		m.conv.subAgentEvent(e)
	case agent.SubAgentFinished:
		m.subAgentFinished(e)
	case agent.MentionAttached:
		verb := "Read"
		if e.Directory {
			verb = "Listed"
		}
		m.conv.add(&block{kind: blockNotice, text: verb + " " + m.displayPath(e.Path)})
	case agent.CompactionStarted:
		m.conv.finishLive()
		m.conv.add(&block{kind: blockNotice, text: fmt.Sprintf("Compacting the conversation (%s, about %d tokens)…", e.Trigger, e.PreTokens)})
	case agent.ResultsCleared:
		m.info(fmt.Sprintf("Cleared %d old tool results to free context (about %d → %d tokens).", len(e.ToolUseIDs), e.PreTokens, e.PostTokens))
		m.ctxUsed = e.PostTokens
	case agent.Compacted:
		m.conv.add(&block{kind: blockCompact, body: e.Message.Text(), text: fmt.Sprintf("Conversation compacted: %d messages summarised (about %d → %d tokens).",
			e.MessagesSummarized, e.PreTokens, e.PostTokens)})
		m.ctxUsed = e.PostTokens
	case agent.ModeChanged:
		m.mode = e.Mode
		if m.turn != nil {
			m.turn.mode = e.Mode
		}
	case agent.CommandFailed:
		m.conv.add(&block{kind: blockError, text: fmt.Sprintf("/%s was not sent: %s", e.Name, e.Text)})
	case agent.CompactionFailed:
		m.conv.add(&block{kind: blockError, text: "The conversation was not compacted: " + errText(e.Err)})
		if m.turn != nil && m.turn.compacting {
			m.turn.compactShown = true
		}
	}
}

func outcomeText(res agent.Result) string {
	switch {
	case res.Err != nil:
		return res.Err.Error()
	case res.Outcome == agent.Interrupted:
		return "interrupted"
	}
	return "it ended without an answer"
}

func (m *model) cmdCompact(instructions string) tea.Cmd {
	if m.opts.Compact == nil {
		m.info("This session cannot compact its conversation.")
		return nil
	}
	m.applyBetweenTurns()
	ctx, cancel := context.WithCancel(context.Background())
	m.turn = &turnState{cancel: cancel, started: time.Now(), compacting: true}
	compact := m.opts.Compact
	return tea.Batch(tick(), m.work.cmd(func() tea.Msg {
		defer cancel()
		return compactDoneMsg{err: compact(ctx, instructions)}
	}))
}

func (m *model) compactDone(err error) {
	shown := m.turn != nil && m.turn.compactShown
	m.turn = nil
	if err != nil && !shown {
		m.conv.add(&block{kind: blockError, text: "The conversation was not compacted: " + err.Error()})
	}
}

func (m *model) cmdTodos(string) tea.Cmd {
	todos := ""
	if m.opts.Todos != nil {
		todos = m.opts.Todos()
	}
	if todos == "" {
		m.info("No todos.")
		return nil
	}
	m.info("Todos:\n" + todos)
	return nil
}

// deliverReports starts a turn that gives the model the reports of finished
// background agents, once no turn runs and no question is open.
func (m *model) deliverReports() tea.Cmd {
	if !m.reportsPending || m.turn != nil || m.dialog != nil || m.opts.RunNotices == nil {
		return nil
	}
	m.reportsPending = false
	m.applyBetweenTurns()
	ctx, cancel := context.WithCancel(context.Background())
	m.turn = &turnState{cancel: cancel, started: time.Now()}
	runNotices := m.opts.RunNotices
	return tea.Batch(tick(), m.work.cmd(func() tea.Msg {
		defer cancel()
		res, _ := runNotices(ctx)
		return turnDoneMsg{result: res}
	}))
}

// displayPath shows a path relative to the session's directory when it lies
// inside it, as the user would type it.
func (m *model) displayPath(path string) string {
	if rel, err := filepath.Rel(m.opts.Cwd, path); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
		return rel
	}
	return path
}

package acp

import (
	"encoding/json"
	"fmt"
	"strings"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/tools/write"
)

// call is a tool call of the conversation as the updates describe it.
type call struct {
	name  string
	input json.RawMessage
}

// onEvent turns the agent's events into session/update notifications:
// streamed text and thinking as chunks, each tool call as a tool_call then
// tool_call_updates as it runs and ends, and a TodoWrite's list as the plan.
func (s *session) onEvent(e agent.Event) {
	switch e := e.(type) {
	case agent.TextDelta:
		s.srv.update(s.id, sdk.UpdateAgentMessageText(e.Text))
	case agent.ThinkingDelta:
		s.srv.update(s.id, sdk.UpdateAgentThoughtText(e.Text))
	case agent.AssistantMessage:
		s.mu.Lock()
		s.lastStop = e.StopReason
		s.mu.Unlock()
	case agent.ToolQueued:
		s.mu.Lock()
		s.calls[e.ID] = call{name: e.Name, input: e.Input}
		s.mu.Unlock()
		s.srv.update(s.id, startToolCall(e.ID, e.Name, e.Input, sdk.ToolCallStatusPending))
		if entries, ok := planEntries(e.Name, e.Input); ok {
			s.srv.update(s.id, sdk.UpdatePlan(entries...))
		}
	case agent.ToolStarted:
		s.srv.update(s.id, sdk.UpdateToolCall(sdk.ToolCallId(e.ID), sdk.WithUpdateStatus(sdk.ToolCallStatusInProgress)))
	case agent.ToolFinished:
		s.mu.Lock()
		c := s.calls[e.ID]
		s.mu.Unlock()
		s.srv.update(s.id, finishToolCall(e.ID, c, e.Result, e.Output))
	}
}

// startToolCall is the tool_call update that announces a call.
func startToolCall(id, name string, input json.RawMessage, status sdk.ToolCallStatus) sdk.SessionUpdate {
	info := describe(name, input)
	opts := []sdk.ToolCallStartOpt{sdk.WithStartKind(info.kind), sdk.WithStartStatus(status), sdk.WithStartRawInput(rawInput(input))}
	if len(info.locations) > 0 {
		opts = append(opts, sdk.WithStartLocations(info.locations))
	}
	if len(info.content) > 0 {
		opts = append(opts, sdk.WithStartContent(info.content))
	}
	return sdk.StartToolCall(sdk.ToolCallId(id), info.title, opts...)
}

// finishToolCall is the tool_call_update that ends a call: completed or
// failed, with what the model was told, or an edit's diff.
func finishToolCall(id string, c call, result llm.ContentBlock, output any) sdk.SessionUpdate {
	status := sdk.ToolCallStatusCompleted
	if result.IsError {
		status = sdk.ToolCallStatusFailed
	}
	text := resultText(result)
	opts := []sdk.ToolCallUpdateOpt{sdk.WithUpdateStatus(status), sdk.WithUpdateRawOutput(text)}
	if content := finishedContent(c, result, output, text); len(content) > 0 {
		opts = append(opts, sdk.WithUpdateContent(content))
	}
	return sdk.UpdateToolCall(sdk.ToolCallId(id), opts...)
}

// finishedContent is what a finished call shows: an edit's diff (a
// replaced file's whole old and new text for Write), else the result's text.
func finishedContent(c call, result llm.ContentBlock, output any, text string) []sdk.ToolCallContent {
	if !result.IsError {
		if out, ok := output.(write.Output); ok && out.OriginalFile != nil {
			return []sdk.ToolCallContent{sdk.ToolDiffContent(out.FilePath, out.Content, *out.OriginalFile)}
		}
		if info := describe(c.name, c.input); len(info.content) > 0 {
			return info.content
		}
	}
	if text == "" {
		return nil
	}
	return []sdk.ToolCallContent{sdk.ToolContent(sdk.TextBlock(text))}
}

// resultText is the text of a tool_result block.
func resultText(b llm.ContentBlock) string {
	var parts []string
	for _, c := range b.Content {
		if c.Type == llm.BlockText {
			parts = append(parts, c.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// rawInput is the call's input as a JSON value, for the editor to show.
func rawInput(input json.RawMessage) any {
	var v any
	if json.Unmarshal(input, &v) != nil {
		return string(input)
	}
	return v
}

// toolInfo is how the editor presents a call.
type toolInfo struct {
	title     string
	kind      sdk.ToolKind
	locations []sdk.ToolCallLocation
	content   []sdk.ToolCallContent
}

// callInput holds the input fields the presentation of a call uses.
type callInput struct {
	FilePath     string `json:"file_path"`
	NotebookPath string `json:"notebook_path"`
	Path         string `json:"path"`
	Offset       *int   `json:"offset"`
	Command      string `json:"command"`
	Pattern      string `json:"pattern"`
	URL          string `json:"url"`
	Query        string `json:"query"`
	Description  string `json:"description"`
	OldString    string `json:"old_string"`
	NewString    string `json:"new_string"`
	Content      string `json:"content"`
}

// describe gives a call its title, kind, the files it touches and, for an
// edit, the diff it proposes.
func describe(name string, raw json.RawMessage) toolInfo {
	var in callInput
	_ = json.Unmarshal(raw, &in)
	at := func(path string, line *int) []sdk.ToolCallLocation {
		if path == "" {
			return nil
		}
		return []sdk.ToolCallLocation{{Path: path, Line: line}}
	}
	switch name {
	case "Read":
		title := "Read " + in.FilePath
		if in.Offset != nil && *in.Offset > 1 {
			title += fmt.Sprintf(" (from line %d)", *in.Offset)
		}
		return toolInfo{title: title, kind: sdk.ToolKindRead, locations: at(in.FilePath, in.Offset)}
	case "Edit":
		return toolInfo{title: "Edit " + in.FilePath, kind: sdk.ToolKindEdit, locations: at(in.FilePath, nil),
			content: []sdk.ToolCallContent{sdk.ToolDiffContent(in.FilePath, in.NewString, in.OldString)}}
	case "Write":
		return toolInfo{title: "Write " + in.FilePath, kind: sdk.ToolKindEdit, locations: at(in.FilePath, nil),
			content: []sdk.ToolCallContent{sdk.ToolDiffContent(in.FilePath, in.Content)}}
	case "NotebookEdit":
		return toolInfo{title: "Edit " + in.NotebookPath, kind: sdk.ToolKindEdit, locations: at(in.NotebookPath, nil)}
	case "Bash":
		return toolInfo{title: "`" + in.Command + "`", kind: sdk.ToolKindExecute}
	case "BashOutput", "KillShell":
		return toolInfo{title: name, kind: sdk.ToolKindExecute}
	case "Glob":
		return toolInfo{title: "Find `" + in.Pattern + "`", kind: sdk.ToolKindSearch, locations: at(in.Path, nil)}
	case "Grep":
		return toolInfo{title: "Search `" + in.Pattern + "`", kind: sdk.ToolKindSearch, locations: at(in.Path, nil)}
	case "ToolSearch":
		return toolInfo{title: "Find tools: " + in.Query, kind: sdk.ToolKindSearch}
	case "WebFetch":
		return toolInfo{title: "Fetch " + in.URL, kind: sdk.ToolKindFetch}
	case "WebSearch":
		return toolInfo{title: "Search the web: " + in.Query, kind: sdk.ToolKindFetch}
	case "TodoWrite":
		return toolInfo{title: "Update the plan", kind: sdk.ToolKindThink}
	case "Agent", "Task":
		return toolInfo{title: "Agent: " + in.Description, kind: sdk.ToolKindThink}
	}
	return toolInfo{title: name, kind: sdk.ToolKindOther}
}

// planEntries reads a TodoWrite call's list as the plan's entries.
func planEntries(name string, raw json.RawMessage) ([]sdk.PlanEntry, bool) {
	if name != "TodoWrite" {
		return nil, false
	}
	var in struct {
		Todos []struct {
			Content string `json:"content"`
			Status  string `json:"status"`
		} `json:"todos"`
	}
	if json.Unmarshal(raw, &in) != nil {
		return nil, false
	}
	entries := make([]sdk.PlanEntry, 0, len(in.Todos))
	for _, t := range in.Todos {
		status := sdk.PlanEntryStatus(t.Status)
		switch status {
		case sdk.PlanEntryStatusPending, sdk.PlanEntryStatusInProgress, sdk.PlanEntryStatusCompleted:
		default:
			status = sdk.PlanEntryStatusPending
		}
		entries = append(entries, sdk.PlanEntry{Content: t.Content, Status: status, Priority: sdk.PlanEntryPriorityMedium})
	}
	return entries, true
}

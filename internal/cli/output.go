package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/tools/subagent"
)

// The output formats of -p.
const (
	formatText       = "text"
	formatJSON       = "json"
	formatStreamJSON = "stream-json"
)

// printer writes a headless run in one output format; events arrive one at a time.
type printer struct {
	format    string
	out       io.Writer
	errOut    io.Writer
	verbose   bool
	sessionID string
	model     string
	// maxBudgetUSD is --max-budget-usd, which a result reports when reached.
	maxBudgetUSD float64
	// stopReason is the stop reason of the last assistant message.
	stopReason llm.StopReason
	// spent sums the usage and cost per model of the runs reported so far.
	spent map[string]agent.ModelUsage
	// subAgents describes the sub-agents started so far, by agent id.
	subAgents map[string]agent.SubAgentStarted
	// includeHooks reports every hook's run in stream-json (--include-hook-events).
	includeHooks bool
	// asksProgram says an Agent SDK program answers the questions, so a
	// refusal is its answer, not a question nobody could answer.
	asksProgram bool
	// init is the stream-json init line until it is printed: before the
	// first line that is not a hook's run, as Claude Code prints it after
	// the SessionStart and UserPromptSubmit hooks.
	init *initEvent
	// stopNotified says the Stop hook notification was printed.
	stopNotified bool
	// mu keeps lines whole and in order: a SessionStart or SessionEnd hook
	// reports from its own goroutine.
	mu sync.Mutex
}

// initEvent is the first stream-json line, describing the session.
type initEvent struct {
	Type                  string           `json:"type"`
	Subtype               string           `json:"subtype"`
	Cwd                   string           `json:"cwd"`
	SessionID             string           `json:"session_id"`
	Tools                 []string         `json:"tools"`
	MCPServers            []mcpServerEvent `json:"mcp_servers"`
	Model                 string           `json:"model"`
	PermissionMode        string           `json:"permissionMode"`
	SlashCommands         []string         `json:"slash_commands"`
	APIKeySource          string           `json:"apiKeySource"`
	OutputStyle           string           `json:"output_style"`
	Agents                []string         `json:"agents"`
	Skills                []string         `json:"skills"`
	AdditionalDirectories []string         `json:"additional_directories"`
	UUID                  string           `json:"uuid"`
}

func (p *printer) start(s *session, toolNames []string, mcpServers []mcpServerEvent, keySource string) {
	if p.format != formatStreamJSON {
		return
	}
	dirs := s.dirs
	if dirs == nil {
		dirs = []string{}
	}
	names := slices.Clone(toolNames)
	for i, name := range names {
		if name == subagent.Name {
			// Claude Code's init lists the Agent tool under its former name.
			names[i] = "Task"
		}
	}
	p.init = &initEvent{
		Type: "system", Subtype: "init", Cwd: s.cwd, SessionID: p.sessionID, Tools: names,
		MCPServers: mcpServers, Model: s.model, PermissionMode: string(s.perm.Mode), SlashCommands: nonNil(s.commands.Names()),
		APIKeySource: keySource, OutputStyle: "default", Agents: subagent.Names(s.agentTypes), Skills: nonNil(s.commands.SkillNames()),
		AdditionalDirectories: dirs, UUID: uuid.NewString(),
	}
}

// nonNil returns list, or an empty list for nil, which JSON writes as [].
func nonNil(list []string) []string {
	if list == nil {
		return []string{}
	}
	return list
}

// event prints one agent event: in stream-json, each assistant content block
// and each tool result is a line of its own, as Claude Code prints them.
func (p *printer) event(e agent.Event) {
	if sub, ok := e.(agent.SubAgentEvent); ok {
		if inner, ok := subAgentHookEvent(sub); ok {
			e = inner
		}
	}
	if p.hookEvent(e) {
		return
	}
	switch e := e.(type) {
	case agent.StreamRetry:
		p.retry(e)
	case agent.AssistantMessage:
		p.stopReason = e.StopReason
		if p.format == formatStreamJSON {
			p.assistant(e)
		}
	case agent.ToolFinished:
		if p.format == formatStreamJSON {
			p.toolResult(e)
		}
	case agent.CommandFailed:
		// Claude Code answers a command it could not send with a message of
		// its own, from model "<synthetic>".
		if p.format == formatStreamJSON {
			end := "end_turn"
			p.emit(messageEvent{Type: "assistant", SessionID: p.sessionID, UUID: uuid.NewString(), Timestamp: timestamp(),
				Message: apiMessage{ID: uuid.NewString(), Type: "message", Role: llm.RoleAssistant, Model: "<synthetic>",
					Content: []llm.ContentBlock{llm.TextBlock(e.Text)}, StopReason: &end}})
		}
	case agent.ModeChanged:
		// A permission answer or an approved plan changed the mode; Claude
		// Code reports it as it reports the program's setPermissionMode.
		if p.format == formatStreamJSON {
			p.emit(statusEvent{Type: "system", Subtype: "status", PermissionMode: string(e.Mode), SessionID: p.sessionID, UUID: uuid.NewString()})
		}
	case agent.Compacted:
		p.compacted(e)
	case agent.CompactionFailed:
		fmt.Fprintf(p.errOut, "Warning: %v; the conversation goes on uncompacted\n", e.Err)
	case agent.SubAgentStarted, agent.SubAgentEvent, agent.SubAgentFinished:
		if p.format == formatStreamJSON {
			p.subAgent(e)
		}
	case agent.PermissionDenied:
		// Claude Code reports the calls refused for want of someone to ask,
		// not those a rule or a hook's deny refused (their results say so).
		if p.format == formatStreamJSON && e.Asked && !p.asksProgram {
			ev := deniedEvent{Type: "system", Subtype: "permission_denied", ToolName: e.Denial.ToolName,
				ToolUseID: e.Denial.ToolUseID, Message: e.Message, UUID: uuid.NewString(), SessionID: p.sessionID}
			if e.ByHook {
				ev.DecisionReasonType, ev.DecisionReason = "hook", e.Message
			}
			p.emit(ev)
		}
	}
}

// deniedEvent reports a refused call in stream-json.
type deniedEvent struct {
	Type      string `json:"type"`
	Subtype   string `json:"subtype"`
	ToolName  string `json:"tool_name"`
	ToolUseID string `json:"tool_use_id"`
	// DecisionReasonType is "hook" when a hook asked; DecisionReason is its reason.
	DecisionReasonType string `json:"decision_reason_type,omitempty"`
	DecisionReason     string `json:"decision_reason,omitempty"`
	Message            string `json:"message"`
	UUID               string `json:"uuid"`
	SessionID          string `json:"session_id"`
}

// compactBoundaryEvent reports a compaction in stream-json, in Claude Code's shape.
type compactBoundaryEvent struct {
	Type            string          `json:"type"`
	Subtype         string          `json:"subtype"`
	SessionID       string          `json:"session_id"`
	UUID            string          `json:"uuid"`
	CompactMetadata compactMetadata `json:"compact_metadata"`
}

type compactMetadata struct {
	Trigger    agent.CompactTrigger `json:"trigger"`
	PreTokens  int                  `json:"pre_tokens"`
	PostTokens int                  `json:"post_tokens"`
	DurationMS int64                `json:"duration_ms"`
}

func (p *printer) compacted(e agent.Compacted) {
	switch {
	case p.format == formatStreamJSON:
		p.emit(compactBoundaryEvent{Type: "system", Subtype: "compact_boundary", SessionID: p.sessionID, UUID: e.UUID,
			CompactMetadata: compactMetadata{Trigger: e.Trigger, PreTokens: e.PreTokens, PostTokens: e.PostTokens, DurationMS: e.Duration.Milliseconds()}})
	case p.verbose:
		fmt.Fprintf(p.errOut, "Compacted the conversation: about %d tokens before, %d after\n", e.PreTokens, e.PostTokens)
	}
}

// retryEvent reports a retried model request in stream-json.
type retryEvent struct {
	Type         string `json:"type"`
	Subtype      string `json:"subtype"`
	Attempt      int    `json:"attempt"`
	RetryDelayMS int64  `json:"retry_delay_ms"`
	ErrorStatus  int    `json:"error_status"`
	Error        string `json:"error"`
	SessionID    string `json:"session_id"`
	UUID         string `json:"uuid"`
}

// messageEvent is an assistant or user line of stream-json: one content block
// of the conversation, in the API's message shape.
type messageEvent struct {
	Type            string  `json:"type"`
	Message         any     `json:"message"`
	ParentToolUseID *string `json:"parent_tool_use_id"`
	AgentID         string  `json:"agent_id,omitempty"`
	SessionID       string  `json:"session_id"`
	UUID            string  `json:"uuid"`
	Timestamp       string  `json:"timestamp"`
	RequestID       string  `json:"request_id,omitempty"`
	ToolUseResult   any     `json:"tool_use_result,omitempty"`
	// IsSynthetic marks a message the session wrote, such as a Stop hook's feedback.
	IsSynthetic bool `json:"isSynthetic,omitempty"`
}

func (p *printer) retry(e agent.StreamRetry) {
	status, kind := 0, "connection_error"
	var apiErr *llm.APIError
	if errors.As(e.Err, &apiErr) {
		status, kind = apiErr.Status, apiErr.Type
	}
	switch {
	case p.format == formatStreamJSON:
		p.emit(retryEvent{Type: "system", Subtype: "api_retry", Attempt: e.Attempt, RetryDelayMS: e.Wait.Milliseconds(),
			ErrorStatus: status, Error: kind, SessionID: p.sessionID, UUID: uuid.NewString()})
	case p.verbose:
		fmt.Fprintf(p.errOut, "Retrying in %s (attempt %d): %v\n", e.Wait.Round(time.Millisecond), e.Attempt, e.Err)
	}
}

// apiMessage is an assistant message in the Messages API's response shape.
type apiMessage struct {
	ID           string             `json:"id"`
	Type         string             `json:"type"`
	Role         llm.Role           `json:"role"`
	Model        string             `json:"model"`
	Content      []llm.ContentBlock `json:"content"`
	StopReason   *string            `json:"stop_reason"`
	StopSequence *string            `json:"stop_sequence"`
	Usage        llm.Usage          `json:"usage"`
}

func (p *printer) assistant(e agent.AssistantMessage) {
	for _, block := range e.Message.Content {
		p.emit(messageEvent{
			Type: "assistant",
			Message: apiMessage{ID: e.ID, Type: "message", Role: llm.RoleAssistant, Model: p.model,
				Content: []llm.ContentBlock{block}, Usage: e.Usage},
			SessionID: p.sessionID, UUID: uuid.NewString(), Timestamp: timestamp(), RequestID: e.RequestID,
		})
	}
}

func (p *printer) toolResult(e agent.ToolFinished) {
	p.emit(p.toolResultLine(e))
}

// toolResultLine is the user line of a finished call, with the tool's output as tool_use_result.
func (p *printer) toolResultLine(e agent.ToolFinished) messageEvent {
	text := textOf(e.Result.Content)
	output := e.Output
	switch {
	case e.Result.IsError && output == nil:
		text = strings.TrimSuffix(strings.TrimPrefix(text, "<tool_use_error>"), "</tool_use_error>")
		output = "Error: " + text
	case output == nil:
		output = text
	}
	return messageEvent{
		Type:      "user",
		Message:   llm.Message{Role: llm.RoleUser, Content: []llm.ContentBlock{e.Result}},
		SessionID: p.sessionID, UUID: uuid.NewString(), Timestamp: timestamp(), ToolUseResult: output,
	}
}

// resultEvent is the final object of json and stream-json output.
type resultEvent struct {
	Type              string         `json:"type"`
	Subtype           string         `json:"subtype"`
	IsError           bool           `json:"is_error"`
	DurationMS        int64          `json:"duration_ms"`
	DurationAPIMS     int64          `json:"duration_api_ms"`
	NumTurns          int            `json:"num_turns"`
	Result            string         `json:"result"`
	StopReason        *string        `json:"stop_reason"`
	SessionID         string         `json:"session_id"`
	TotalCostUSD      float64        `json:"total_cost_usd"`
	Usage             llm.Usage      `json:"usage"`
	ModelUsage        map[string]any `json:"modelUsage"`
	PermissionDenials []agent.Denial `json:"permission_denials"`
	TerminalReason    string         `json:"terminal_reason"`
	Errors            []string       `json:"errors,omitempty"`
	APIErrorStatus    *int           `json:"api_error_status"`
	UUID              string         `json:"uuid"`
}

// finishTurn reports a run that is followed by another (background agents
// reported after it): stream-json gets its result, text its answer; json
// keeps only the last result, as Claude Code does.
func (p *printer) finishTurn(res agent.Result) {
	switch p.format {
	case formatText:
		if res.Outcome == agent.Completed {
			fmt.Fprintln(p.out, res.Text)
			fmt.Fprintln(p.out)
		}
	case formatStreamJSON:
		p.emit(p.resultEvent(res))
	default:
		p.addSpent(res)
	}
}

func (p *printer) finish(res agent.Result) {
	switch p.format {
	case formatText:
		switch {
		case res.Outcome == agent.Completed:
			fmt.Fprintln(p.out, res.Text)
		case errors.Is(res.Err, agent.ErrHookInterrupt):
			// Claude Code's words for a turn a hook interrupted, without a newline.
			fmt.Fprint(p.out, "Execution error")
		}
	case formatJSON, formatStreamJSON:
		p.emit(p.resultEvent(res))
	}
}

func (p *printer) resultEvent(res agent.Result) resultEvent {
	ev := resultEvent{
		Type: "result", Subtype: "success", DurationMS: res.Duration.Milliseconds(),
		DurationAPIMS: res.APIDuration.Milliseconds(), NumTurns: res.NumTurns, Result: res.Text,
		SessionID: p.sessionID, TotalCostUSD: res.CostUSD, Usage: res.Usage,
		PermissionDenials: res.Denials, TerminalReason: "completed", UUID: uuid.NewString(),
		ModelUsage: map[string]any{},
	}
	if p.stopReason != "" {
		stop := string(p.stopReason)
		ev.StopReason = &stop
	}
	if ev.PermissionDenials == nil {
		ev.PermissionDenials = []agent.Denial{}
	}
	p.addSpent(res)
	ev.TotalCostUSD = 0
	for model, u := range p.spent {
		ev.TotalCostUSD += u.CostUSD
		ev.ModelUsage[model] = map[string]any{
			"inputTokens": u.Usage.InputTokens, "outputTokens": u.Usage.OutputTokens,
			"cacheReadInputTokens": u.Usage.CacheReadInputTokens, "cacheCreationInputTokens": u.Usage.CacheCreationInputTokens,
			"costUSD": u.CostUSD,
		}
	}
	switch res.Outcome {
	case agent.MaxTurnsReached:
		ev.Subtype, ev.IsError, ev.TerminalReason = "error_max_turns", true, "max_turns"
		// Claude Code's words for it, which programs read.
		ev.Errors = []string{fmt.Sprintf("Reached maximum number of turns (%d)", res.NumTurns)}
		// Claude Code counts the turn it refused to start; scripts compare against that.
		ev.NumTurns++
	case agent.MaxBudgetReached:
		ev.Subtype, ev.IsError, ev.TerminalReason = "error_max_budget_usd", true, "budget_exhausted"
		ev.Errors = []string{fmt.Sprintf("Reached maximum budget ($%s)", agent.FormatUSD(p.maxBudgetUSD))}
	case agent.Failed:
		ev.Subtype, ev.IsError, ev.TerminalReason = "error_during_execution", true, "error"
		var apiErr *llm.APIError
		if errors.Is(res.Err, agent.ErrHookInterrupt) {
			ev.TerminalReason = "aborted_tools"
		}
		if errors.As(res.Err, &apiErr) {
			ev.TerminalReason = "api_error"
			ev.APIErrorStatus = &apiErr.Status
		}
	case agent.Interrupted:
		ev.Subtype, ev.IsError, ev.TerminalReason = "error_during_execution", true, "interrupted"
	}
	if res.Err != nil && ev.Errors == nil {
		ev.Errors = []string{res.Err.Error()}
	}
	return ev
}

// emit writes v as one line of JSON, with <, > and & as they are, as Claude
// Code prints them; the init line goes first while it is held.
func (p *printer) emit(v any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.init != nil {
		init := p.init
		p.init = nil
		p.write(init)
	}
	p.write(v)
}

// emitHookLine writes v as emit does, leaving a held init line for later:
// Claude Code reports the hooks that run before the session's first message
// before its init line.
func (p *printer) emitHookLine(v any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.write(v)
}

// write writes v as one line of JSON.
func (p *printer) write(v any) {
	enc := json.NewEncoder(p.out)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		fmt.Fprintf(p.errOut, "Error: encode output: %v\n", err)
	}
}

func textOf(blocks []llm.ContentBlock) string {
	var s string
	for _, b := range blocks {
		if b.Type == llm.BlockText {
			s += b.Text
		}
	}
	return s
}

func timestamp() string { return time.Now().UTC().Format("2006-01-02T15:04:05.000Z") }

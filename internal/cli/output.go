package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/llm"
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
	// stopReason is the stop reason of the last assistant message.
	stopReason llm.StopReason
}

// initEvent is the first stream-json line, describing the session.
type initEvent struct {
	Type                  string   `json:"type"`
	Subtype               string   `json:"subtype"`
	Cwd                   string   `json:"cwd"`
	SessionID             string   `json:"session_id"`
	Tools                 []string `json:"tools"`
	MCPServers            []any    `json:"mcp_servers"`
	Model                 string   `json:"model"`
	PermissionMode        string   `json:"permissionMode"`
	SlashCommands         []string `json:"slash_commands"`
	APIKeySource          string   `json:"apiKeySource"`
	OutputStyle           string   `json:"output_style"`
	AdditionalDirectories []string `json:"additional_directories"`
	UUID                  string   `json:"uuid"`
}

func (p *printer) start(s *session, toolNames []string, keySource string) {
	if p.format != formatStreamJSON {
		return
	}
	dirs := s.dirs
	if dirs == nil {
		dirs = []string{}
	}
	p.emit(initEvent{
		Type: "system", Subtype: "init", Cwd: s.cwd, SessionID: p.sessionID, Tools: toolNames,
		MCPServers: []any{}, Model: s.model, PermissionMode: string(s.perm.Mode), SlashCommands: []string{},
		APIKeySource: keySource, OutputStyle: "default", AdditionalDirectories: dirs, UUID: uuid.NewString(),
	})
}

// event prints one agent event: in stream-json, each assistant content block
// and each tool result is a line of its own, as Claude Code prints them.
func (p *printer) event(e agent.Event) {
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
	case agent.PermissionDenied:
		if p.format == formatStreamJSON {
			p.emit(map[string]any{
				"type": "system", "subtype": "permission_denied", "tool_name": e.Denial.ToolName,
				"tool_use_id": e.Denial.ToolUseID, "message": e.Message,
				"uuid": uuid.NewString(), "session_id": p.sessionID,
			})
		}
	}
}

func (p *printer) retry(e agent.StreamRetry) {
	status, kind := 0, "connection_error"
	var apiErr *llm.APIError
	if errors.As(e.Err, &apiErr) {
		status, kind = apiErr.Status, apiErr.Type
	}
	switch {
	case p.format == formatStreamJSON:
		p.emit(map[string]any{
			"type": "system", "subtype": "api_retry", "attempt": e.Attempt,
			"retry_delay_ms": e.Wait.Milliseconds(), "error_status": status, "error": kind,
			"session_id": p.sessionID, "uuid": uuid.NewString(),
		})
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
		p.emit(map[string]any{
			"type": "assistant",
			"message": apiMessage{ID: e.ID, Type: "message", Role: llm.RoleAssistant, Model: p.model,
				Content: []llm.ContentBlock{block}, Usage: e.Usage},
			"parent_tool_use_id": nil, "session_id": p.sessionID, "uuid": uuid.NewString(),
			"timestamp": timestamp(), "request_id": e.RequestID,
		})
	}
}

func (p *printer) toolResult(e agent.ToolFinished) {
	text := textOf(e.Result.Content)
	output := e.Output
	switch {
	case e.Result.IsError:
		text = strings.TrimSuffix(strings.TrimPrefix(text, "<tool_use_error>"), "</tool_use_error>")
		output = "Error: " + text
	case output == nil:
		output = text
	}
	p.emit(map[string]any{
		"type":               "user",
		"message":            llm.Message{Role: llm.RoleUser, Content: []llm.ContentBlock{e.Result}},
		"parent_tool_use_id": nil, "session_id": p.sessionID, "uuid": uuid.NewString(),
		"timestamp": timestamp(), "tool_use_result": output,
	})
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

func (p *printer) finish(res agent.Result) {
	switch p.format {
	case formatText:
		if res.Outcome == agent.Completed {
			fmt.Fprintln(p.out, res.Text)
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
	if res.Usage != (llm.Usage{}) {
		ev.ModelUsage[p.model] = map[string]any{
			"inputTokens": res.Usage.InputTokens, "outputTokens": res.Usage.OutputTokens,
			"cacheReadInputTokens": res.Usage.CacheReadInputTokens, "cacheCreationInputTokens": res.Usage.CacheCreationInputTokens,
			"costUSD": res.CostUSD,
		}
	}
	switch res.Outcome {
	case agent.MaxTurnsReached:
		ev.Subtype, ev.IsError, ev.TerminalReason = "error_max_turns", true, "max_turns"
		// Claude Code counts the turn it refused to start; scripts compare against that.
		ev.NumTurns++
	case agent.Failed:
		ev.Subtype, ev.IsError, ev.TerminalReason = "error_during_execution", true, "error"
		var apiErr *llm.APIError
		if errors.As(res.Err, &apiErr) {
			ev.TerminalReason = "api_error"
			ev.APIErrorStatus = &apiErr.Status
		}
	case agent.Interrupted:
		ev.Subtype, ev.IsError, ev.TerminalReason = "error_during_execution", true, "interrupted"
	}
	if res.Err != nil {
		ev.Errors = []string{res.Err.Error()}
	}
	return ev
}

func (p *printer) emit(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		fmt.Fprintf(p.errOut, "Error: encode output: %v\n", err)
		return
	}
	b = append(b, '\n')
	p.out.Write(b)
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

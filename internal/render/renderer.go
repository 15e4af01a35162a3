package render

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mini-claude/mini-claude/internal/tool"
)

// Renderer draws a call in each of its states; Of gives any tool one.
type Renderer interface {
	// RenderUse is the argument summary after the tool's name in the call's
	// title, "Bash(<summary>)"; partial says the input is still streaming.
	RenderUse(input json.RawMessage, partial bool) string
	// RenderQueued is shown under the title while the call waits its turn.
	RenderQueued(input json.RawMessage, o tool.RenderOptions) tool.Text
	// RenderProgress is shown while the call runs, from its latest progress event.
	RenderProgress(input json.RawMessage, ev tool.ProgressEvent, elapsed time.Duration, o tool.RenderOptions) tool.Text
	// RenderResult is shown when the call succeeded, condensed or full.
	RenderResult(input json.RawMessage, output any, o tool.RenderOptions) tool.Text
	// RenderRejected is shown when the permission was refused.
	RenderRejected(input json.RawMessage, o tool.RenderOptions) tool.Text
	// RenderError is shown when the call failed, with the text the model got.
	RenderError(input json.RawMessage, message string, o tool.RenderOptions) tool.Text
}

// Of returns t's renderer: its render hooks (tool.RenderHooks), with the
// generic rendering for each state it has no hook for; the generic renderer
// for a tool without hooks (one not made by tool.Build, such as an MCP tool).
func Of(t tool.Tool) Renderer {
	if h, ok := t.(tool.RenderHooks); ok {
		return hooked{h}
	}
	return generic{}
}

// hooked draws with a tool's hooks, falling back to the generic rendering.
type hooked struct{ hooks tool.RenderHooks }

func (r hooked) RenderUse(input json.RawMessage, partial bool) string {
	if s, ok := r.hooks.RenderUse(input, partial); ok {
		return s
	}
	return generic{}.RenderUse(input, partial)
}

func (r hooked) RenderQueued(input json.RawMessage, o tool.RenderOptions) tool.Text {
	if t, ok := r.hooks.RenderQueued(input, o); ok {
		return t
	}
	return generic{}.RenderQueued(input, o)
}

func (r hooked) RenderProgress(input json.RawMessage, ev tool.ProgressEvent, elapsed time.Duration, o tool.RenderOptions) tool.Text {
	if t, ok := r.hooks.RenderProgress(input, ev, elapsed, o); ok {
		return t
	}
	return generic{}.RenderProgress(input, ev, elapsed, o)
}

func (r hooked) RenderResult(input json.RawMessage, output any, o tool.RenderOptions) tool.Text {
	if t, ok := r.hooks.RenderResult(input, output, o); ok {
		return t
	}
	return GenericResult(output, o)
}

func (r hooked) RenderRejected(input json.RawMessage, o tool.RenderOptions) tool.Text {
	if t, ok := r.hooks.RenderRejected(input, o); ok {
		return t
	}
	return generic{}.RenderRejected(input, o)
}

func (r hooked) RenderError(input json.RawMessage, message string, o tool.RenderOptions) tool.Text {
	if t, ok := r.hooks.RenderError(input, message, o); ok {
		return t
	}
	return GenericError(message, o)
}

// Generic is the renderer of a call whose tool is unknown to the UI, such
// as one the model named wrongly.
func Generic() Renderer { return generic{} }

// condensedLines is how many lines a condensed result or error shows.
const condensedLines = 3

type generic struct{}

func (generic) RenderUse(input json.RawMessage, partial bool) string {
	return summarizeInput(input, partial)
}

func (generic) RenderQueued(json.RawMessage, tool.RenderOptions) tool.Text {
	return Styled("Waiting…", tool.StyleDim)
}

func (generic) RenderProgress(_ json.RawMessage, ev tool.ProgressEvent, elapsed time.Duration, o tool.RenderOptions) tool.Text {
	msg := "Running…"
	if ev.Message != "" {
		msg = ev.Message
	}
	return ClipLines(tool.Text{{{Text: msg, Style: tool.StyleDim}, {Text: " (" + Elapsed(elapsed) + ")", Style: tool.StyleDim}}}, o.Width)
}

func (generic) RenderResult(_ json.RawMessage, output any, o tool.RenderOptions) tool.Text {
	return GenericResult(output, o)
}

func (generic) RenderRejected(json.RawMessage, tool.RenderOptions) tool.Text {
	return Styled("Rejected by the user", tool.StyleWarning)
}

func (generic) RenderError(_ json.RawMessage, message string, o tool.RenderOptions) tool.Text {
	return GenericError(message, o)
}

// GenericResult renders an output as text: a string as it is, anything else as
// JSON; condensed to a few lines unless o.Full.
func GenericResult(output any, o tool.RenderOptions) tool.Text {
	var s string
	switch v := output.(type) {
	case nil:
		return Styled("Done", tool.StyleDim)
	case string:
		s = v
	default:
		b, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			s = fmt.Sprint(v)
		} else {
			s = string(b)
		}
	}
	if strings.TrimSpace(s) == "" {
		return Styled("(No output)", tool.StyleDim)
	}
	t := Styled(strings.ReplaceAll(s, "\t", "    "), tool.StylePlain)
	if !o.Full {
		t = Condense(t, condensedLines)
	}
	return ClipLines(t, o.Width)
}

// GenericError renders a failure's message in the error style, without the
// <tool_use_error> wrapper the model reads; condensed unless o.Full.
func GenericError(message string, o tool.RenderOptions) tool.Text {
	message = strings.TrimPrefix(strings.TrimSuffix(message, "</tool_use_error>"), "<tool_use_error>")
	if message == "" {
		message = "Failed"
	}
	t := Styled(strings.ReplaceAll(message, "\t", "    "), tool.StyleError)
	if !o.Full {
		t = Condense(t, condensedLines)
	}
	return ClipLines(t, o.Width)
}

// summarizeInput shows an input as `key: value` pairs, strings quoted, for
// tools without a RenderUse hook.
func summarizeInput(input json.RawMessage, partial bool) string {
	if partial {
		input = tool.CompletePartialJSON(input)
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(input, &fields) != nil || len(fields) == 0 {
		return ""
	}
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + ": " + strings.Join(strings.Fields(string(fields[k])), " ")
	}
	return strings.Join(parts, ", ")
}

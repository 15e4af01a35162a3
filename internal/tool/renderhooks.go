package tool

import (
	"encoding/json"
	"time"
)

// RenderHooks is how a tool draws its calls in each state, with the hooks of
// its Def: each method reports false when the Def has no hook for that state
// (or, for a result, the output is not the tool's Out), and package render
// then draws the generic form. The tools Build makes implement it.
type RenderHooks interface {
	// RenderUse is the argument summary after the tool's name in the call's
	// title, "Bash(<summary>)"; partial says the input is still streaming.
	RenderUse(input json.RawMessage, partial bool) (string, bool)
	// RenderQueued is shown under the title while the call waits its turn.
	RenderQueued(input json.RawMessage, o RenderOptions) (Text, bool)
	// RenderProgress is shown while the call runs, from its latest progress event.
	RenderProgress(input json.RawMessage, ev ProgressEvent, elapsed time.Duration, o RenderOptions) (Text, bool)
	// RenderResult is shown when the call succeeded, condensed or full.
	RenderResult(input json.RawMessage, output any, o RenderOptions) (Text, bool)
	// RenderRejected is shown when the permission was refused.
	RenderRejected(input json.RawMessage, o RenderOptions) (Text, bool)
	// RenderError is shown when the call failed, with the text the model got.
	RenderError(input json.RawMessage, message string, o RenderOptions) (Text, bool)
}

// renderInput decodes input for display: leniently, since a call shown may be
// still streaming or may have failed validation; what does not decode stays zero.
func renderInput[In any](input json.RawMessage, partial bool) In {
	var in In
	if partial {
		input = CompletePartialJSON(input)
	}
	if len(input) > 0 {
		_ = json.Unmarshal(input, &in)
	}
	return in
}

func (t *built[In, Out]) RenderUse(input json.RawMessage, partial bool) (string, bool) {
	if t.def.RenderUse == nil {
		return "", false
	}
	return t.def.RenderUse(renderInput[In](input, partial)), true
}

func (t *built[In, Out]) RenderQueued(input json.RawMessage, o RenderOptions) (Text, bool) {
	if t.def.RenderQueued == nil {
		return nil, false
	}
	return t.def.RenderQueued(renderInput[In](input, false), o), true
}

func (t *built[In, Out]) RenderProgress(input json.RawMessage, ev ProgressEvent, elapsed time.Duration, o RenderOptions) (Text, bool) {
	if t.def.RenderProgress == nil {
		return nil, false
	}
	return t.def.RenderProgress(renderInput[In](input, false), ev, elapsed, o), true
}

// RenderResult reports false, for the generic rendering, when output is not
// the tool's Out (a result read back from a transcript, say).
func (t *built[In, Out]) RenderResult(input json.RawMessage, output any, o RenderOptions) (Text, bool) {
	out, ok := output.(Out)
	if t.def.RenderResult == nil || !ok {
		return nil, false
	}
	return t.def.RenderResult(renderInput[In](input, false), out, o), true
}

func (t *built[In, Out]) RenderRejected(input json.RawMessage, o RenderOptions) (Text, bool) {
	if t.def.RenderRejected == nil {
		return nil, false
	}
	return t.def.RenderRejected(renderInput[In](input, false), o), true
}

func (t *built[In, Out]) RenderError(input json.RawMessage, message string, o RenderOptions) (Text, bool) {
	if t.def.RenderError == nil {
		return nil, false
	}
	return t.def.RenderError(renderInput[In](input, false), message, o), true
}

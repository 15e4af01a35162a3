package tool

import (
	"encoding/json"
	"time"
)

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

func (t *built[In, Out]) RenderUse(input json.RawMessage, partial bool) string {
	if t.def.RenderUse == nil {
		return genericRenderer{}.RenderUse(input, partial)
	}
	return t.def.RenderUse(renderInput[In](input, partial))
}

func (t *built[In, Out]) RenderQueued(input json.RawMessage, o RenderOptions) Text {
	if t.def.RenderQueued == nil {
		return genericRenderer{}.RenderQueued(input, o)
	}
	return t.def.RenderQueued(renderInput[In](input, false), o)
}

func (t *built[In, Out]) RenderProgress(input json.RawMessage, ev ProgressEvent, elapsed time.Duration, o RenderOptions) Text {
	if t.def.RenderProgress == nil {
		return genericRenderer{}.RenderProgress(input, ev, elapsed, o)
	}
	return t.def.RenderProgress(renderInput[In](input, false), ev, elapsed, o)
}

// RenderResult falls back to the generic rendering when output is not the
// tool's Out (a result read back from a transcript, say).
func (t *built[In, Out]) RenderResult(input json.RawMessage, output any, o RenderOptions) Text {
	out, ok := output.(Out)
	if t.def.RenderResult == nil || !ok {
		return GenericResult(output, o)
	}
	return t.def.RenderResult(renderInput[In](input, false), out, o)
}

func (t *built[In, Out]) RenderRejected(input json.RawMessage, o RenderOptions) Text {
	if t.def.RenderRejected == nil {
		return genericRenderer{}.RenderRejected(input, o)
	}
	return t.def.RenderRejected(renderInput[In](input, false), o)
}

func (t *built[In, Out]) RenderError(input json.RawMessage, message string, o RenderOptions) Text {
	if t.def.RenderError == nil {
		return GenericError(message, o)
	}
	return t.def.RenderError(renderInput[In](input, false), message, o)
}

package tool

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
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

// DecodeOutput turns an output stored as JSON (a transcript's toolUseResult)
// back into the tool's Out, for RenderResult. Fields Out does not know are
// ignored (Claude Code adds gitDiff to an Edit's, say), but the JSON must hold
// every field Out always writes: JSON of another shape is an error, so a
// result stored by another tool or version falls back to the generic
// rendering rather than to a wrong one.
func (t *built[In, Out]) DecodeOutput(data json.RawMessage) (any, error) {
	var out Out
	if field, ok := lacksField(out, data); ok {
		return nil, fmt.Errorf("decode the stored output of %s: it has no %q field", t.def.Name, field)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&out); err != nil {
		return nil, fmt.Errorf("decode the stored output of %s: %w", t.def.Name, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("decode the stored output of %s: more than one JSON value", t.def.Name)
	}
	return out, nil
}

// lacksField reports a top-level field that zero, an output type's zero value,
// always writes and the stored JSON object data does not hold. Outputs that
// are not JSON objects have no fields to check.
func lacksField(zero any, data []byte) (string, bool) {
	written, err := json.Marshal(zero)
	if err != nil {
		return "", false
	}
	var want, got map[string]json.RawMessage
	if json.Unmarshal(written, &want) != nil {
		return "", false
	}
	if err := json.Unmarshal(data, &got); err != nil {
		return "", false
	}
	for _, k := range slices.Sorted(maps.Keys(want)) {
		if _, ok := got[k]; !ok {
			return k, true
		}
	}
	return "", false
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

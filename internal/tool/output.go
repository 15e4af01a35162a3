package tool

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
)

// Slimmer is implemented by an output that holds more than its tool's
// result hooks draw from, such as the whole file a Write replaced. Slim
// returns the output, of the same type, with only what they draw; the UI
// keeps that for the rest of the session instead of the whole output.
type Slimmer interface {
	Slim() any
}

// StorageForm is implemented by an output that a resumed session keeps
// smaller than the tool returned it, as Claude Code's stripForStorage does
// when it loads a transcript: a Read's file content, an Edit's or a Write's
// former file. ForStorage returns the output, of the same type, without them.
type StorageForm interface {
	ForStorage() any
}

// Stored is output as a resumed session keeps it: its StorageForm when it
// has one.
func Stored(output any) any {
	if s, ok := output.(StorageForm); ok {
		return s.ForStorage()
	}
	return output
}

// OutputDecoder is a tool that can read back its typed output from the JSON
// it was stored as; the tools Build makes are.
type OutputDecoder interface {
	DecodeOutput(data json.RawMessage) (any, error)
}

// DecodeOutput returns t's typed output from data, the JSON a transcript
// stored it as, for the tool's RenderResult; false when t cannot decode it
// (a tool not made by Build, such as an MCP tool, or JSON of another shape).
func DecodeOutput(t Tool, data json.RawMessage) (any, bool) {
	d, ok := t.(OutputDecoder)
	if !ok || len(data) == 0 {
		return nil, false
	}
	out, err := d.DecodeOutput(data)
	return out, err == nil
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

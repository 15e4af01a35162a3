package tool

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// BuildRaw is Build for a tool whose input schema arrives as JSON from outside
// mini-claude (an MCP server, a settings file) rather than from a Go struct.
// The schema goes to the model exactly as given, $defs, enums and
// additionalProperties included. The input the model sends must be a JSON
// object; it reaches the hooks as that object, unchecked against the schema,
// for the tool's own backend to validate.
func BuildRaw[Out any](schema json.RawMessage, def Def[json.RawMessage, Out]) (Tool, error) {
	problems := defProblems(def)
	if err := checkObjectSchema(schema); err != nil {
		problems = append(problems, err)
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("build tool %q: %w", def.Name, errors.Join(problems...))
	}
	return &built[json.RawMessage, Out]{def: def, schema: bytes.Clone(schema), fields: &objectShape{Type: "object"}}, nil
}

// checkObjectSchema accepts a JSON object whose type is "object": the only
// input schema a model API takes for a tool.
func checkObjectSchema(schema json.RawMessage) error {
	var head struct {
		Type any `json:"type"`
	}
	trimmed := bytes.TrimSpace(schema)
	if len(trimmed) == 0 || trimmed[0] != '{' || json.Unmarshal(trimmed, &head) != nil {
		return errors.New("the input schema must be a JSON object")
	}
	if head.Type != "object" {
		return fmt.Errorf(`the input schema must have "type": "object", not %v`, head.Type)
	}
	return nil
}

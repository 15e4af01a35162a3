package tool

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// BuildRaw returns the Tool def describes, for a tool whose input schema is
// given as JSON rather than generated from a Go struct: a tool defined in
// settings, or one an MCP server offers. The schema goes to the model as
// given, only its white space removed. Input is checked against the parts of
// the schema decoding understands (types, required properties,
// additionalProperties false, enums, numeric bounds, nested objects and
// arrays; anything under anyOf, oneOf, allOf, not or $ref is passed unchecked)
// and reaches the hooks as a JSON object.
func BuildRaw[Out any](def Def[json.RawMessage, Out], schema json.RawMessage) (Tool, error) {
	problems := defProblems(def.Name, def.Description, def.Call != nil, def.MaxResultSizeChars)
	shape, err := rawObjectShape(schema)
	if err != nil {
		problems = append(problems, err)
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("build tool %q: %w", def.Name, errors.Join(problems...))
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, schema); err != nil {
		return nil, fmt.Errorf("build tool %q: input schema: %w", def.Name, err)
	}
	s := inputSchema{raw: compact.Bytes(), fields: shape}
	return &built[json.RawMessage, Out]{def: def, schema: func() inputSchema { return s }}, nil
}

// rawObjectShape reads a tool's input schema, which must be a JSON object
// whose type is "object".
func rawObjectShape(schema json.RawMessage) (*objectShape, error) {
	dec := json.NewDecoder(bytes.NewReader(schema))
	dec.UseNumber()
	var root map[string]any
	if err := dec.Decode(&root); err != nil || root == nil {
		return nil, errors.New(`input schema must be a JSON object such as {"type":"object","properties":{...}}`)
	}
	if root["type"] != "object" {
		return nil, fmt.Errorf(`input schema must have "type": "object", not %v`, root["type"])
	}
	return rawShape(root), nil
}

// rawShape converts one schema node; nil means "accept any value", for the
// constructs decoding does not check.
func rawShape(node map[string]any) *shape {
	for _, combinator := range []string{"anyOf", "oneOf", "allOf", "not", "$ref", "if"} {
		if _, ok := node[combinator]; ok {
			return nil
		}
	}
	sh := &shape{Required: map[string]bool{}}
	if typ, ok := node["type"].(string); ok {
		sh.Type = typ
	}
	if props, ok := node["properties"].(map[string]any); ok {
		names := make([]string, 0, len(props))
		for name := range props {
			names = append(names, name)
		}
		slices.Sort(names)
		for _, name := range names {
			child, _ := props[name].(map[string]any)
			var childShape *shape
			if child != nil {
				childShape = rawShape(child)
			}
			sh.Properties = append(sh.Properties, property{Name: name, Shape: childShape})
		}
	}
	if required, ok := node["required"].([]any); ok {
		for _, name := range required {
			if s, ok := name.(string); ok {
				sh.Required[s] = true
			}
		}
	}
	sh.Closed = sh.Type == "object" && node["additionalProperties"] == false
	if items, ok := node["items"].(map[string]any); ok {
		sh.Items = rawShape(items)
	}
	if enum, ok := node["enum"].([]any); ok {
		sh.Enum = enum
	}
	sh.Minimum = rawNumber(node["minimum"])
	sh.Maximum = rawNumber(node["maximum"])
	return sh
}

func rawNumber(v any) *float64 {
	n, ok := v.(json.Number)
	if !ok {
		return nil
	}
	return number(n)
}

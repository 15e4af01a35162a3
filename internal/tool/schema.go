package tool

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"

	"github.com/invopop/jsonschema"
)

// shape is the part of an input's JSON schema that decoding checks against:
// types, required and unknown properties, enums and numeric bounds.
type shape struct {
	Type string
	// Properties are in declaration order; Closed forbids any other property.
	Properties []property
	Required   map[string]bool
	Closed     bool
	Items      *shape
	Enum       []any
	Minimum    *float64
	Maximum    *float64
}

type property struct {
	Name  string
	Shape *shape
}

// objectShape is the shape of a whole tool input, always an object.
type objectShape = shape

// schemaFor generates the JSON schema sent to the model for the input struct In:
// properties from json tags, descriptions from jsonschema_description tags,
// fields without omitempty required, additionalProperties false.
// The caller has checked that In is a struct.
func schemaFor[In any]() inputSchema {
	t := reflect.TypeFor[In]()
	reflector := jsonschema.Reflector{DoNotReference: true, ExpandedStruct: true, Anonymous: true}
	schema := reflector.ReflectFromType(t)
	schema.Version = ""
	schema.ID = ""
	raw, err := json.Marshal(schema)
	if err != nil {
		return inputSchema{err: fmt.Errorf("input schema of %s: %w", t, err)}
	}
	return inputSchema{raw: raw, fields: shapeOf(schema)}
}

func shapeOf(s *jsonschema.Schema) *shape {
	if s == nil {
		return nil
	}
	sh := &shape{Type: s.Type, Enum: s.Enum, Items: shapeOf(s.Items), Required: map[string]bool{}}
	for _, name := range s.Required {
		sh.Required[name] = true
	}
	if s.Properties != nil {
		for p := s.Properties.Oldest(); p != nil; p = p.Next() {
			sh.Properties = append(sh.Properties, property{Name: p.Key, Shape: shapeOf(p.Value)})
		}
	}
	sh.Closed = s.Type == "object" && s.AdditionalProperties == jsonschema.FalseSchema
	sh.Minimum = number(s.Minimum)
	sh.Maximum = number(s.Maximum)
	return sh
}

func number(n json.Number) *float64 {
	if n == "" {
		return nil
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil {
		return nil
	}
	return &f
}

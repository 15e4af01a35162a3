package tool

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

const rawSchema = `{"type":"object","$defs":{"mode":{"type":"string","enum":["a","b"]}},"properties":{"mode":{"$ref":"#/$defs/mode"},"n":{"type":"integer"}},"required":["mode"],"additionalProperties":false}`

func rawDef() Def[json.RawMessage, string] {
	return Def[json.RawMessage, string]{
		Name: "mcp__srv__echo", Description: "Echoes its input.", MaxResultSizeChars: 100,
		IsReadOnly: Always[json.RawMessage], IsConcurrencySafe: Never[json.RawMessage],
		Call: func(_ context.Context, in json.RawMessage, _ *Env, _ Progress) (string, error) {
			return string(in), nil
		},
	}
}

func TestBuildRawKeepsTheSchemaAsGiven(t *testing.T) {
	tl, err := BuildRaw(json.RawMessage(rawSchema), rawDef())
	if err != nil {
		t.Fatal(err)
	}
	if got := string(tl.InputSchema()); got != rawSchema {
		t.Errorf("InputSchema = %s, want it unchanged: %s", got, rawSchema)
	}
	if got := string(tl.Spec().InputSchema); got != rawSchema {
		t.Errorf("Spec().InputSchema = %s, want it unchanged", got)
	}
	if call := tl.ZeroCall(); !call.IsReadOnly() || call.IsConcurrencySafe() || call.IsDestructive() {
		t.Errorf("flags = read-only %v, concurrency-safe %v, destructive %v; want true, false, false",
			call.IsReadOnly(), call.IsConcurrencySafe(), call.IsDestructive())
	}
}

func TestBuildRawRefusesBadSchemas(t *testing.T) {
	tests := []struct{ name, schema, want string }{
		{"not JSON", `{"type":`, "must be a JSON object"},
		{"an array", `[]`, "must be a JSON object"},
		{"empty", ``, "must be a JSON object"},
		{"not an object type", `{"type":"string"}`, `"type": "object"`},
		{"no type", `{"properties":{}}`, `"type": "object"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := BuildRaw(json.RawMessage(tt.schema), rawDef())
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("BuildRaw error = %v, want one containing %q", err, tt.want)
			}
		})
	}
	def := rawDef()
	def.MaxResultSizeChars = 0
	if _, err := BuildRaw(json.RawMessage(rawSchema), def); err == nil || !strings.Contains(err.Error(), "MaxResultSizeChars") {
		t.Errorf("BuildRaw without a size limit: error = %v", err)
	}
}

func TestBuildRawPassesTheInputThrough(t *testing.T) {
	tl, err := BuildRaw(json.RawMessage(rawSchema), rawDef())
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, input, want, wantErr string }{
		{"object as sent", `{"mode":"c","n":"7","extra":[1,2.50,12345678901234567890]}`, `{"extra":[1,2.50,12345678901234567890],"mode":"c","n":"7"}`, ""},
		{"empty input is an empty object", ``, `{}`, ""},
		{"array refused", `[1]`, "", "must be a JSON object, but it is array"},
		{"string refused", `"x"`, "", "must be a JSON object, but it is string"},
		{"invalid JSON refused", `{"mode":`, "", "not valid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			call, err := tl.Parse(json.RawMessage(tt.input))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Parse error = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			res, err := call.Run(context.Background(), &Env{Session: NewSession("/")}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Output.(string); got != tt.want {
				t.Errorf("the call got %s, want %s", got, tt.want)
			}
		})
	}
}

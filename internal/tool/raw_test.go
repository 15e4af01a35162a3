package tool

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

const weatherSchema = `{"type":"object","$defs":{"unit":{"enum":["c","f"]}},"properties":{"city":{"type":"string","description":"City name"},"days":{"type":"integer","minimum":1,"maximum":7},"unit":{"$ref":"#/$defs/unit"},"tags":{"type":"array","items":{"type":"string"}},"detail":{"type":"string","enum":["short","long"]},"where":{"type":"object","properties":{"lat":{"type":"number"}},"required":["lat"],"additionalProperties":false}},"required":["city"],"additionalProperties":false}`

func rawEcho(t *testing.T, schema string) Tool {
	t.Helper()
	tl, err := BuildRaw(Def[json.RawMessage, string]{
		Name:               "Weather",
		Description:        "Looks up the weather.",
		MaxResultSizeChars: 1000,
		IsReadOnly:         Always[json.RawMessage],
		IsConcurrencySafe:  Always[json.RawMessage],
		Call: func(_ context.Context, in json.RawMessage, _ *Env, _ Progress) (string, error) {
			return string(in), nil
		},
	}, json.RawMessage(schema))
	if err != nil {
		t.Fatal(err)
	}
	return tl
}

func TestBuildRawPassesTheSchemaThroughIntact(t *testing.T) {
	tl := rawEcho(t, strings.ReplaceAll(strings.ReplaceAll(weatherSchema, ",", ",\n  "), ":", ": "))
	if got := string(tl.Spec().InputSchema); got != weatherSchema {
		t.Errorf("schema changed:\n%s\nwant\n%s", got, weatherSchema)
	}
	if !tl.ZeroCall().IsReadOnly() || !tl.ZeroCall().IsConcurrencySafe() {
		t.Error("flags not taken from the Def")
	}
}

func TestBuildRawChecksAndCoercesInput(t *testing.T) {
	tl := rawEcho(t, weatherSchema)
	tests := []struct {
		name, input, want, wantErr string
	}{
		{"valid", `{"city":"Paris","days":3}`, `{"city":"Paris","days":3}`, ""},
		{"lenient number", `{"city":"Paris","days":"3"}`, `{"city":"Paris","days":3}`, ""},
		{"ref passes unchecked", `{"city":"Paris","unit":42}`, `{"city":"Paris","unit":42}`, ""},
		{"missing required", `{"days":3}`, "", "The required parameter `city` is missing"},
		{"above maximum", `{"city":"Paris","days":9}`, "", "`days` must be at most 7"},
		{"bad enum", `{"city":"Paris","detail":"huge"}`, "", "must be one of \"short\", \"long\""},
		{"unknown field", `{"city":"Paris","zip":1}`, "", "unexpected parameter `zip`"},
		{"nested required", `{"city":"Paris","where":{}}`, "", "`where.lat` is missing"},
		{"array item type", `{"city":"Paris","tags":[1]}`, "", "`tags[0]` type is expected as `string`"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			call, err := tl.Parse(json.RawMessage(tt.input))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			res, err := call.Run(context.Background(), &Env{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Output.(string); got != tt.want {
				t.Errorf("input reached the tool as %s, want %s", got, tt.want)
			}
		})
	}
}

func TestBuildRawOpenSchemaAcceptsOtherFields(t *testing.T) {
	tl := rawEcho(t, `{"type":"object","properties":{"q":{"type":"string"}}}`)
	if _, err := tl.Parse(json.RawMessage(`{"q":"x","extra":true}`)); err != nil {
		t.Errorf("open schema refused an extra field: %v", err)
	}
}

func TestBuildRawRefusesBadSchemas(t *testing.T) {
	for _, schema := range []string{``, `[]`, `{"type":"string"}`, `{"properties":{}}`, `{"type":"object"`} {
		_, err := BuildRaw(Def[json.RawMessage, string]{
			Name: "X", Description: "x", MaxResultSizeChars: 10,
			Call: func(context.Context, json.RawMessage, *Env, Progress) (string, error) { return "", nil },
		}, json.RawMessage(schema))
		if err == nil || !strings.Contains(err.Error(), "input schema must") {
			t.Errorf("schema %q: error %v", schema, err)
		}
	}
}

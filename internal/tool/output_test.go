package tool

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
)

// TestDecodeOutputFeedsTheResultHook stores an output as JSON, decodes it
// back into the tool's Out and renders it through the tool's own hook; JSON
// of another shape is refused, so the caller falls back to the generic
// rendering, as it does for an output that is not the tool's Out.
func TestDecodeOutputFeedsTheResultHook(t *testing.T) {
	type counted struct {
		Count int    `json:"count"`
		Path  string `json:"path,omitempty"`
	}
	counter := MustBuild(Def[sampleInput, counted]{
		Name: "Counter", Description: "counts", MaxResultSizeChars: 100,
		Call: func(context.Context, sampleInput, *Env, Progress) (counted, error) { return counted{}, nil },
		RenderResult: func(in sampleInput, out counted, _ RenderOptions) Text {
			return Text{{{Text: fmt.Sprintf("%d lines in %s", out.Count, in.FilePath)}}}
		},
	})
	stored, err := json.Marshal(counted{Count: 3, Path: "a"})
	if err != nil {
		t.Fatal(err)
	}
	out, ok := DecodeOutput(counter, stored)
	if !ok || out != (counted{Count: 3, Path: "a"}) {
		t.Fatalf("DecodeOutput = %#v, %v; want the stored output", out, ok)
	}
	hooks := counter.(RenderHooks)
	if got, ok := hooks.RenderResult(json.RawMessage(`{"file_path":"a.go"}`), out, RenderOptions{}); !ok || got.String() != "3 lines in a.go\n" {
		t.Errorf("the decoded output rendered as %q (hook used: %v)", got.String(), ok)
	}
	if _, ok := hooks.RenderResult(nil, "a string", RenderOptions{}); ok {
		t.Error("the result hook drew an output that is not the tool's Out")
	}
	if _, ok := hooks.RenderError(nil, "boom", RenderOptions{}); ok {
		t.Error("a tool without an error hook claimed to draw its errors")
	}
	if out, ok := DecodeOutput(counter, json.RawMessage(`{"count":3,"path":"a","gitDiff":{"patch":""}}`)); !ok || out != (counted{Count: 3, Path: "a"}) {
		t.Errorf("an output with a field the tool does not know decoded as %#v, %v; want it, the field ignored", out, ok)
	}
	for _, bad := range []string{`{"lines":[]}`, `"Error: boom"`, `{"count":1} {"count":2}`, ``} {
		if out, ok := DecodeOutput(counter, json.RawMessage(bad)); ok {
			t.Errorf("DecodeOutput(%s) = %#v, want a refusal", bad, out)
		}
	}
	if _, ok := DecodeOutput(opaqueTool{counter}, stored); ok {
		t.Error("a tool without a decoder decoded an output")
	}
}

// opaqueTool hides its tool's methods beyond Tool, as a tool not made by Build.
type opaqueTool struct{ Tool }

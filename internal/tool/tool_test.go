package tool

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/goldenfile"
	"github.com/mini-claude/mini-claude/internal/llm"
)

type sampleInput struct {
	FilePath string  `json:"file_path" jsonschema_description:"Path of the file, absolute or relative to the cwd"`
	Offset   *int    `json:"offset,omitempty" jsonschema:"minimum=0" jsonschema_description:"First line to return"`
	All      bool    `json:"all,omitempty"`
	Ratio    float64 `json:"ratio,omitempty"`
	Mode     string  `json:"mode,omitempty" jsonschema:"enum=fast,enum=slow"`
	Items    []item  `json:"items,omitempty"`
}

type item struct {
	Content string `json:"content"`
	Done    bool   `json:"done,omitempty"`
}

func sampleDef() Def[sampleInput, string] {
	return Def[sampleInput, string]{
		Name:               "Sample",
		Aliases:            []string{"OldSample"},
		Description:        "A sample tool.",
		MaxResultSizeChars: 1000,
		Call: func(_ context.Context, in sampleInput, _ *Env, _ Progress) (string, error) {
			return "read " + in.FilePath, nil
		},
	}
}

func TestBuildRefusesIncompleteDefs(t *testing.T) {
	tests := []struct {
		name    string
		mutate  func(*Def[sampleInput, string])
		wantErr string
	}{
		{"missing name", func(d *Def[sampleInput, string]) { d.Name = "" }, "name"},
		{"name with spaces", func(d *Def[sampleInput, string]) { d.Name = "my tool" }, "name"},
		{"missing description", func(d *Def[sampleInput, string]) { d.Description = "" }, "description is required"},
		{"missing call", func(d *Def[sampleInput, string]) { d.Call = nil }, "Call is required"},
		{"missing size limit", func(d *Def[sampleInput, string]) { d.MaxResultSizeChars = 0 }, "MaxResultSizeChars is required"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			def := sampleDef()
			tt.mutate(&def)
			_, err := Build(def)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("Build error = %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
}

func TestBuildRefusesNonStructInput(t *testing.T) {
	_, err := Build(Def[string, string]{
		Name: "X", Description: "x", MaxResultSizeChars: 10,
		Call: func(context.Context, string, *Env, Progress) (string, error) { return "", nil },
	})
	if err == nil || !strings.Contains(err.Error(), "must be a struct") {
		t.Fatalf("Build error = %v, want a struct requirement", err)
	}
}

func TestBuildDefaultsFailClosed(t *testing.T) {
	tl := MustBuild(sampleDef())
	call, err := tl.Parse(json.RawMessage(`{"file_path":"a"}`))
	if err != nil {
		t.Fatal(err)
	}
	if call.IsReadOnly() || call.IsConcurrencySafe() || call.IsDestructive() {
		t.Errorf("default classification = read-only %v, safe %v, destructive %v; want all false",
			call.IsReadOnly(), call.IsConcurrencySafe(), call.IsDestructive())
	}
	if got := call.CheckPermissions(context.Background(), &Env{}).Behavior; got != Passthrough {
		t.Errorf("default permission = %v, want passthrough", got)
	}
	if !tl.IsEnabled() || tl.ShouldDefer() || tl.AlwaysLoad() || tl.InterruptBehavior() != Block {
		t.Error("default enabled/defer/always-load/interrupt are not enabled/false/false/block")
	}
}

func TestMatchesNameHonoursAliases(t *testing.T) {
	tl := MustBuild(sampleDef())
	for name, want := range map[string]bool{"Sample": true, "OldSample": true, "sample": false, "Other": false} {
		if got := tl.MatchesName(name); got != want {
			t.Errorf("MatchesName(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestInputSchemaGolden(t *testing.T) {
	tl := MustBuild(sampleDef())
	var schema map[string]any
	if err := json.Unmarshal(tl.InputSchema(), &schema); err != nil {
		t.Fatal(err)
	}
	got, _ := json.MarshalIndent(json.RawMessage(tl.InputSchema()), "", "  ")
	golden := filepath.Join("testdata", "sample_schema.json")
	goldenfile.Check(t, golden, string(got)+"\n")
	if schema["additionalProperties"] != false {
		t.Error("schema must forbid additional properties")
	}
}

func TestParseReportsEveryProblemAtOnce(t *testing.T) {
	tl := MustBuild(sampleDef())
	_, err := tl.Parse(json.RawMessage(`{"bogus":1,"offset":"abc","extra":true,"items":[{"done":"maybe"}]}`))
	var inputErr *InputError
	if !errors.As(err, &inputErr) {
		t.Fatalf("Parse error = %v, want *InputError", err)
	}
	want := []string{
		"The required parameter `file_path` is missing",
		"The parameter `offset` type is expected as `integer` but provided as `string`",
		"The required parameter `items[0].content` is missing",
		"The parameter `items[0].done` type is expected as `boolean` but provided as `string`",
		"An unexpected parameter `bogus` was provided",
		"An unexpected parameter `extra` was provided",
	}
	if strings.Join(inputErr.Problems, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(inputErr.Problems, "\n"), strings.Join(want, "\n"))
	}
	if !strings.HasPrefix(err.Error(), "InputValidationError: Sample failed due to the following issues:\n") {
		t.Errorf("error text = %q", err.Error())
	}
}

func TestParseCoercesLenientValues(t *testing.T) {
	tl := MustBuild(sampleDef())
	call, err := tl.Parse(json.RawMessage(`{"file_path":"a.go","offset":"30","all":"true","ratio":"0.5","items":[{"content":"x","done":"false"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	in := call.Input().(sampleInput)
	if in.Offset == nil || *in.Offset != 30 || !in.All || in.Ratio != 0.5 || in.Items[0].Done {
		t.Errorf("decoded %+v (offset %v), want offset 30, all true, ratio 0.5, done false", in, in.Offset)
	}
}

func TestParseRejects(t *testing.T) {
	tl := MustBuild(sampleDef())
	tests := []struct {
		name, input, want string
	}{
		{"not json", `{"file_path":`, "The input is not valid JSON"},
		{"not an object", `[1,2]`, "The input must be a JSON object, but it is array"},
		{"below minimum", `{"file_path":"a","offset":-1}`, "The parameter `offset` must be at least 0, but it is -1"},
		{"fraction for integer", `{"file_path":"a","offset":1.5}`, "The parameter `offset` must be a whole number"},
		{"not in enum", `{"file_path":"a","mode":"medium"}`, "The parameter `mode` must be one of \"fast\", \"slow\", but it is \"medium\""},
		{"null for required", `{"file_path":null}`, "The required parameter `file_path` is missing"},
		{"number for string", `{"file_path":5}`, "The parameter `file_path` type is expected as `string` but provided as `number`"},
		{"bad boolean string", `{"file_path":"a","all":"yes"}`, "The parameter `all` type is expected as `boolean` but provided as `string`"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tl.Parse(json.RawMessage(tt.input))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Parse(%s) error = %v, want one containing %q", tt.input, err, tt.want)
			}
		})
	}
}

func TestParseTreatsEmptyInputAsEmptyObject(t *testing.T) {
	tl := MustBuild(sampleDef())
	_, err := tl.Parse(nil)
	if err == nil || !strings.Contains(err.Error(), "`file_path` is missing") {
		t.Fatalf("Parse(nil) error = %v, want the missing required field", err)
	}
}

func TestRunMapsOutput(t *testing.T) {
	type out struct {
		Count int `json:"count"`
	}
	jsonTool := MustBuild(Def[sampleInput, out]{
		Name: "Counter", Description: "counts", MaxResultSizeChars: 100,
		Call: func(context.Context, sampleInput, *Env, Progress) (out, error) { return out{Count: 3}, nil },
	})
	mapped := sampleDef()
	mapped.MapResult = func(s string) []llm.ContentBlock { return []llm.ContentBlock{llm.TextBlock("<" + s + ">")} }
	tests := []struct {
		name string
		tool Tool
		want string
	}{
		{"string output is text", MustBuild(sampleDef()), "read a"},
		{"struct output is JSON text", jsonTool, `{"count":3}`},
		{"MapResult wins", MustBuild(mapped), "<read a>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			call, err := tt.tool.Parse(json.RawMessage(`{"file_path":"a"}`))
			if err != nil {
				t.Fatal(err)
			}
			res, err := call.Run(context.Background(), &Env{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Content) != 1 || res.Content[0].Text != tt.want {
				t.Errorf("content = %+v, want one text block %q", res.Content, tt.want)
			}
		})
	}
}

// FuzzParse feeds arbitrary input to the decoder: it must return a Call or an
// *InputError, never panic.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{`{}`, `{"file_path":"a","offset":"3"}`, `[`, `null`, `{"items":[{"content":1}]}`, `"x"`, `{"offset":1e400}`} {
		f.Add(seed)
	}
	tl := MustBuild(sampleDef())
	f.Fuzz(func(t *testing.T, input string) {
		call, err := tl.Parse(json.RawMessage(input))
		var inputErr *InputError
		if err != nil && !errors.As(err, &inputErr) {
			t.Fatalf("Parse(%q) error %T, want *InputError", input, err)
		}
		if err == nil && call == nil {
			t.Fatalf("Parse(%q) returned neither a call nor an error", input)
		}
	})
}

package tool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sync"
	"time"

	"github.com/mini-claude/mini-claude/internal/llm"
)

// Def is what a tool author writes: the tool's metadata, its typed input and the
// hooks that differ from the defaults. Build turns it into a Tool.
type Def[In, Out any] struct {
	Name        string
	Aliases     []string
	SearchHint  string
	Description string
	// MaxResultSizeChars must be set: a positive size, or Unlimited for tools
	// that bound their own output.
	MaxResultSizeChars int
	ShouldDefer        bool
	AlwaysLoad         bool
	InterruptBehavior  InterruptBehavior
	// RequiresUserInteraction marks a tool whose call is a question to the
	// user (see Tool.RequiresUserInteraction).
	RequiresUserInteraction bool

	// ValidateInput runs cheap checks before any permission prompt; nil accepts all input.
	ValidateInput func(ctx context.Context, in In, env *Env) error
	// CheckPermissions is the tool-specific permission verdict; nil is Passthrough.
	CheckPermissions func(ctx context.Context, in In, env *Env) PermissionResult
	// Accesses lists the paths, commands and domains a call touches, which the
	// permission rules are checked against; nil touches nothing the rules name.
	Accesses func(ctx context.Context, in In, env *Env) Access
	// AskInput is the input shown to whoever answers the call's permission
	// question; nil shows the model's input.
	AskInput func(ctx context.Context, in In, env *Env) (In, error)
	// Call does the work; required.
	Call func(ctx context.Context, in In, env *Env, progress Progress) (Out, error)
	// IsConcurrencySafe, IsReadOnly and IsDestructive classify a call; nil is false,
	// so a tool that says nothing is treated as writing and not parallel-safe.
	IsConcurrencySafe func(in In) bool
	IsReadOnly        func(in In) bool
	IsDestructive     func(in In) bool
	// IsEnabled reports whether the tool is available; nil is always.
	IsEnabled func() bool
	// MapResult turns the output into tool_result content; nil renders a string
	// output as text and anything else as JSON text.
	MapResult func(out Out) []llm.ContentBlock
	// Follow gives the blocks sent after the tool_result and the permission
	// rules the rest of the turn allows (see Result); nil gives neither.
	Follow func(out Out) (blocks []llm.ContentBlock, allow []string)

	// Render hooks draw a call for the user (see RenderHooks); for each nil
	// hook, package render draws a generic default. RenderUse gets the input
	// decoded as far as it has streamed, so fields may still be missing.
	RenderUse      func(in In) string
	RenderQueued   func(in In, o RenderOptions) Text
	RenderProgress func(in In, ev ProgressEvent, elapsed time.Duration, o RenderOptions) Text
	RenderResult   func(in In, out Out, o RenderOptions) Text
	RenderRejected func(in In, o RenderOptions) Text
	RenderError    func(in In, message string, o RenderOptions) Text
}

// Always is a predicate that holds for every input, for IsReadOnly and friends.
func Always[In any](In) bool { return true }

// Never is a predicate that holds for no input; it states a default explicitly.
func Never[In any](In) bool { return false }

// Build checks def and returns the Tool it describes, with fail-closed defaults
// for every hook left nil. It refuses a Def without a valid name, description,
// Call or MaxResultSizeChars, and an input type that has no JSON schema.
func Build[In, Out any](def Def[In, Out]) (Tool, error) {
	t, err := newBuilt(def)
	if err != nil {
		return nil, err
	}
	if s := t.schema(); s.err != nil {
		return nil, fmt.Errorf("build tool %q: %w", def.Name, s.err)
	}
	return t, nil
}

// newBuilt checks what can be checked without reflecting over In and leaves
// the schema to be generated on first use: the built-in tools are package
// variables, and generating every schema in package initialisation cost each
// start of the binary, --version included, about a millisecond.
func newBuilt[In, Out any](def Def[In, Out]) (*built[In, Out], error) {
	problems := defProblems(def.Name, def.Description, def.Call != nil, def.MaxResultSizeChars)
	if t := reflect.TypeFor[In](); t.Kind() != reflect.Struct {
		problems = append(problems, fmt.Errorf("input type %s must be a struct", t))
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("build tool %q: %w", def.Name, errors.Join(problems...))
	}
	return &built[In, Out]{def: def, schema: sync.OnceValue(schemaFor[In])}, nil
}

// validName reports whether name is 1-64 letters, digits, _ or -, as the
// model APIs require of a tool's name.
func validName(name string) bool {
	if len(name) == 0 || len(name) > 64 {
		return false
	}
	for _, c := range []byte(name) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// defProblems lists what is missing or wrong in the parts of a Def that
// Build and BuildRaw both check.
func defProblems(name, description string, hasCall bool, maxResultSizeChars int) []error {
	var problems []error
	if !validName(name) {
		problems = append(problems, fmt.Errorf("name %q must be 1-64 characters of letters, digits, _ or -", name))
	}
	if description == "" {
		problems = append(problems, errors.New("description is required"))
	}
	if !hasCall {
		problems = append(problems, errors.New("Call is required"))
	}
	if maxResultSizeChars <= 0 {
		problems = append(problems, errors.New("MaxResultSizeChars is required: a positive size, or tool.Unlimited for a tool that bounds its own output"))
	}
	return problems
}

// MustBuild is Build for the built-in tools defined at package level, where a
// refused Def is a programming error caught by the first test run. The input
// schema is generated when the tool is first described or called, so a run
// pays only for the tools it offers; a schema that cannot be generated panics
// then.
func MustBuild[In, Out any](def Def[In, Out]) Tool {
	t, err := newBuilt(def)
	if err != nil {
		panic(err)
	}
	return t
}

type built[In, Out any] struct {
	def Def[In, Out]
	// schema returns the input schema, generated once.
	schema func() inputSchema
}

// inputSchema is a tool's input schema as sent to the model and the shape
// decoding checks input against.
type inputSchema struct {
	raw    json.RawMessage
	fields *objectShape
	err    error
}

// must returns the tool's schema; MustBuild let an input type through whose
// schema cannot be generated only if no test ever described the tool.
func (t *built[In, Out]) must() inputSchema {
	s := t.schema()
	if s.err != nil {
		panic(fmt.Errorf("build tool %q: %w", t.def.Name, s.err))
	}
	return s
}

func (t *built[In, Out]) Name() string                 { return t.def.Name }
func (t *built[In, Out]) Aliases() []string            { return t.def.Aliases }
func (t *built[In, Out]) SearchHint() string           { return t.def.SearchHint }
func (t *built[In, Out]) Description() string          { return t.def.Description }
func (t *built[In, Out]) InputSchema() json.RawMessage { return t.must().raw }
func (t *built[In, Out]) MaxResultSizeChars() int      { return t.def.MaxResultSizeChars }
func (t *built[In, Out]) ShouldDefer() bool            { return t.def.ShouldDefer }
func (t *built[In, Out]) AlwaysLoad() bool             { return t.def.AlwaysLoad }

func (t *built[In, Out]) InterruptBehavior() InterruptBehavior { return t.def.InterruptBehavior }

func (t *built[In, Out]) RequiresUserInteraction() bool { return t.def.RequiresUserInteraction }

func (t *built[In, Out]) MatchesName(name string) bool {
	return name == t.def.Name || slices.Contains(t.def.Aliases, name)
}

func (t *built[In, Out]) Spec() llm.ToolSpec {
	return llm.ToolSpec{Name: t.def.Name, Description: t.def.Description, InputSchema: t.must().raw}
}

func (t *built[In, Out]) IsEnabled() bool {
	return t.def.IsEnabled == nil || t.def.IsEnabled()
}

func (t *built[In, Out]) Parse(raw json.RawMessage) (Call, error) {
	in, err := decode[In](t.def.Name, t.must().fields, raw)
	if err != nil {
		return nil, err
	}
	return &call[In, Out]{tool: t, in: in}, nil
}

func (t *built[In, Out]) ZeroCall() Call {
	var zero In
	return &call[In, Out]{tool: t, in: zero}
}

type call[In, Out any] struct {
	tool *built[In, Out]
	in   In
}

func (c *call[In, Out]) Tool() Tool { return c.tool }
func (c *call[In, Out]) Input() any { return c.in }

func (c *call[In, Out]) IsReadOnly() bool        { return holds(c.tool.def.IsReadOnly, c.in) }
func (c *call[In, Out]) IsConcurrencySafe() bool { return holds(c.tool.def.IsConcurrencySafe, c.in) }
func (c *call[In, Out]) IsDestructive() bool     { return holds(c.tool.def.IsDestructive, c.in) }

func holds[In any](predicate func(In) bool, in In) bool {
	return predicate != nil && predicate(in)
}

func (c *call[In, Out]) Validate(ctx context.Context, env *Env) error {
	if c.tool.def.ValidateInput == nil {
		return nil
	}
	return c.tool.def.ValidateInput(ctx, c.in, env)
}

func (c *call[In, Out]) CheckPermissions(ctx context.Context, env *Env) PermissionResult {
	if c.tool.def.CheckPermissions == nil {
		return PermissionResult{Behavior: Passthrough}
	}
	return c.tool.def.CheckPermissions(ctx, c.in, env)
}

func (c *call[In, Out]) Accesses(ctx context.Context, env *Env) Access {
	if c.tool.def.Accesses == nil {
		return Access{}
	}
	return c.tool.def.Accesses(ctx, c.in, env)
}

func (c *call[In, Out]) AskInput(ctx context.Context, env *Env) (json.RawMessage, error) {
	if c.tool.def.AskInput == nil {
		return nil, nil
	}
	in, err := c.tool.def.AskInput(ctx, c.in, env)
	if err != nil {
		return nil, err
	}
	raw, err := json.Marshal(in)
	if err != nil {
		return nil, fmt.Errorf("encode the %s input: %w", c.tool.def.Name, err)
	}
	return raw, nil
}

func (c *call[In, Out]) Run(ctx context.Context, env *Env, progress Progress) (Result, error) {
	if progress == nil {
		progress = func(ProgressEvent) {}
	}
	out, err := c.tool.def.Call(ctx, c.in, env, progress)
	if err != nil {
		return Result{}, err
	}
	res := Result{Output: out}
	if c.tool.def.Follow != nil {
		res.Follow, res.Allow = c.tool.def.Follow(out)
	}
	if c.tool.def.MapResult != nil {
		res.Content = c.tool.def.MapResult(out)
		return res, nil
	}
	if res.Content, err = defaultContent(out); err != nil {
		return Result{}, fmt.Errorf("encode %s output: %w", c.tool.def.Name, err)
	}
	return res, nil
}

func defaultContent(out any) ([]llm.ContentBlock, error) {
	if s, ok := out.(string); ok {
		return []llm.ContentBlock{llm.TextBlock(s)}, nil
	}
	b, err := json.Marshal(out)
	if err != nil {
		return nil, err
	}
	return []llm.ContentBlock{llm.TextBlock(string(b))}, nil
}

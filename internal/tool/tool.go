// Package tool is the contract between the agent and every tool: the Def a tool
// author writes, Build with its fail-closed defaults, the non-generic Tool and
// Call the registry and executor hold, and the per-call Env, progress and
// permission types.
package tool

import (
	"context"
	"encoding/json"
	"math"

	"github.com/mini-claude/mini-claude/internal/llm"
)

// Unlimited is the MaxResultSizeChars of a tool that bounds its own output, so
// its results are never moved to disk.
const Unlimited = math.MaxInt

// Tool is a built tool as the registry and the executor see it.
type Tool interface {
	// Name is the name used in the API.
	Name() string
	// Aliases are former names the model may still send.
	Aliases() []string
	// MatchesName reports whether name is the tool's name or one of its aliases.
	MatchesName(name string) bool
	// SearchHint is a few words, complementary to the name, for tool search.
	SearchHint() string
	// Description is what the model reads about the tool.
	Description() string
	// InputSchema is the JSON schema of the input, generated from the input struct.
	InputSchema() json.RawMessage
	// Spec is the tool as sent to the model.
	Spec() llm.ToolSpec
	// MaxResultSizeChars is the result size above which the result is stored on disk.
	MaxResultSizeChars() int
	// ShouldDefer leaves the tool out of the first prompt when tool search is on.
	ShouldDefer() bool
	// AlwaysLoad keeps the tool in the prompt even when tools are deferred.
	AlwaysLoad() bool
	// IsEnabled reports whether the tool is available at all.
	IsEnabled() bool
	// InterruptBehavior says what a new user message does to a running call.
	InterruptBehavior() InterruptBehavior
	// RequiresUserInteraction says a call is a question to the user
	// (AskUserQuestion, ExitPlanMode): it is asked even in bypassPermissions
	// mode, answered with the user's input, and only a session someone can
	// answer offers the tool (not sub-agents, not -p without an SDK client).
	RequiresUserInteraction() bool
	// Parse decodes the model's raw input into a Call, or returns an *InputError
	// listing every problem with it.
	Parse(raw json.RawMessage) (Call, error)
	// ZeroCall is a call with the zero input, to show a tool's flags where there
	// is no input (the tools listing).
	ZeroCall() Call
}

// Call is one decoded invocation of a tool, ready for the executor's pipeline.
type Call interface {
	// Tool is the tool this call belongs to.
	Tool() Tool
	// Input is the decoded input struct.
	Input() any
	// IsReadOnly reports whether the call only reads; read-only and plan modes rely on it.
	IsReadOnly() bool
	// IsConcurrencySafe reports whether the call may run in parallel with other safe calls.
	IsConcurrencySafe() bool
	// IsDestructive reports whether the call does something irreversible.
	IsDestructive() bool
	// Validate runs the tool's cheap checks, before any permission prompt.
	Validate(ctx context.Context, env *Env) error
	// CheckPermissions is the tool-specific part of the permission decision.
	CheckPermissions(ctx context.Context, env *Env) PermissionResult
	// Accesses lists what the call touches, for the permission rules that name
	// paths, commands or domains.
	Accesses(ctx context.Context, env *Env) Access
	// Run does the work and maps the output to tool_result content.
	Run(ctx context.Context, env *Env, progress Progress) (Result, error)
	// AskInput is the input the user (or an SDK client) is asked about when
	// the call needs permission, as JSON, when the tool adds to the model's
	// input for the question (ExitPlanMode adds the plan); nil shows the
	// model's input as it is.
	AskInput(ctx context.Context, env *Env) (json.RawMessage, error)
}

// Result is the outcome of a successful call.
type Result struct {
	// Output is the typed value the tool's Call returned.
	Output any
	// Content is Output mapped to tool_result content blocks.
	Content []llm.ContentBlock
	// Follow are blocks sent after the call's tool_result, in the same user
	// message: the instructions a loaded skill gives, as Claude Code sends them.
	Follow []llm.ContentBlock
	// Allow are permission rules (as written in settings) that hold for the
	// rest of the turn: a loaded skill's allowed-tools.
	Allow []string
}

// HookResponder is implemented by a tool's output whose structured result,
// as Claude Code's PostToolUse hooks read it (tool_response), has another
// shape than the output itself; the others reach hooks as they are.
type HookResponder interface {
	HookResponse() any
}

// ModeSwitcher is implemented by a tool's output that moves the session to
// another permission mode once the call succeeded: ExitPlanMode, approved by
// an answer that named no mode, leaves plan mode for the default one.
type ModeSwitcher interface {
	// NextMode is the mode the session continues in; "" keeps it.
	NextMode() string
}

// OutputError is a failed call whose text reaches the model as it is, with
// is_error set but without the <tool_use_error> wrapper of other failures: a
// command's own output when it exits non-zero, as Claude Code sends it.
type OutputError struct {
	Text string
}

func (e *OutputError) Error() string { return e.Text }

// Env is the per-call snapshot of the session a tool runs in.
type Env struct {
	// Cwd is the session's working directory when the call started; relative
	// paths resolve against it.
	Cwd string
	// AdditionalDirs are the directories added with --add-dir, besides Cwd.
	AdditionalDirs []string
	// SessionID identifies the session.
	SessionID string
	// PermissionMode is the session's permission mode, such as "default" or "plan".
	PermissionMode string
	// ToolUseID is the id of the tool_use block being answered.
	ToolUseID string
	// Session is the state shared by the session's calls; never nil inside Run.
	Session *Session
	// ReadDenied reports whether the permission rules forbid reading a real
	// path; searches use it to leave such files out of their results. Nil denies nothing.
	ReadDenied func(path string) bool
	// HostNamed reports whether a permission rule names the host itself
	// (WebFetch(domain:host), no wildcard): only then may WebFetch reach a
	// loopback, link-local or private address. Nil names none.
	HostNamed func(host string) bool
	// FolderTrusted says the user trusted the working folder, so programs its
	// own configuration names (a repository's git config) may run. The zero
	// value is the safe one: untrusted.
	FolderTrusted bool
	// PassEnv names the credentials the user's own settings pass to child
	// processes; every other credential mini-claude uses is kept from them.
	PassEnv []string
}

// Access is what one call touches. The permission engine checks each part
// against the rules: a path read or written, a shell command run, a domain fetched.
type Access struct {
	// Reads and Writes are absolute paths with symlinks followed.
	Reads  []string
	Writes []string
	// Commands are the simple commands of a shell command line.
	Commands []ShellCommand
	// Domains are the hosts a call fetches from.
	Domains []string
	// Network says the call sends its input off the machine (a web
	// search): though it only reads, it is asked about unless a rule
	// allows the tool.
	Network bool
	// Target is what a rule Tool(target) names for a tool whose rules name
	// no path, command or domain: the skill of a Skill call.
	Target string
}

// ShellCommand is one simple command of a shell command line, as the
// permission engine needs it.
type ShellCommand struct {
	// Args are the words once quoting is removed and wrappers stripped; Args[0] is the program.
	Args []string
	// Text is the command as written, to name it in a prompt.
	Text string
	// ReadOnly says the command only reads, searches or lists.
	ReadOnly bool
	// Dynamic says a word of it is only known at run time.
	Dynamic bool
	// Plain says nothing around the command (sudo, xargs, an assignment such
	// as PATH=) changes what it runs; allow rules match only plain commands.
	Plain bool
	// Destructive marks a recursive delete, a force push, a hard reset and the like.
	Destructive bool
}

// ProgressEvent is an update a running call reports, such as a tail of command output.
type ProgressEvent struct {
	Message string
	Data    any
}

// Progress receives a running call's progress events; it is never nil inside Run.
type Progress func(ProgressEvent)

// InterruptBehavior is what happens to a running call when the user sends a new message.
type InterruptBehavior int

// The interrupt behaviours; Block is the default.
const (
	Block InterruptBehavior = iota
	Cancel
)

// Behavior is the verdict of a permission check.
type Behavior int

// Permission verdicts. Passthrough means the tool has no opinion and the generic
// rules and mode decide; Allow means the tool vouches for the call (deny and ask
// rules still win).
const (
	Passthrough Behavior = iota
	Allow
	Ask
	Deny
)

func (b Behavior) String() string {
	return [...]string{"passthrough", "allow", "ask", "deny"}[b]
}

// PermissionResult is a tool's verdict on one call.
type PermissionResult struct {
	Behavior Behavior
	// Message explains the verdict, to the user when asking and to the model when denying.
	Message string
	// Subject is the exact part that needs approval: a sub-command or a path.
	Subject string
}

// Exec decodes input for t, validates the call and runs it, without the
// permission step: for callers that settled permission themselves, such as
// tests, benchmarks and files the user attached by name.
func Exec(ctx context.Context, t Tool, env *Env, input json.RawMessage, progress Progress) (Result, error) {
	c, err := t.Parse(input)
	if err != nil {
		return Result{}, err
	}
	if err := c.Validate(ctx, env); err != nil {
		return Result{}, err
	}
	return c.Run(ctx, env, progress)
}

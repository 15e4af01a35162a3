// Package exitplanmode is the ExitPlanMode tool: the model, done planning,
// asks the user to approve the plan it wrote to the session's plan file. The
// call is a permission ask (tool.Def.RequiresUserInteraction) whose question
// carries the plan (AskInput adds it, as Claude Code's can_use_tool does);
// the answer approves it, with the mode the session goes on in ("auto-accept
// edits" is acceptEdits), or refuses it with what to change, and plan mode holds.
package exitplanmode

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/invopop/jsonschema"

	"github.com/mini-claude/mini-claude/internal/planmode"
	"github.com/mini-claude/mini-claude/internal/tool"
)

// Name is the tool's name.
const Name = "ExitPlanMode"

// AllowedPrompt is a kind of command the plan expected to run; Claude Code
// keeps the field in its schema but no longer uses it, and neither do we.
type AllowedPrompt struct {
	Tool   string `json:"tool" jsonschema:"enum=Bash" jsonschema_description:"The tool this prompt applies to"`
	Prompt string `json:"prompt" jsonschema_description:"Semantic description of the action, e.g. \"run tests\", \"install dependencies\""`
}

// Input is Claude Code's schema: nothing the model must send, since the plan
// is in the plan file. Plan and PlanFilePath are not in the schema; the
// question adds them, and an answer may send back a plan the user edited.
type Input struct {
	AllowedPrompts []AllowedPrompt `json:"allowedPrompts,omitempty" jsonschema_description:"Deprecated: no longer used."`
	Plan           *string         `json:"plan,omitempty"`
	PlanFilePath   string          `json:"planFilePath,omitempty"`
}

// JSONSchemaExtend leaves plan and planFilePath out of the schema the model
// reads and accepts other properties, as Claude Code's schema does.
func (Input) JSONSchemaExtend(s *jsonschema.Schema) {
	s.Properties.Delete("plan")
	s.Properties.Delete("planFilePath")
	s.AdditionalProperties = jsonschema.TrueSchema
}

// Output is Claude Code's tool_use_result for an approved plan.
type Output struct {
	Plan          string `json:"plan"`
	IsAgent       bool   `json:"isAgent"`
	FilePath      string `json:"filePath,omitempty"`
	PlanWasEdited bool   `json:"planWasEdited,omitempty"`
	// next is the mode the session goes on in, when the answer named none.
	next string
	// exited is the note that plan mode ended, sent with the result.
	exited string
}

// NextMode leaves plan mode for the default mode when the approval did not
// already choose a mode.
func (o Output) NextMode() string { return o.next }

const description = `Use this tool in plan mode when your plan is written to the plan file and ready for the user to approve.

- Write the plan to the plan file named in the plan-mode reminder first: this tool takes no plan; it reads the file and shows it to the user.
- It only signals that planning is done. The user approves the plan (and the session leaves plan mode) or tells you what to change, and you keep planning.
- Use it only for tasks whose implementation you planned. Do not use it after research: reading files, searching or explaining code.
- Settle open questions about requirements or approach with AskUserQuestion first; never ask "Is this plan okay?" or "Should I proceed?" with AskUserQuestion — that is what this tool does.`

// Tool is the ExitPlanMode tool; like Claude Code's it is deferred behind ToolSearch.
var Tool = tool.MustBuild(tool.Def[Input, Output]{
	Name:                    Name,
	SearchHint:              "present the plan for approval and start coding",
	Description:             description,
	MaxResultSizeChars:      100_000,
	ShouldDefer:             true,
	RequiresUserInteraction: true,
	IsReadOnly:              tool.Always[Input],
	IsConcurrencySafe:       tool.Never[Input],
	ValidateInput:           validate,
	CheckPermissions:        ask,
	AskInput:                withPlan,
	Call:                    exit,
	MapResult:               toBlocks,
	RenderUse:               func(Input) string { return "" },
	RenderResult:            renderResult,
	RenderRejected:          renderRejected,
})

// notInPlanMode is Claude Code's refusal outside plan mode, without its
// pointer to EnterPlanMode, a tool mini-claude does not have: the user
// enters plan mode with Shift+Tab or --permission-mode plan.
const notInPlanMode = "You are not in plan mode. If your plan was already approved, continue with implementation."

func validate(_ context.Context, _ Input, env *tool.Env) error {
	if env.PermissionMode != "plan" {
		return errors.New(notInPlanMode)
	}
	return nil
}

func ask(context.Context, Input, *tool.Env) tool.PermissionResult {
	return tool.PermissionResult{Behavior: tool.Ask, Message: "Exit plan mode?"}
}

// withPlan is the input the user is asked about: the plan file's text and path.
func withPlan(_ context.Context, in Input, env *tool.Env) (Input, error) {
	path := planmode.Of(env.Session).Path()
	plan, err := readPlan(path)
	if err != nil {
		return in, err
	}
	in.Plan, in.PlanFilePath = &plan, path
	return in, nil
}

// readPlan returns the plan file's text, "" when there is none.
func readPlan(path string) (string, error) {
	if path == "" {
		return "", nil
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read the plan file: %w", err)
	}
	return string(data), nil
}

// exit runs once the plan was approved: a plan the user edited replaces the
// file's, and the session leaves plan mode unless the answer chose a mode.
func exit(_ context.Context, in Input, env *tool.Env, _ tool.Progress) (Output, error) {
	st := planmode.Of(env.Session)
	path := st.Path()
	plan, err := readPlan(path)
	if err != nil {
		return Output{}, err
	}
	out := Output{Plan: plan, FilePath: path}
	if in.Plan != nil && *in.Plan != plan {
		out.Plan, out.PlanWasEdited = *in.Plan, true
		if err := os.WriteFile(path, []byte(*in.Plan), 0o644); err != nil {
			return Output{}, fmt.Errorf("save the edited plan to %s: %w", path, err)
		}
	}
	if path == "" {
		out.FilePath = ""
	}
	if env.PermissionMode == "plan" {
		out.next = "default"
	}
	out.exited = st.Exited()
	return out, nil
}

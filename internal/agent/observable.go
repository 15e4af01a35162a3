package agent

import (
	"context"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/tool"
)

// observableInputs gives the calls of a model message that ask the user
// (tool.Def.RequiresUserInteraction) the input they are asked about, as
// Claude Code keeps and shows it: ExitPlanMode's call carries the plan and
// the plan file's path in the stream-json line, the transcript and the
// history sent back to the model. m is the message's copy for the history;
// the calls run with the input the model sent.
func (a *Agent) observableInputs(ctx context.Context, m llm.Message) {
	for i, b := range m.Content {
		if b.Type != llm.BlockToolUse || !isJSONObject(b.Input) {
			continue
		}
		t := tool.Find(a.pool(), b.Name)
		if t == nil || !t.RequiresUserInteraction() {
			continue
		}
		call, err := t.Parse(b.Input)
		if err != nil {
			continue
		}
		env := a.opts.Env
		env.PermissionMode = string(a.permissions().Mode)
		if in, err := call.AskInput(ctx, &env); err == nil && in != nil {
			m.Content[i].Input = in
		}
	}
}

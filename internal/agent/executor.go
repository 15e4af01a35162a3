package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf16"

	"github.com/mini-claude/mini-claude/internal/hooks"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/permission"
	"github.com/mini-claude/mini-claude/internal/resultstore"
	"github.com/mini-claude/mini-claude/internal/tool"
)

// pending is one tool_use of a message on its way through the executor: either
// a parsed call, or the error result it ended with before running.
type pending struct {
	use  llm.ContentBlock
	call tool.Call
	// input is the input the call runs with: the model's, or the
	// updatedInput of a PreToolUse hook.
	input json.RawMessage
	early *llm.ContentBlock
	// follow are the blocks the call's result asks to send after the tool results.
	follow []llm.ContentBlock
	// output is the typed output reported with early (what stream-json shows
	// as tool_use_result); nil for the text of the result.
	output any
}

// replaceInput makes input, checked as the model's is (parsed, then
// validated), the one the call runs with: a hook's or a permission answer's
// rewrite. An input that fails leaves the call as it was.
func (p *pending) replaceInput(ctx context.Context, env *tool.Env, input json.RawMessage) error {
	call, err := p.call.Tool().Parse(input)
	if err == nil {
		err = call.Validate(ctx, env)
	}
	if err != nil {
		return err
	}
	p.call, p.input = call, input
	return nil
}

// execute runs the calls of one assistant message: consecutive concurrency-safe
// calls in parallel, every other call alone, and returns their tool_result
// blocks in call order. Within a batch every call is validated and authorized
// first, one at a time, so nothing runs while the user is being asked; then the
// authorized calls run together. The blocks some results send after them (a
// loaded skill's instructions) follow the tool_result blocks.
func (a *Agent) execute(ctx context.Context, uses []llm.ContentBlock) ([]llm.ContentBlock, []Denial) {
	calls := make([]*pending, len(uses))
	for i, use := range uses {
		a.emit(ToolQueued{ID: use.ID, Name: use.Name, Input: use.Input})
		calls[i] = a.prepare(ctx, use)
	}
	results := make([]llm.ContentBlock, len(uses))
	var denials []Denial
	for start := 0; start < len(calls); {
		end := start + 1
		for end < len(calls) && concurrent(calls[start]) && concurrent(calls[end]) {
			end++
		}
		envs := make([]*tool.Env, len(calls))
		for i := start; i < end; i++ {
			env, result, denial := a.admit(ctx, calls[i])
			if env == nil {
				results[i] = result
				if denial != nil {
					denials = append(denials, *denial)
				}
				continue
			}
			envs[i] = env
		}
		var wg sync.WaitGroup
		for i := start; i < end; i++ {
			if envs[i] != nil {
				wg.Go(func() { results[i] = a.perform(ctx, calls[i], envs[i]) })
			}
		}
		wg.Wait()
		start = end
	}
	a.postToolBatch(ctx, calls, results)
	for _, p := range calls {
		results = append(results, p.follow...)
	}
	return results, denials
}

// concurrent reports whether the call may share a batch with other such calls;
// a call that already failed runs nothing, so it may.
func concurrent(p *pending) bool {
	return p.early != nil || p.call.IsConcurrencySafe()
}

// prepare finds the tool and decodes the input; a failure becomes the call's
// result. A tool of an MCP server still connecting is waited for, up to the
// server's start-up timeout; a server that fails makes its status the
// call's error. A call cut off by max_tokens is one whose input is not valid
// JSON, answered as Claude Code answers it: with an error, never run nor
// asked again with more room; a call whose input is complete runs even then.
func (a *Agent) prepare(ctx context.Context, use llm.ContentBlock) *pending {
	p := &pending{use: use, input: use.Input}
	fail := func(text string) *pending {
		result := errorResult(use.ID, text)
		p.early = &result
		return p
	}
	pool := a.pool()
	t := tool.Find(pool, use.Name)
	if t == nil && tool.Find(a.fullPool(), use.Name) != nil {
		return fail(disabledMessage(use.Name))
	}
	if c := tool.ConnectingOf(a.opts.Env.Session); t == nil && c != nil {
		if server, ok := c.ServerOf(use.Name); ok {
			if err := c.Await(ctx, server); err != nil {
				return fail(fmt.Sprintf("Error: %s cannot be called: %v", use.Name, err))
			}
			pool = a.pool()
			t = tool.Find(pool, use.Name)
		}
	}
	if t == nil {
		available := "No tools are available in this session."
		if len(pool) > 0 {
			available = "The available tools are: " + strings.Join(tool.Names(pool), ", ") + "."
		}
		return fail(fmt.Sprintf("Error: No such tool available: %s. %s", use.Name, available))
	}
	if len(use.Input) > 0 && !json.Valid(use.Input) {
		p.output = fmt.Sprintf("InputValidationError: JSON parse failed (%d bytes)", jsUnits(string(use.Input)))
		return fail(invalidJSONMessage(use))
	}
	call, err := t.Parse(use.Input)
	if err != nil {
		return fail(err.Error())
	}
	p.call = call
	return p
}

// admit takes one call through validation and permission. It returns the
// environment the call runs in when it may run; otherwise the call's final
// tool_result, plus the denial when it was refused.
func (a *Agent) admit(ctx context.Context, p *pending) (*tool.Env, llm.ContentBlock, *Denial) {
	if p.early != nil {
		return nil, a.finish(p, *p.early, 0), nil
	}
	if ctx.Err() != nil {
		return nil, a.finish(p, interruptedResult(p.use.ID), 0), nil
	}
	env := a.opts.Env
	env.Cwd = env.Session.Cwd()
	env.ToolUseID = p.use.ID
	env.PermissionMode = string(a.permissions().Mode)
	if err := p.call.Validate(ctx, &env); err != nil {
		return nil, a.finish(p, errorResult(p.use.ID, bounded(p, &env, err.Error())), 0), nil
	}
	verdict := a.preToolUse(ctx, p, &env)
	r := refusal{text: verdict.refusal, byHook: verdict.refusal != ""}
	if r.text == "" {
		r = a.authorize(ctx, p, &env, verdict)
	}
	if r.text != "" {
		text := bounded(p, &env, r.text)
		denial := Denial{ToolName: p.call.Tool().Name(), ToolUseID: p.use.ID, ToolInput: p.use.Input}
		notice := text
		if r.notice != "" {
			notice = r.notice
		}
		a.emit(PermissionDenied{Denial: denial, Message: notice, ByHook: r.byHook, Asked: r.asked})
		return nil, a.finish(p, plainError(p.use.ID, text), 0), &denial
	}
	return &env, llm.ContentBlock{}, nil
}

// perform calls an admitted call and returns its tool_result block.
func (a *Agent) perform(ctx context.Context, p *pending, env *tool.Env) llm.ContentBlock {
	if ctx.Err() != nil {
		return a.finish(p, interruptedResult(p.use.ID), 0)
	}
	a.emit(ToolStarted{ID: p.use.ID, Name: p.call.Tool().Name()})
	started := time.Now()
	written := a.snapshot(ctx, p, env)
	res, err := a.invoke(ctx, p, env)
	a.noteWritten(written)
	var output *tool.OutputError
	switch {
	case err != nil && ctx.Err() != nil:
		return a.finish(p, interruptedResult(p.use.ID), time.Since(started))
	case errors.As(err, &output):
		failed := plainError(p.use.ID, bounded(p, env, output.Text))
		return a.finish(p, a.postToolUse(ctx, p, failed, nil, time.Since(started)), time.Since(started))
	case err != nil:
		failed := errorResult(p.use.ID, bounded(p, env, err.Error()))
		return a.finish(p, a.postToolUse(ctx, p, failed, nil, time.Since(started)), time.Since(started))
	}
	if s, ok := res.Output.(tool.ModeSwitcher); ok {
		a.switchMode(permission.Mode(s.NextMode()))
	}
	content := res.Content
	if isEmpty(content) {
		content = []llm.ContentBlock{llm.TextBlock(fmt.Sprintf("(%s completed with no output)", p.call.Tool().Name()))}
	}
	content = resultstore.Fit(env, content, p.call.Tool().MaxResultSizeChars())
	a.allowForTurn(res.Allow, p.call.Tool().Name())
	if p.follow, err = a.followBlocks(ctx, res.Follow); err != nil {
		failed := errorResult(p.use.ID, err.Error())
		return a.finish(p, a.postToolUse(ctx, p, failed, nil, time.Since(started)), time.Since(started))
	}
	result := a.postToolUse(ctx, p, llm.ToolResultBlock(p.use.ID, content, false), res.Output, time.Since(started))
	a.emit(ToolFinished{ID: p.use.ID, Name: p.use.Name, Result: result, Output: res.Output, Duration: time.Since(started)})
	return result
}

// followBlocks are the blocks a result sends after the tool results, the
// shell commands of their text run as a command's are (a skill's !`cmd`).
func (a *Agent) followBlocks(ctx context.Context, blocks []llm.ContentBlock) ([]llm.ContentBlock, error) {
	out := slices.Clone(blocks)
	for i, b := range out {
		if b.Type != llm.BlockText {
			continue
		}
		text, err := a.runShell(ctx, b.Text)
		if err != nil {
			return nil, err
		}
		out[i].Text = text
	}
	return out, nil
}

// bounded is the text of a failed or refused call as the model gets it: as it
// is within the tool's result limit, and otherwise stored like a large
// successful result, the model getting a preview and the file's path. A
// failing command's stderr or an MCP server's isError text is as unbounded as
// a successful output.
func bounded(p *pending, env *tool.Env, text string) string {
	return resultstore.Fit(env, []llm.ContentBlock{llm.TextBlock(text)}, p.call.Tool().MaxResultSizeChars())[0].Text
}

// isEmpty reports whether content says nothing: no blocks, or only blank text.
func isEmpty(content []llm.ContentBlock) bool {
	for _, b := range content {
		if b.Type != llm.BlockText || strings.TrimSpace(b.Text) != "" {
			return false
		}
	}
	return true
}

// refusal is why a call may not run; text is "" when it may.
type refusal struct {
	// text is what the model is told.
	text string
	// notice, when set, is what the user is told instead.
	notice string
	// asked says the call needed asking: the refusal answers a question
	// (in -p, where there is no one to ask, the question itself).
	asked bool
	// byHook says a PreToolUse hook refused it or raised the question.
	byHook bool
}

// authorize decides whether the call may run, asking the Prompter when the
// rules say ask, unless a PermissionRequest hook answers first. A
// PreToolUse hook's "allow" answers that question and its "ask" raises one
// (refused at once headless, as in Claude Code), but neither beats a deny.
// It returns the refusal, with the message for the model, when the call may
// not run.
func (a *Agent) authorize(ctx context.Context, p *pending, env *tool.Env, hook hookVerdict) refusal {
	name := p.call.Tool().Name()
	query := PermissionQuery(ctx, p.call, env)
	decision := a.permissions().Decide(query)
	byHook := false
	switch {
	case decision.Behavior == permission.Deny:
		return refusal{text: decision.Reason}
	case hook.permission == "allow" && !(query.UserInteraction && bytes.Equal(p.input, p.use.Input)):
		// A hook's allow answers the question, but not one to the user
		// unless it also gave the input (the answers) the call runs with.
		return refusal{}
	case hook.permission == "ask":
		decision, byHook = permission.Decision{Behavior: permission.Ask, Reason: hook.reason}, true
		if _, headless := a.opts.Prompter.(permission.NeverAsk); headless {
			return refusal{text: hook.reason, asked: true, byHook: true}
		}
	case decision.Behavior == permission.Allow:
		return refusal{}
	}
	prompt := permission.Prompt{Tool: name, ToolUseID: p.use.ID, Input: askInput(ctx, p, env), Reason: decision.Reason, Subject: decision.Subject,
		UserInteraction: query.UserInteraction}
	if byHook {
		prompt.Hook = hooks.Name(hooks.PreToolUse, name)
	} else {
		prompt.Rule = SuggestRule(query, decision)
	}
	a.askMu.Lock()
	defer a.askMu.Unlock()
	if r, decided := a.permissionRequest(ctx, p, env, SuggestRule(query, decision)); decided {
		return r
	}
	answer, err := a.opts.Prompter.Ask(ctx, prompt)
	switch {
	case err != nil && ctx.Err() != nil:
		// The turn was interrupted with the question open: refused in Claude Code's words.
		return refusal{text: rejectedText, asked: true, byHook: byHook}
	case err != nil:
		return refusal{text: fmt.Sprintf("Permission to use %s could not be asked: %v.", name, err), asked: true, byHook: byHook}
	case answer.Allow:
		return a.applyAnswer(ctx, p, env, answer)
	case answer.Interrupt:
		a.hookInterrupt.Store(true)
		message := answer.Message
		if message == "" {
			message = "Permission denied"
		}
		return refusal{text: rejectedText, notice: message, asked: true, byHook: byHook}
	case answer.Message != "":
		return refusal{text: answer.Message, asked: true, byHook: byHook}
	}
	return refusal{text: fmt.Sprintf("The user refused this %s call. Do not retry it the same way; ask the user how to proceed.", name), asked: true, byHook: byHook}
}

// applyAnswer takes an allowing answer's updatedInput (an SDK program's
// rewrite, the user's answers to AskUserQuestion, an edited plan) in place of
// the call's input, validated again, and its mode; it returns the refusal
// when the new input is invalid.
func (a *Agent) applyAnswer(ctx context.Context, p *pending, env *tool.Env, answer permission.Answer) refusal {
	if len(answer.UpdatedInput) > 0 {
		if err := p.replaceInput(ctx, env, answer.UpdatedInput); err != nil {
			return refusal{text: fmt.Sprintf("The permission answer for %s gave an input that failed schema validation: %v", p.call.Tool().Name(), err), asked: true}
		}
	}
	a.switchMode(answer.Mode)
	env.PermissionMode = string(a.permissions().Mode)
	return refusal{}
}

// PermissionQuery describes a parsed call for the permission engine: the
// tool's own verdict and everything the call touches, as the executor decides on it.
func PermissionQuery(ctx context.Context, call tool.Call, env *tool.Env) permission.Query {
	own := call.CheckPermissions(ctx, env)
	access := call.Accesses(ctx, env)
	return permission.Query{
		Tool: call.Tool().Name(), ReadOnly: call.IsReadOnly(),
		ToolVerdict: permission.Behavior(own.Behavior), ToolReason: own.Message,
		Reads: access.Reads, Writes: access.Writes, Commands: shellCommands(access.Commands), Domains: access.Domains,
		Network: access.Network,
		Target:  access.Target,

		UserInteraction: call.Tool().RequiresUserInteraction(),
	}
}

func shellCommands(cmds []tool.ShellCommand) []permission.Command {
	out := make([]permission.Command, len(cmds))
	for i, c := range cmds {
		out[i] = permission.Command{Args: c.Args, Text: c.Text, ReadOnly: c.ReadOnly, Dynamic: c.Dynamic, Plain: c.Plain, Destructive: c.Destructive}
	}
	return out
}

// invoke runs the call, turning a panic into an error so the session survives it.
func (a *Agent) invoke(ctx context.Context, p *pending, env *tool.Env) (res tool.Result, err error) {
	name := p.call.Tool().Name()
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the %s tool crashed (%v). This is a fault in the tool, not in your input: try another way to reach the goal", name, r)
		}
	}()
	return p.call.Run(ctx, env, func(ev tool.ProgressEvent) {
		a.emit(ToolProgress{ID: p.use.ID, Name: name, Progress: ev})
	})
}

func (a *Agent) finish(p *pending, result llm.ContentBlock, took time.Duration) llm.ContentBlock {
	a.emit(ToolFinished{ID: p.use.ID, Name: p.use.Name, Result: result, Output: p.output, Duration: took})
	return result
}

// errorResult is a failed call's tool_result, its text wrapped the way models
// trained on Claude Code expect tool errors.
func errorResult(id, text string) llm.ContentBlock {
	return llm.ToolResultBlock(id, []llm.ContentBlock{llm.TextBlock("<tool_use_error>" + text + "</tool_use_error>")}, true)
}

// plainError is an is_error tool_result whose text is not a tool failure: a
// refusal or an interruption.
func plainError(id, text string) llm.ContentBlock {
	return llm.ToolResultBlock(id, []llm.ContentBlock{llm.TextBlock(text)}, true)
}

func interruptedResult(id string) llm.ContentBlock {
	return plainError(id, "[Request interrupted by user for tool use]")
}

// historyMessage returns m as it goes back to the API: a tool_use whose input
// is not valid JSON (a call cut off by max_tokens, or arguments a model wrote
// as invalid JSON) gets Claude Code's {"__unparsedToolInput":{"raw","len"}}
// instead, since no API accepts the original back; one whose input is valid
// JSON but not an object gets {}. The call itself is answered with an error
// that quotes what was sent.
func historyMessage(m llm.Message) llm.Message {
	out := m
	out.Content = slices.Clone(m.Content)
	for i, b := range out.Content {
		switch {
		case b.Type != llm.BlockToolUse || len(b.Input) == 0 || isJSONObject(b.Input):
		case !json.Valid(b.Input):
			out.Content[i].Input = unparsedInput(string(b.Input))
		default:
			out.Content[i].Input = json.RawMessage("{}")
		}
	}
	return out
}

// unparsedInput is the input Claude Code sends back for a call whose input
// was not valid JSON: the text sent and its length in UTF-16 code units.
func unparsedInput(raw string) json.RawMessage {
	quoted, err := json.Marshal(raw)
	if err != nil {
		// raw is a Go string: Marshal replaces invalid UTF-8 and never fails.
		panic(fmt.Sprintf("quoting a tool input: %v", err))
	}
	return json.RawMessage(fmt.Sprintf(`{"__unparsedToolInput":{"raw":%s,"len":%d}}`, quoted, jsUnits(raw)))
}

// isJSONObject reports whether raw is one valid JSON object.
func isJSONObject(raw json.RawMessage) bool {
	trimmed := bytes.TrimSpace(raw)
	return len(trimmed) > 0 && trimmed[0] == '{' && json.Valid(trimmed)
}

// quotedInputUnits is how much of an invalid input the error quotes, in
// UTF-16 code units, as Claude Code counts.
const quotedInputUnits = 200

// invalidJSONMessage is Claude Code's answer to a call whose input was not
// valid JSON, quoting the start of what was sent. Claude Code counts in
// UTF-16 code units and calls them bytes.
func invalidJSONMessage(use llm.ContentBlock) string {
	sent := string(use.Input)
	quoted := jsPrefix(sent, quotedInputUnits)
	return fmt.Sprintf("InputValidationError: %s was called with input that could not be parsed as JSON.\n"+
		"You sent (first %d of %d bytes): %s\n"+
		"Common causes: unescaped backslashes in file paths (use / or \\\\), unescaped control characters, or truncated output. Retry with valid JSON.",
		use.Name, jsUnits(quoted), jsUnits(sent), quoted)
}

// jsUnits is the length of s in UTF-16 code units, a JavaScript string's length.
func jsUnits(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// jsPrefix is the longest prefix of s of at most units UTF-16 code units that
// does not split a character.
func jsPrefix(s string, units int) string {
	n := 0
	for i, r := range s {
		if n += utf16.RuneLen(r); n > units {
			return s[:i]
		}
	}
	return s
}

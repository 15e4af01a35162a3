package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/mini-claude/mini-claude/internal/commands"
	"github.com/mini-claude/mini-claude/internal/hooks"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/permission"
	"github.com/mini-claude/mini-claude/internal/tool"
)

// CommandFailed reports a custom command that could not be sent: a shell
// command of its text was refused or failed, or a UserPromptExpansion hook
// blocked it. Nothing reached the model; Text says why.
type CommandFailed struct {
	Name string
	Text string
}

// invocation is a prompt that runs a custom command, ready to send.
type invocation struct {
	cmd  commands.Command
	args string
	// text is the command's text with its arguments and shell outputs in place.
	text string
	// context are what the UserPromptExpansion hooks gave the model.
	context []llm.ContentBlock
}

// command prepares the command a prompt "/name args" runs, when it names one
// the user may run: the UserPromptExpansion hooks, the arguments, then the
// shell commands of its text, through the Bash tool under the permission
// rules and the command's allowed-tools (which it adds for the turn). It
// returns nil for any other prompt, and an error when the command may not
// be sent.
func (a *Agent) command(ctx context.Context, prompt string) (*invocation, error) {
	name, args, ok := commands.Parse(prompt)
	if !ok {
		return nil, nil
	}
	c, ok := a.opts.Commands.Find(name)
	if !ok || !c.UserInvocable {
		return nil, nil
	}
	inv := &invocation{cmd: c, args: args}
	extra, blocked := a.promptExpansion(ctx, c, args, prompt)
	if blocked != "" {
		return nil, errors.New(blocked)
	}
	inv.context = extra
	a.allowForTurn(c.AllowedTools, "/"+c.Name)
	text, err := a.runShell(ctx, c.Prompt(args))
	if err != nil {
		return nil, err
	}
	inv.text = text
	return inv, nil
}

// blocks are the message blocks of a command, as Claude Code sends them: a
// header naming the command and its arguments, then its text.
func (inv *invocation) blocks() []llm.ContentBlock {
	return []llm.ContentBlock{llm.TextBlock(commands.Header(inv.cmd.Name, inv.args)), llm.TextBlock(inv.text)}
}

// promptExpansion runs the UserPromptExpansion hooks of a command; it
// returns the context they give the model, or why they blocked it.
func (a *Agent) promptExpansion(ctx context.Context, c commands.Command, args, prompt string) ([]llm.ContentBlock, string) {
	if a.depth > 0 || !a.opts.Hooks.Has(hooks.UserPromptExpansion, c.Name) {
		return nil, ""
	}
	in := hooks.UserPromptExpansionInput{Common: a.hookCommon(hooks.UserPromptExpansion, true), ExpansionType: "slash_command",
		CommandName: c.Name, CommandArgs: args, CommandSource: c.Scope.Source(), Prompt: prompt}
	o := a.runHooks(ctx, hooks.UserPromptExpansion, c.Name, in)
	if o.Blocked() {
		a.hookBlocks = o.Blocks
		return nil, "UserPromptExpansion operation blocked by hook:\n" + blockTexts(o.Blocks) + "\n\nOriginal prompt: " + prompt
	}
	return HookContextBlocks(hooks.UserPromptExpansion, o.Context), ""
}

// runShell puts the output of each shell command of a command's text in its
// place, as Claude Code does before sending the text: each runs through the
// Bash tool when the permission rules, with the turn's allowed ones, allow
// it without asking. One refused or failing stops the whole command.
func (a *Agent) runShell(ctx context.Context, text string) (string, error) {
	shells := commands.ShellCommands(text)
	if len(shells) == 0 {
		return text, nil
	}
	bash := tool.Find(a.pool(), "Bash")
	outputs := make([]string, len(shells))
	for i, s := range shells {
		if bash == nil {
			return "", fmt.Errorf("Shell command permission check failed for pattern %q: the Bash tool is not available in this session", s.Raw)
		}
		input, _ := json.Marshal(map[string]string{"command": s.Command})
		call, err := bash.Parse(input)
		if err != nil {
			return "", fmt.Errorf("Shell command permission check failed for pattern %q: %v", s.Raw, err)
		}
		env := a.opts.Env
		env.Cwd = env.Session.Cwd()
		if err := call.Validate(ctx, &env); err != nil {
			return "", fmt.Errorf("Shell command permission check failed for pattern %q: %v", s.Raw, err)
		}
		if d := a.permissions().Decide(PermissionQuery(ctx, call, &env)); d.Behavior != permission.Allow {
			return "", fmt.Errorf("Shell command permission check failed for pattern %q: %s", s.Raw, d.Reason)
		}
		res, err := call.Run(ctx, &env, nil)
		var output *tool.OutputError
		switch {
		case errors.As(err, &output):
			return "", fmt.Errorf("Shell command failed for pattern %q: %s", s.Raw, output.Text)
		case err != nil:
			return "", fmt.Errorf("Shell command failed for pattern %q: %v", s.Raw, err)
		}
		outputs[i] = blocksText(res.Content)
	}
	return commands.ReplaceShell(text, shells, outputs), nil
}

// blocksText joins the text blocks of a tool result.
func blocksText(blocks []llm.ContentBlock) string {
	var parts []string
	for _, b := range blocks {
		if b.Type == llm.BlockText {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// skillTool is the name of the tool that loads a skill, without which the
// skills are not listed.
const skillTool = "Skill"

// listingHeader opens the reminder that lists the skills.
const listingHeader = "<system-reminder>\nThe following skills are available for use with the Skill tool:"

// skillListing is the reminder listing the skills the model may load, for
// a prompt of a conversation that holds none yet (a new one, or one whose
// listing compaction took away); nil when there is nothing to list or no
// Skill tool to load them with.
func (a *Agent) skillListing() []llm.ContentBlock {
	cmds := a.opts.Commands.ModelInvocable()
	if len(cmds) == 0 || tool.Find(a.pool(), skillTool) == nil {
		return nil
	}
	for _, m := range a.messages {
		if m.Role == llm.RoleUser && slices.ContainsFunc(m.Content, func(b llm.ContentBlock) bool {
			return b.Type == llm.BlockText && strings.HasPrefix(b.Text, listingHeader)
		}) {
			return nil
		}
	}
	return []llm.ContentBlock{llm.TextBlock(commands.Listing(cmds, commands.ListingBudget(llm.ContextWindow(a.opts.Model))))}
}

// unknownCommand is the reminder Claude Code gives the model before a
// prompt "/name …" that names no command, in headless runs: the front end
// that asks its user instead leaves Options.UnknownCommands off.
func (a *Agent) unknownCommand(prompt string) []llm.ContentBlock {
	name, _, ok := commands.Parse(prompt)
	if !ok || !a.opts.UnknownCommands {
		return nil
	}
	if _, found := a.opts.Commands.Find(name); found {
		return nil
	}
	var available []string
	for _, c := range a.opts.Commands.ModelInvocable() {
		available = append(available, c.Name)
	}
	return []llm.ContentBlock{llm.TextBlock(commands.UnknownReminder(name, available, len(a.opts.Commands.Names())))}
}

func (CommandFailed) isEvent() {}

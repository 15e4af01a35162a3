// Package skill is the Skill tool: the model loads a skill's instructions
// (or a custom command's text) into the conversation by name, as in Claude
// Code. The model sees only the skills' names and descriptions until then
// (commands.Listing); a call brings the whole body and the skill's folder.
package skill

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/mini-claude/mini-claude/internal/commands"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/tool"
)

// Name is the tool's name in the API.
const Name = "Skill"

// host keeps a session's commands for its Skill calls; sub-agents share it.
type host struct {
	mu  sync.Mutex
	set *commands.Set
}

// Inherit gives a sub-agent's session the same commands.
func (h *host) Inherit() any { return h }

type hostKey struct{}

// Attach gives a session the commands and skills its Skill calls may load.
func Attach(s *tool.Session, set *commands.Set) {
	h := tool.Value(s, hostKey{}, func() *host { return &host{} })
	h.mu.Lock()
	defer h.mu.Unlock()
	h.set = set
}

func setOf(s *tool.Session) *commands.Set {
	h := tool.Value(s, hostKey{}, func() *host { return &host{} })
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.set
}

// Input is Claude Code's schema.
type Input struct {
	Skill string `json:"skill" jsonschema_description:"The name of a skill from the available-skills list. Do not guess names."`
	Args  string `json:"args,omitempty" jsonschema_description:"Optional arguments for the skill"`
}

// Output is the loaded skill, as stream-json's tool_use_result shows it.
type Output struct {
	Success      bool     `json:"success"`
	CommandName  string   `json:"commandName"`
	AllowedTools []string `json:"allowedTools,omitempty"`
	// prompt is the text the skill sends after the tool result.
	prompt string
}

const description = `Loads a skill: instructions the user or the project wrote for one kind of task (a review checklist, deploy steps, the team's way of doing something), sometimes with scripts and files in the skill's folder. The skills available are listed in a system reminder, one line each with what the skill is for.

When a listed skill covers the task at hand, call this tool before you start: the skill's instructions arrive in the conversation right after the result, with its folder, and you follow them instead of your own approach. When the user types /name or asks for a skill or "slash command" by name, they want it run.

- skill: the exact name from the listing, without the leading slash.
- args: the arguments to pass, if any.

Only the names in the listing (or one the user typed) exist. Built-in commands such as /help or /clear are not skills. When a <command-name> block is already in this turn, the skill is loaded: follow it rather than calling this tool again.`

// Tool is the Skill tool.
var Tool = tool.MustBuild(tool.Def[Input, Output]{
	Name:               Name,
	SearchHint:         "invoke a slash-command skill",
	Description:        description,
	MaxResultSizeChars: 100_000,
	// Loading instructions changes nothing; what they lead to is checked call by call.
	IsReadOnly: tool.Always[Input],
	// A skill's allowed-tools hold for the calls after it, so it runs alone.
	IsConcurrencySafe: tool.Never[Input],
	ValidateInput:     validate,
	CheckPermissions:  checkPermissions,
	Accesses:          accesses,
	Call:              call,
	MapResult:         toBlocks,
	Follow:            follow,
	RenderUse:         func(in Input) string { return strings.TrimSpace(in.Skill + " " + in.Args) },
})

// lookup finds the command a call names, a leading "/" allowed.
func lookup(in Input, env *tool.Env) (commands.Command, string, bool) {
	name := strings.TrimPrefix(strings.TrimSpace(in.Skill), "/")
	c, ok := setOf(env.Session).Find(name)
	return c, name, ok
}

func validate(_ context.Context, in Input, env *tool.Env) error {
	c, name, ok := lookup(in, env)
	switch {
	case strings.TrimSpace(in.Skill) == "":
		return fmt.Errorf("Invalid skill format: %s", in.Skill)
	case !ok:
		return fmt.Errorf("Unknown skill: %s", name)
	case c.DisableModelInvocation:
		return fmt.Errorf("Skill %s cannot be used with Skill tool due to disable-model-invocation. Ask the user to run /%s themselves — it cannot be invoked via the Skill tool. Do not replicate this skill's workflow by other means — it is reserved for explicit user invocation.", name, name)
	}
	return nil
}

// checkPermissions lets a skill that only brings instructions load without
// asking; one whose allowed-tools would widen the permissions asks, as in
// Claude Code, unless a rule Skill(name) allows it.
func checkPermissions(_ context.Context, in Input, env *tool.Env) tool.PermissionResult {
	c, name, _ := lookup(in, env)
	if len(c.AllowedTools) == 0 {
		return tool.PermissionResult{Behavior: tool.Allow, Message: "the skill only brings instructions"}
	}
	return tool.PermissionResult{Behavior: tool.Ask, Subject: name, Message: fmt.Sprintf(
		"Execute skill: %s. While it runs it allows %s; the rule Skill(%s) lets it load without asking.", name, strings.Join(c.AllowedTools, ", "), name)}
}

func accesses(_ context.Context, in Input, env *tool.Env) tool.Access {
	_, name, _ := lookup(in, env)
	return tool.Access{Target: name}
}

func call(_ context.Context, in Input, env *tool.Env, _ tool.Progress) (Output, error) {
	c, name, ok := lookup(in, env)
	if !ok {
		return Output{}, errors.New("Unknown skill: " + name)
	}
	return Output{Success: true, CommandName: name, AllowedTools: c.AllowedTools, prompt: c.Prompt(strings.TrimSpace(in.Args))}, nil
}

// toBlocks is Claude Code's result text.
func toBlocks(out Output) []llm.ContentBlock {
	return []llm.ContentBlock{llm.TextBlock("Launching skill: " + out.CommandName)}
}

// follow sends the skill's text after the result and allows its allowed-tools for the turn.
func follow(out Output) ([]llm.ContentBlock, []string) {
	return []llm.ContentBlock{llm.TextBlock(out.prompt)}, out.AllowedTools
}

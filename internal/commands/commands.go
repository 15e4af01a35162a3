// Package commands holds the custom slash commands and skills users and
// projects write as markdown, as Claude Code reads them: the files of the
// commands and skills folders, their front matter, the expansion of a
// command's arguments and the places its shell commands go, the listing of
// skills the model reads, and what an unknown /name is told.
//
// It decides nothing about permissions and runs nothing: the agent runs a
// command's shell commands through the Bash tool and its rules, and the
// caller loads a project's folders only once the trust gate admits them.
package commands

import (
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Scope says whose a command is.
type Scope int

// The scopes, lowest precedence first.
const (
	// User commands come from the user's own folders and always load.
	User Scope = iota
	// Project commands come from the working folder and load only once it is trusted.
	Project
)

// Source is the scope as Claude Code names it to hooks (command_source).
func (s Scope) Source() string {
	if s == Project {
		return "projectSettings"
	}
	return "userSettings"
}

// Command is one custom slash command or skill.
type Command struct {
	// Name is what the user types after "/" and what the Skill tool takes:
	// a command's path below its folder without ".md", folders joined by
	// ":" ("team:deploy"); a skill's folder name.
	Name string
	// Alias is the name a skill's front matter gives it when that differs
	// from its folder's: the listing shows it, and it finds the skill too.
	Alias string
	// Description is the front matter's, else the body's first line.
	Description string
	// WhenToUse is the front matter's when_to_use, added to the listing.
	WhenToUse string
	// ArgumentHint is shown after the name in completions ("<file>").
	ArgumentHint string
	// AllowedTools are the permission rules the command's turn allows, as
	// written (a list item may hold several, separated by commas).
	AllowedTools []string
	// Model, when set, is the model the command's turn runs on.
	Model string
	// DisableModelInvocation keeps the command out of the model's listing
	// and the Skill tool: only the user may run it.
	DisableModelInvocation bool
	// UserInvocable is false for a skill only the model may load.
	UserInvocable bool
	// Body is the text after the front matter.
	Body string
	// Path is the markdown file.
	Path string
	// Skill says the command is a skill (a SKILL.md); Dir is then its folder.
	Skill bool
	Dir   string
	Scope Scope
}

// ModelInvocable reports whether the model may run the command through the Skill tool.
func (c Command) ModelInvocable() bool { return !c.DisableModelInvocation }

// Set is the commands and skills of a session, in the order they are
// listed: skills by name, then commands by name.
type Set struct {
	list []Command
}

// NewSet returns a set of cmds; of two with the same name the later one
// stays, and a skill beats a command of its name.
func NewSet(cmds []Command) *Set {
	byName := map[string]Command{}
	for _, c := range cmds {
		if old, ok := byName[c.Name]; ok && old.Skill && !c.Skill {
			continue
		}
		byName[c.Name] = c
	}
	s := &Set{}
	for _, c := range byName {
		s.list = append(s.list, c)
	}
	slices.SortFunc(s.list, func(a, b Command) int {
		if a.Skill != b.Skill {
			if a.Skill {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Name, b.Name)
	})
	return s
}

// All returns the commands in listing order; a nil set has none.
func (s *Set) All() []Command {
	if s == nil {
		return nil
	}
	return s.list
}

// Find returns the command named name, or else the one it is the alias of.
func (s *Set) Find(name string) (Command, bool) {
	for _, c := range s.All() {
		if c.Name == name {
			return c, true
		}
	}
	for _, c := range s.All() {
		if c.Alias == name {
			return c, true
		}
	}
	return Command{}, false
}

// Names returns the names of the commands the user may type, in listing order.
func (s *Set) Names() []string {
	var names []string
	for _, c := range s.All() {
		if c.UserInvocable {
			names = append(names, c.Name)
		}
	}
	return names
}

// SkillNames returns the names of the skills the user may type, in listing order.
func (s *Set) SkillNames() []string {
	var names []string
	for _, c := range s.All() {
		if c.Skill && c.UserInvocable {
			names = append(names, c.Name)
		}
	}
	return names
}

// ModelInvocable returns the commands the model may run, in listing order.
func (s *Set) ModelInvocable() []Command {
	var out []Command
	for _, c := range s.All() {
		if c.ModelInvocable() {
			out = append(out, c)
		}
	}
	return out
}

// Header is the first block of the message a command sends, naming the
// command and its arguments (when there are any) as Claude Code does.
func Header(name, args string) string {
	h := "<command-message>" + name + "</command-message>\n<command-name>/" + name + "</command-name>\n"
	if args != "" {
		h += "<command-args>" + args + "</command-args>\n"
	}
	return h
}

// Prompt is the text the command sends for args, before its shell commands
// run: a skill's base directory first, ${CLAUDE_SKILL_DIR} naming it, then
// the body with the arguments filled in (see expand). Argument text is kept
// from forming a shell command of its own, as in Claude Code.
func (c Command) Prompt(args string) string {
	text := c.Body
	if c.Skill {
		text = "Base directory for this skill: " + c.Dir + "\n\n" + strings.ReplaceAll(text, "${CLAUDE_SKILL_DIR}", c.Dir)
	}
	return expand(text, args, defuseShell)
}

// defuseShell changes argument text so that ShellCommands finds no command
// in it: Claude Code's escaping of "!`", "`!" and a "!" opening a word.
func defuseShell(s string) string {
	s = strings.ReplaceAll(s, "`!", "` !")
	s = strings.ReplaceAll(s, "!`", "! `")
	return bangAtWord().ReplaceAllString(s, `$1\!`)
}

// bangAtWord is a "!" at the start of a line or after a blank.
var bangAtWord = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)(^|\s)!`) })

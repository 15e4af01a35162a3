package cli

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/mini-claude/mini-claude/internal/commands"
	"github.com/mini-claude/mini-claude/internal/config"
	"github.com/mini-claude/mini-claude/internal/permission"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools/skill"
	"github.com/mini-claude/mini-claude/internal/trust"
)

// loadCommands reads the user's custom commands and skills and, when the
// gate admits every one of them, the project's; each project item is named
// to the gate, so an untrusted folder's are reported as ignored. Files that
// cannot be read and allowed-tools rules that do not parse are reported on
// errOut.
func (s *session) loadCommands(errOut io.Writer) *commands.Set {
	home, _ := os.UserHomeDir()
	user := commands.UserDirs(config.Home(), home)
	project := commands.ProjectDirs(s.cwd, user)
	cmds, errs := commands.Load(user)
	own, projectErrs := commands.Load(project)
	admitted := true
	for _, c := range own {
		kind := trust.KindCommand
		if c.Skill {
			kind = trust.KindSkill
		}
		it := trust.Item{Kind: kind, Name: "/" + c.Name, Source: c.Path}
		if len(c.AllowedTools) > 0 {
			it.Detail = "allows " + strings.Join(c.AllowedTools, ", ")
		}
		admitted = s.gate.Admit(it) && admitted
	}
	if admitted {
		cmds = append(cmds, own...)
		errs = append(errs, projectErrs...)
	}
	for _, err := range errs {
		fmt.Fprintf(errOut, "Warning: ignoring %v\n", err)
	}
	for _, c := range cmds {
		if _, bad := permission.ParseRuleList(c.AllowedTools, c.Path); len(bad) > 0 {
			for _, err := range bad {
				fmt.Fprintf(errOut, "Warning: /%s: ignoring allowed-tools %v\n", c.Name, err)
			}
		}
	}
	return commands.NewSet(cmds)
}

// extraTools are the tools the session adds to the built-ins besides MCP
// servers': the settings' custom tools, and the Skill tool when there is a
// command or skill the model may run.
func (s *session) extraTools() []tool.Tool {
	if len(s.commands.ModelInvocable()) == 0 {
		return s.custom
	}
	return append(slices.Clone(s.custom), skill.Tool)
}

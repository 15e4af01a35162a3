package tui

import (
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/mini-claude/mini-claude/internal/commands"
	"github.com/mini-claude/mini-claude/internal/permission"
)

// slashCommand is one entry of the command table: a command the user types
// after "/", and what it does. A new command is one more entry.
type slashCommand struct {
	name string
	help string
	// idle says the command changes the session, so it waits for the turn to end.
	idle bool
	run  func(m *model, args string) tea.Cmd
}

// commandTable is the table of slash commands, in the order /help lists them.
func commandTable() []slashCommand {
	return []slashCommand{
		{name: "help", help: "Show the commands and keys", run: (*model).cmdHelp},
		{name: "clear", help: "Start a new conversation", idle: true, run: (*model).cmdClear},
		{name: "compact", help: "Replace the conversation by a summary; /compact INSTRUCTIONS says what to keep", idle: true, run: (*model).cmdCompact},
		{name: "rewind", help: "Restore the code and/or conversation to the point before an earlier prompt (also Esc Esc)", idle: true, run: (*model).cmdRewind},
		{name: "resume", help: "Switch to another session of this project (/resume TERM lists those matching it)", idle: true, run: (*model).cmdResume},
		{name: "cost", help: "Show the session's token use and cost", run: (*model).cmdCost},
		{name: "model", help: "Show the model, or switch with /model NAME", idle: true, run: (*model).cmdModel},
		{name: "permissions", help: "List the permission rules; /permissions remove RULE deletes one", idle: true, run: (*model).cmdPermissions},
		{name: "hooks", help: "List the configured hooks: event, matcher, command and settings file", run: (*model).cmdHooks},
		{name: "tasks", help: "List the background tasks", run: (*model).cmdTasks},
		{name: "todos", help: "Show the todo list", run: (*model).cmdTodos},
		{name: "exit", help: "Leave mini-claude", run: (*model).cmdExit},
	}
}

func (m *model) cmdExit(string) tea.Cmd {
	m.quitting = true
	m.interrupt()
	return tea.Quit
}

// command runs a slash command line such as "/model opus": a built-in, or
// a custom command or skill, which goes to the model as a prompt.
func (m *model) command(line string) tea.Cmd {
	name, args, _ := strings.Cut(strings.TrimPrefix(line, "/"), " ")
	commands := commandTable()
	i := slices.IndexFunc(commands, func(c slashCommand) bool { return c.name == name })
	if i < 0 {
		return m.customCommand(name, line)
	}
	c := commands[i]
	if c.idle && m.turn != nil {
		m.info(fmt.Sprintf("/%s waits until the running turn ends (Esc interrupts it).", c.name))
		return nil
	}
	m.conv.add(&block{kind: blockUser, text: line})
	return c.run(m, strings.TrimSpace(args))
}

// customCommand sends a custom command or skill the user typed; for a name
// no one defined, it says so with the nearest names.
func (m *model) customCommand(name, line string) tea.Cmd {
	if c, ok := m.opts.Commands.Find(name); ok && c.UserInvocable {
		if m.turn != nil {
			m.conv.add(&block{kind: blockNotice, text: "A turn is running: wait for it, or press Esc to interrupt it."})
			m.setInput(line)
			return nil
		}
		return m.startTurn(line)
	}
	names := m.commandNames()
	if near := commands.Nearest(name, names, 2); len(near) > 0 {
		m.info(fmt.Sprintf("Unknown command: /%s. Did you mean /%s?", name, near[0]))
		return nil
	}
	near := commands.Nearest(name, names, -1)
	for i := range near {
		near[i] = "/" + near[i]
	}
	m.info(fmt.Sprintf("Unknown command: /%s. The nearest: %s. Type /help for the commands.", name, strings.Join(near[:min(3, len(near))], ", ")))
	return nil
}

// commandNames are the names the user may type after "/": the built-ins,
// then the custom commands and skills.
func (m *model) commandNames() []string {
	var names []string
	for _, c := range commandTable() {
		names = append(names, c.name)
	}
	return append(names, m.opts.Commands.Names()...)
}

func (m *model) info(text string) {
	m.conv.add(&block{kind: blockInfo, body: text})
}

func (m *model) cmdHelp(string) tea.Cmd {
	var b strings.Builder
	b.WriteString("Commands:\n")
	for _, c := range commandTable() {
		fmt.Fprintf(&b, "  /%-12s %s\n", c.name, c.help)
	}
	b.WriteString("  !COMMAND      Run a shell command and show its output\n")
	if custom := m.customHelp(); custom != "" {
		b.WriteString("\nCustom commands and skills:\n" + custom)
	}
	b.WriteString("\nKeys:\n" +
		"  Enter send · Shift+Enter or Ctrl+J new line · Up/Down history · Tab completes /commands and @paths\n" +
		"  Esc interrupt the turn · Esc Esc on an empty prompt /rewind · Ctrl+O full or condensed results and compaction summaries\n" +
		"  PgUp/PgDn or the mouse wheel scroll (Shift+drag selects text)\n" +
		"  Shift+Tab permission mode · Ctrl+C twice exit")
	m.info(b.String())
	return nil
}

func (m *model) cmdClear(string) tea.Cmd {
	warnings := ""
	if m.opts.Clear != nil {
		var err error
		if warnings, err = m.opts.Clear(); err != nil {
			m.conv.add(&block{kind: blockError, text: "A new conversation was not started: " + err.Error()})
			return nil
		}
	}
	m.conv.clear()
	m.ctxUsed = 0
	m.info("Started a new conversation.")
	if warnings != "" {
		m.info(warnings)
	}
	return nil
}

func (m *model) cmdCost(string) tea.Cmd {
	u := m.usage
	m.info(fmt.Sprintf("Total cost:   $%.4f\nInput:        %d tokens\nOutput:       %d tokens\nCache read:   %d tokens\nCache write:  %d tokens",
		m.costUSD, u.InputTokens, u.OutputTokens, u.CacheReadInputTokens, u.CacheCreationInputTokens))
	return nil
}

func (m *model) cmdModel(args string) tea.Cmd {
	if args == "" || m.opts.SetModel == nil {
		m.info("Model: " + m.model)
		return nil
	}
	if err := m.opts.SetModel(args); err != nil {
		m.info("The model was not changed: " + err.Error())
		return nil
	}
	m.model = args
	m.info("Model set to " + args + " for the next turns.")
	return nil
}

func (m *model) cmdPermissions(args string) tea.Cmd {
	perm := m.opts.Permissions
	if perm == nil {
		m.info("This session has no permission rules.")
		return nil
	}
	if rule, ok := strings.CutPrefix(args, "remove "); ok {
		m.removeRule(strings.TrimSpace(rule))
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Permission mode: %s\n", m.mode)
	for _, list := range []struct {
		name  string
		rules []permission.Rule
	}{{"allow", perm.Allow}, {"ask", perm.Ask}, {"deny", perm.Deny}} {
		fmt.Fprintf(&b, "%s:\n", list.name)
		if len(list.rules) == 0 {
			b.WriteString("  (none)\n")
		}
		for _, r := range list.rules {
			fmt.Fprintf(&b, "  %-40s from %s\n", r.String(), r.Source)
		}
	}
	b.WriteString("Remove a rule with /permissions remove RULE.")
	m.info(b.String())
	return nil
}

// removeRule drops a rule from the session and from the project's local
// settings file; rules of other files are only dropped for the session.
func (m *model) removeRule(text string) {
	perm := m.opts.Permissions
	var files []string
	removed := false
	for _, list := range []struct {
		name  string
		rules *[]permission.Rule
	}{{"allow", &perm.Allow}, {"ask", &perm.Ask}, {"deny", &perm.Deny}} {
		n := len(*list.rules)
		*list.rules = slices.DeleteFunc(*list.rules, func(r permission.Rule) bool { return r.String() == text })
		if len(*list.rules) == n {
			continue
		}
		removed = true
		if m.opts.RemoveRule == nil {
			continue
		}
		file, err := m.opts.RemoveRule(list.name, text)
		if err != nil {
			m.info("Removed " + text + " for this session; the settings file was not changed: " + err.Error())
			return
		}
		if file != "" {
			files = append(files, file)
		}
	}
	if !removed {
		m.info("No rule " + text + ". /permissions lists them.")
		return
	}
	m.rulesMu.Lock()
	delete(m.rememberedRules, text)
	m.rulesMu.Unlock()
	if len(files) > 0 {
		m.info("Removed the rule " + text + " from " + strings.Join(slices.Compact(files), ", ") + ".")
		return
	}
	m.info("Removed the rule " + text + " for this session (its settings file is not the project's local one, so it applies again next session).")
}

func (m *model) cmdTasks(string) tea.Cmd {
	var lines []string
	if m.opts.Tasks != nil {
		lines = m.opts.Tasks()
	}
	if len(lines) == 0 {
		m.info("No background tasks.")
		return nil
	}
	m.info("Background tasks:\n  " + strings.Join(lines, "\n  "))
	return nil
}

// customHelp lists the custom commands and skills, one a line: the name
// with its argument hint, the description, and where it comes from.
func (m *model) customHelp() string {
	var b strings.Builder
	for _, c := range m.opts.Commands.All() {
		if !c.UserInvocable {
			continue
		}
		kind := "command"
		if c.Skill {
			kind = "skill"
		}
		scope := "user"
		if c.Scope == commands.Project {
			scope = "project"
		}
		fmt.Fprintf(&b, "  %-12s %s (%s %s)\n", strings.TrimSpace("/"+c.Name+" "+c.ArgumentHint), c.Description, scope, kind)
	}
	return b.String()
}

// maxCommandHints is how many commands the / completion lists.
const maxCommandHints = 8

// commandHint lists, under the input, the commands that start as the
// typed "/name" does, each with its description; "" when the input is not
// a command name being typed.
func (m *model) commandHint(input string) string {
	typed, ok := strings.CutPrefix(input, "/")
	if !ok || strings.ContainsAny(typed, " \t\n") {
		return ""
	}
	var lines []string
	add := func(name, hint, description string) {
		if strings.HasPrefix(name, typed) {
			lines = append(lines, fmt.Sprintf("%-20s %s", strings.TrimSpace("/"+name+" "+hint), description))
		}
	}
	for _, c := range commandTable() {
		add(c.name, "", c.help)
	}
	for _, c := range m.opts.Commands.All() {
		if c.UserInvocable {
			add(c.Name, c.ArgumentHint, c.Description)
		}
	}
	if len(lines) > maxCommandHints {
		lines = append(lines[:maxCommandHints], fmt.Sprintf("… and %d more", len(lines)-maxCommandHints))
	}
	return strings.Join(lines, "\n")
}

// completeCommand completes the slash command being typed, as Tab does: to
// the one command of names that starts so, with a space after it, or to
// what several share, listing them. ok is false when input is not a command name.
func completeCommand(input string, names []string) (completed string, candidates []string, ok bool) {
	typed, isCommand := strings.CutPrefix(input, "/")
	if !isCommand || strings.ContainsAny(typed, " \t\n") {
		return input, nil, false
	}
	var matches []string
	for _, n := range names {
		if strings.HasPrefix(n, typed) {
			matches = append(matches, "/"+n)
		}
	}
	switch len(matches) {
	case 0:
		return input, nil, true
	case 1:
		return matches[0] + " ", nil, true
	}
	common := matches[0]
	for _, n := range matches[1:] {
		for !strings.HasPrefix(n, common) {
			common = common[:len(common)-1]
		}
	}
	return common, matches, true
}

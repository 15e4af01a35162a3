package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/commands"
	"github.com/mini-claude/mini-claude/internal/config"
	"github.com/mini-claude/mini-claude/internal/hooks"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/mcp"
	"github.com/mini-claude/mini-claude/internal/permission"
	"github.com/mini-claude/mini-claude/internal/prompt"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools"
	"github.com/mini-claude/mini-claude/internal/tools/custom"
	"github.com/mini-claude/mini-claude/internal/tools/subagent"
	"github.com/mini-claude/mini-claude/internal/tools/toolsearch"
	"github.com/mini-claude/mini-claude/internal/tools/web"
	"github.com/mini-claude/mini-claude/internal/trust"
	"github.com/mini-claude/mini-claude/internal/workspace"
)

// modelAliases are the short model names Claude Code accepts.
var modelAliases = map[string]string{
	"opus":   llm.DefaultModel,
	"sonnet": "claude-sonnet-4-5",
	"haiku":  "claude-haiku-4-5",
}

// session is what a run is assembled from: the resolved provider and model,
// directories, permissions, tool pool and system prompt.
type session struct {
	*folder
	provider Provider
	model    string
	dirs     []string
	perm     *permission.Context
	// only is the --tools selection of built-ins; nil offers them all.
	only []string
	// custom are the command-backed tools of the settings files.
	custom []tool.Tool
	pool   []tool.Tool
	// agentTypes are the sub-agent types the Agent tool offers.
	agentTypes []subagent.Type
	// commands are the custom slash commands and skills.
	commands *commands.Set
	// toolSearch decides which tools are deferred (MINI_CLAUDE_TOOL_SEARCH).
	toolSearch toolsearch.Policy
	// mcpServers are the configured MCP servers that may start, not yet started.
	mcpServers []mcp.Server
	// heldServers are the project's MCP servers awaiting the user's approval.
	heldServers []mcp.Server
	// hooks are the session's lifecycle hooks; nil when none is configured.
	hooks *hooks.Engine
	// passEnv names the credentials the user's own settings pass to child
	// processes (config.PassEnv); the others are kept from them.
	passEnv []string
	// web is what the web tools get: their side model and their settings.
	web web.Config
	// memory returns the memory files (CLAUDE.md…), read once per session:
	// the system prompt, compaction, the refusal warnings and the
	// InstructionsLoaded hooks all take them from here.
	memory func() prompt.Memory
}

// newSession resolves the options into a session, reporting malformed rules on
// errOut (they are ignored, never widening anything) and failing on bad usage.
func newSession(f *Factory, opts *Options, errOut io.Writer) (*session, error) {
	cwd, err := f.Getwd()
	if err != nil {
		return nil, &ExitError{Code: ExitUsage, Err: fmt.Errorf("find the working directory: %w", err)}
	}
	s := &session{folder: loadFolder(cwd, opts.Trust, errOut)}
	if opts.SettingSourcesSet {
		s.files = settingSources(s.files, opts.SettingSources)
	}
	files := s.files
	s.passEnv = config.PassEnv(files)
	if s.provider, s.model, err = resolveBackend(opts.Provider, opts.Model, f.Getenv("ANTHROPIC_MODEL"), files); err != nil {
		return nil, err
	}
	s.web = webConfig(s.provider, files, f.Getenv)
	dirs := slices.Clone(opts.AddDirs)
	for _, file := range files {
		dirs = append(dirs, file.Permissions.AdditionalDirectories...)
	}
	home, _ := os.UserHomeDir()
	for _, dir := range dirs {
		if rest, ok := strings.CutPrefix(dir, "~"); ok && home != "" && (rest == "" || rest[0] == '/') {
			dir = home + rest
		}
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(cwd, dir)
		}
		s.dirs = append(s.dirs, filepath.Clean(dir))
	}
	if s.perm, err = permissionContext(opts, files, cwd, errOut); err != nil {
		return nil, err
	}
	for _, dir := range append([]string{cwd}, s.dirs...) {
		s.perm.Dirs = append(s.perm.Dirs, workspace.RealPath(dir))
	}
	if opts.checkout != "" {
		s.perm.Checkout = workspace.RealPath(opts.checkout)
	}
	s.perm.Home, _ = os.UserHomeDir()
	s.memory = sync.OnceValue(func() prompt.Memory { return prompt.LoadMemory(s.cwd, s.perm) })
	if err := refuseBypassAsRoot(s.perm.Mode, os.Geteuid(), f.Getenv); err != nil {
		return nil, err
	}
	s.only = selectTools(opts, errOut)
	s.agentTypes = s.loadAgentTypes(errOut)
	if s.toolSearch, err = toolsearch.ParsePolicy(f.Getenv(toolsearch.Env)); err != nil {
		return nil, &ExitError{Code: ExitUsage, Err: err}
	}
	s.custom = customTools(files, errOut)
	s.commands = s.loadCommands(errOut)
	s.pool = subagent.Describe(tools.AssemblePool(s.perm, s.only, s.extraTools()), s.agentTypes)
	s.loadServers(opts, f.Getenv, errOut)
	s.hooks = s.loadHooks(errOut)
	return s, nil
}

// loadAgentTypes reads the user's agent types and, when the gate admits
// them, the project's.
func (s *session) loadAgentTypes(errOut io.Writer) []subagent.Type {
	home, _ := os.UserHomeDir()
	dirs := subagent.UserDirs(config.Home(), home)
	projectDirs := subagent.ProjectDirs(s.cwd, dirs)
	types, errs := subagent.LoadTypes(append(slices.Clone(dirs), projectDirs...))
	admitted := true
	for _, t := range types {
		if slices.ContainsFunc(projectDirs, func(d string) bool { return strings.HasPrefix(t.Source, d+string(filepath.Separator)) }) {
			admitted = s.gate.Admit(trust.Item{Kind: trust.KindAgentType, Name: t.Name, Source: t.Source}) && admitted
		}
	}
	if !admitted {
		types, errs = subagent.LoadTypes(dirs)
	}
	for _, err := range errs {
		fmt.Fprintf(errOut, "Warning: ignoring %v\n", err)
	}
	return types
}

// loadServers reads the configured MCP servers, screened: those that may
// start, and the project's that await approval.
func (s *session) loadServers(opts *Options, getenv func(string) string, errOut io.Writer) {
	s.mcpServers, s.heldServers = nil, nil
	for _, server := range loadMCPServers(opts, s.files, s.cwd, getenv, s.screenServer, errOut) {
		if server.Held {
			s.heldServers = append(s.heldServers, server)
		} else {
			s.mcpServers = append(s.mcpServers, server)
		}
	}
}

// poolWith returns the session's tools with the tools of the MCP servers
// connected so far; it is cheap enough to ask before every request.
func (s *session) poolWith(servers *mcp.Manager) []tool.Tool {
	extra := slices.Concat(s.extraTools(), servers.Tools())
	return subagent.Describe(tools.AssemblePool(s.perm, s.only, extra), s.agentTypes)
}

// attachSideModel gives a session's web tools their settings and the side
// model the agent offers them.
func (s *session) attachSideModel(state *tool.Session, m tool.SideModel) {
	web.Attach(state, s.web, m)
}

// subAgents configures the sub-agents of the session's Agent tool: their
// system prompts and the models their aliases name on this provider.
func (s *session) subAgents() *agent.SubAgents {
	return &agent.SubAgents{
		Attach: func(state *tool.Session, r tool.SubAgentRunner) { subagent.Attach(state, s.agentTypes, r) },
		System: func(req tool.SubAgentRequest, model string, toolNames []string) string {
			opts := prompt.Options{
				Cwd: s.cwd, AdditionalDirs: s.dirs, Model: model, ToolNames: toolNames, Now: time.Now(), Permissions: s.perm,
				Memory: s.memoryFiles(),
			}
			if req.Cwd != "" && req.Cwd != s.cwd {
				// A sub-agent in its own worktree reads that tree's memory files.
				opts.Cwd, opts.Memory = req.Cwd, nil
			}
			return prompt.BuildSubAgent(req.Role, opts)
		},
		Model: s.subAgentModel,
	}
}

// subAgentModel resolves the model an Agent call or agent type names: an
// alias is Claude Code's model on the Anthropic API, and the session's own
// model elsewhere, where "sonnet" names nothing; other names are used as given.
func (s *session) subAgentModel(name string) string {
	full, alias := modelAliases[name]
	switch {
	case alias && s.provider.API == APIAnthropic:
		return full
	case alias:
		return s.model
	}
	return name
}

// customTools builds the command-backed tools of the settings files'
// "tools" lists, reporting on errOut the entries left out: those that cannot
// be built and those named like a built-in tool, even one not offered.
func customTools(files []config.File, errOut io.Writer) []tool.Tool {
	extra, problems := custom.Load(files)
	for _, err := range problems {
		fmt.Fprintf(errOut, "Warning: %v\n", err)
	}
	builtins := tools.AllBase()
	return slices.DeleteFunc(extra, func(t tool.Tool) bool {
		clash := tool.Find(builtins, t.Name()) != nil
		if clash {
			fmt.Fprintf(errOut, "Warning: the settings tool %s has the name of a built-in tool and is left out; rename it\n", t.Name())
		}
		return clash
	})
}

// permissionContext layers the settings files' rules and mode under the
// command line's. Malformed rules and unreadable files are reported on errOut,
// once each, and ignored.
func permissionContext(opts *Options, files []config.File, cwd string, errOut io.Writer) (*permission.Context, error) {
	perm := &permission.Context{Mode: permission.ModeDefault}
	var problems []error
	add := func(list *[]permission.Rule, texts []string, source, base string) {
		rules, errs := permission.ParseRuleList(texts, source)
		for i := range rules {
			rules[i].Base = base
		}
		*list = append(*list, rules...)
		problems = append(problems, errs...)
	}
	for _, f := range files {
		add(&perm.Allow, f.Permissions.Allow, f.Path, f.Project)
		add(&perm.Deny, f.Permissions.Deny, f.Path, f.Project)
		add(&perm.Ask, f.Permissions.Ask, f.Path, f.Project)
		if f.Permissions.DefaultMode != "" {
			mode, err := permission.ParseMode(f.Permissions.DefaultMode)
			if err != nil {
				problems = append(problems, fmt.Errorf("settings %s: %w", f.Path, err))
				continue
			}
			perm.Mode = mode
		}
	}
	add(&perm.Allow, opts.AllowedTools, "--allowedTools", cwd)
	add(&perm.Deny, opts.DisallowedTools, "--disallowedTools", cwd)
	for _, err := range problems {
		fmt.Fprintf(errOut, "Warning: ignoring %v\n", err)
	}
	if opts.PermissionMode != "" {
		mode, err := permission.ParseMode(opts.PermissionMode)
		if err != nil {
			return nil, &ExitError{Code: ExitUsage, Err: err}
		}
		perm.Mode = mode
	}
	if opts.SkipPermissions {
		perm.Mode = permission.ModeBypassPermissions
	}
	return perm, nil
}

// refuseBypassAsRoot stops bypassPermissions for root outside a sandbox, as
// Claude Code does: a root process that runs everything unasked can break the machine.
func refuseBypassAsRoot(mode permission.Mode, euid int, getenv func(string) string) error {
	if mode != permission.ModeBypassPermissions || euid != 0 || getenv("IS_SANDBOX") == "1" {
		return nil
	}
	return usageError("--dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons; in a container or VM set IS_SANDBOX=1")
}

// selectTools reads --tools: nil means every built-in, "" none, "default"
// all. Names that are not built-ins are left out, as Claude Code leaves them
// out, with one warning line on errOut naming them.
func selectTools(opts *Options, errOut io.Writer) []string {
	if !opts.ToolsSet {
		return nil
	}
	known := tool.Names(tools.AllBase())
	names, unknown := []string{}, []string{}
	for _, value := range opts.Tools {
		for _, name := range strings.FieldsFunc(value, func(r rune) bool { return r == ',' || r == ' ' }) {
			switch {
			case name == "default":
				return nil
			case slices.Contains(known, name):
				names = append(names, name)
			default:
				unknown = append(unknown, strconv.Quote(name))
			}
		}
	}
	if len(unknown) > 0 {
		fmt.Fprintf(errOut, "Warning: --tools: ignoring %s, not a built-in tool; the built-in tools are: %s\n",
			strings.Join(unknown, ", "), strings.Join(known, ", "))
	}
	return names
}

// systemPrompt assembles the system prompt for the session's tools; the
// agent adds the names of the deferred tools to it at each request.
func (s *session) systemPrompt(opts *Options) string {
	return prompt.Build(prompt.Options{
		Cwd:            s.cwd,
		AdditionalDirs: s.dirs,
		Model:          s.model,
		ToolNames:      tool.Names(s.pool),
		Now:            time.Now(),
		Override:       opts.SystemPrompt,
		Append:         opts.AppendSystemPrompt,
		Permissions:    s.perm,
		Memory:         s.memoryFiles(),
	})
}

// memoryFiles returns the session's memory files.
func (s *session) memoryFiles() *prompt.Memory {
	m := s.memory()
	return &m
}

// warnRefusedMemory tells the user which memory files the Read rules kept out
// of the prompt and why; the model reads the same in the prompt's memory section.
func (s *session) warnRefusedMemory(errOut io.Writer) {
	for _, r := range s.memory().Refused {
		fmt.Fprintf(errOut, "Warning: memory file %s\n", r)
	}
}

// firstSystemPrompt is the system prompt of the session's first request: the
// assembled prompt and the names of the tools deferred at the start.
func (s *session) firstSystemPrompt(opts *Options) string {
	_, deferred := s.toolSearch.Offer(s.pool, tool.NewSession(s.cwd), 0)
	return prompt.WithDeferredTools(s.systemPrompt(opts), deferred)
}

func (s *session) env(sessionID string, state *tool.Session) tool.Env {
	return tool.Env{Cwd: s.cwd, AdditionalDirs: s.dirs, SessionID: sessionID, PermissionMode: string(s.perm.Mode), Session: state,
		FolderTrusted: s.gate.Trusted(), PassEnv: s.passEnv}
}

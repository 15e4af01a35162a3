package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/mini-claude/mini-claude/internal/acp"
	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/mcp"
	"github.com/mini-claude/mini-claude/internal/permission"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools/fileaccess"
)

// newCmdACP serves editors over the Agent Client Protocol on stdin and
// stdout; the flags are the run flags that apply to every session it opens.
func newCmdACP(f *Factory) *cobra.Command {
	opts := &Options{}
	cmd := &cobra.Command{
		Use:   "acp",
		Short: "Serve an editor (Zed, JetBrains, Neovim, Emacs) over the Agent Client Protocol on stdin and stdout",
		Long: "mini-claude acp speaks the Agent Client Protocol (JSON-RPC over stdio) for editors: each session the editor\n" +
			"opens is a mini-claude session in the folder it names, with the same tools, settings, permission rules and\n" +
			"transcripts; asks go to the editor as permission requests. Stdout carries only the protocol; warnings go to stderr.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runACP(cmd.Context(), f, opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Model, "model", "", "Model to use, optionally after a provider: ollama/qwen3-coder")
	fl.StringVar(&opts.Provider, "provider", "", "Model provider: anthropic, openai, or a local server: ollama, llamacpp, vllm (default anthropic)")
	fl.IntVar(&opts.MaxTurns, "max-turns", 0, "Stop each prompt after this many model turns (0: no limit)")
	fl.StringArrayVar(&opts.AllowedTools, "allowedTools", nil, `Rules that allow tools without asking, e.g. "Read,Bash(git log:*)"`)
	fl.StringArrayVar(&opts.DisallowedTools, "disallowedTools", nil, `Rules that deny tools, e.g. "Bash(rm:*)"`)
	fl.StringVar(&opts.PermissionMode, "permission-mode", "", "Permission mode sessions start in: default, acceptEdits, plan or bypassPermissions")
	fl.StringArrayVar(&opts.AddDirs, "add-dir", nil, "Additional directories the tools may use")
	addMCPFlags(fl, opts)
	addTrustFlag(fl, opts)
	return cmd
}

// runACP serves the protocol until the editor closes stdin.
func runACP(ctx context.Context, f *Factory, opts *Options) error {
	if err := checkRunFlags(opts); err != nil {
		return err
	}
	backend := &acpBackend{f: f, opts: opts}
	info := acp.Info{Name: "mini-claude", Title: "mini-claude", Version: Version}
	return acp.Serve(ctx, backend, info, f.IO.In, f.IO.Out, f.IO.ErrOut)
}

// acpBackend opens the editor's sessions as a headless run is assembled:
// the folder's trust decides what its files may do, warnings go to stderr.
type acpBackend struct {
	f    *Factory
	opts *Options
}

// Open assembles a session in req.Cwd with the editor's MCP servers added
// to the configured ones, and its agent.
func (b *acpBackend) Open(ctx context.Context, req acp.OpenRequest) (*acp.Opened, error) {
	if !filepath.IsAbs(req.Cwd) {
		return nil, fmt.Errorf("cwd %q is not an absolute path", req.Cwd)
	}
	if info, err := os.Stat(req.Cwd); err != nil || !info.IsDir() {
		return nil, fmt.Errorf("cwd %s is not a folder", req.Cwd)
	}
	f := *b.f
	f.Getwd = func() (string, error) { return filepath.Clean(req.Cwd), nil }
	opts := *b.opts
	opts.Resume = req.LoadID
	errOut := f.IO.ErrOut
	s, err := newSession(&f, &opts, errOut)
	if err != nil {
		return nil, err
	}
	fmt.Fprint(errOut, s.notice(s.heldServers))
	s.warnRefusedMemory(errOut)
	client, err := f.NewClient(s.provider)
	if err != nil {
		return nil, err
	}
	state := tool.NewSession(s.cwd)
	if req.Editor != nil {
		fileaccess.AttachEditor(state, req.Editor)
	}
	conv, err := openConversation(&opts, s, state, errOut)
	if err != nil {
		state.Close()
		return nil, err
	}
	servers := mcp.Start(append(s.mcpServers, req.MCPServers...), mcpLimits(f.Getenv, s.passEnv))
	servers.Wait(ctx, mcpWait(f.Getenv))
	reportFailedServers(servers, errOut)
	agentOpts := s.agentOptions(&opts, client, servers, conv, state, req.OnEvent)
	agentOpts.Prompter = req.Prompter
	// As in -p: a "/name" that names no command reaches the model, which
	// is told it did not run; the editor has no place to say so itself.
	agentOpts.UnknownCommands = true
	agentOpts.StartContext = s.sessionStart(ctx, conv, startSource(&opts), errOut, req.OnEvent)
	a := agent.New(agentOpts)
	opened := &acp.Opened{ID: conv.id, Cwd: s.cwd, Agent: a, Permissions: s.perm, History: conv.history, Modes: s.acpModes(f.Getenv),
		Close: func() {
			s.sessionEnd(conv, "other", a.PromptID(), req.OnEvent)
			conv.close()
			state.Close()
			servers.Close()
		}}
	if save := s.addAllowRule(); save != nil {
		opened.SaveRule = func(rule string) error { _, err := save(rule); return err }
	}
	return opened, nil
}

// acpModes are the permission modes an editor may switch a session to:
// bypassPermissions only where it may be used (not as root outside a sandbox).
func (s *session) acpModes(getenv func(string) string) []permission.Mode {
	modes := []permission.Mode{permission.ModeDefault, permission.ModeAcceptEdits, permission.ModePlan}
	if refuseBypassAsRoot(permission.ModeBypassPermissions, os.Geteuid(), getenv) == nil {
		modes = append(modes, permission.ModeBypassPermissions)
	}
	return modes
}

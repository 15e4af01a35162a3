package cli

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools"
)

// newSessionCommand builds a command that resolves the session the flags
// describe, as a run would, and hands it to show; it needs no key or network.
func newSessionCommand(f *Factory, use, short string, show func(*session, *Options) error) (*cobra.Command, *Options) {
	opts := &Options{}
	cmd := &cobra.Command{
		Use:   use,
		Short: short,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.ToolsSet = cmd.Flags().Changed("tools")
			s, err := newSession(f, opts, f.IO.ErrOut)
			if err != nil {
				return err
			}
			fmt.Fprint(f.IO.ErrOut, s.notice(s.heldServers))
			return show(s, opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Model, "model", "", "Model the session is for")
	fl.StringVar(&opts.Provider, "provider", "", "Model provider: anthropic, openai, ollama, llamacpp or vllm")
	fl.StringArrayVar(&opts.Tools, "tools", nil, "Offer exactly these built-in tools")
	fl.StringArrayVar(&opts.AllowedTools, "allowedTools", nil, "Rules that allow tools without asking")
	fl.StringArrayVar(&opts.DisallowedTools, "disallowedTools", nil, "Rules that deny tools")
	fl.StringVar(&opts.PermissionMode, "permission-mode", "", "Permission mode")
	fl.StringArrayVar(&opts.AddDirs, "add-dir", nil, "Additional directories the tools may use")
	return cmd, opts
}

// newCmdTools lists the registry: every built-in with its safety flags and
// whether this session would offer it.
func newCmdTools(f *Factory) *cobra.Command {
	cmd, _ := newSessionCommand(f, "tools", "List the built-in tools: read-only, concurrency-safe, deferred, enabled",
		func(s *session, _ *Options) error {
			w := tabwriter.NewWriter(f.IO.Out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "NAME\tREAD-ONLY\tCONCURRENCY-SAFE\tDEFERRED\tENABLED")
			for _, t := range tools.AllBase() {
				call := t.ZeroCall()
				fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", t.Name(),
					yesNo(call.IsReadOnly()), yesNo(call.IsConcurrencySafe()),
					yesNo(t.ShouldDefer()), yesNo(tool.Find(s.pool, t.Name()) != nil))
			}
			return w.Flush()
		})
	return cmd
}

// newCmdSystemPrompt prints the system prompt a run in this directory would send.
func newCmdSystemPrompt(f *Factory) *cobra.Command {
	cmd, opts := newSessionCommand(f, "system-prompt", "Print the assembled system prompt for this directory",
		func(s *session, opts *Options) error {
			_, err := fmt.Fprintln(f.IO.Out, s.firstSystemPrompt(opts))
			return err
		})
	cmd.Flags().StringVar(&opts.SystemPrompt, "system-prompt", "", "Replace the built-in system prompt")
	cmd.Flags().StringVar(&opts.AppendSystemPrompt, "append-system-prompt", "", "Append text to the system prompt")
	return cmd
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

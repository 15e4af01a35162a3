package cli

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/mini-claude/mini-claude/internal/tools"
)

// newCmdTools lists the registry: every built-in with its safety flags and
// whether this session would offer it.
func newCmdTools(f *Factory) *cobra.Command {
	opts := &Options{}
	cmd := &cobra.Command{
		Use:   "tools",
		Short: "List the built-in tools: read-only, concurrency-safe, deferred, enabled",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.ToolsSet = cmd.Flags().Changed("tools")
			s, err := newSession(f, opts, f.IO.ErrOut)
			if err != nil {
				return err
			}
			w := tabwriter.NewWriter(f.IO.Out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "NAME\tREAD-ONLY\tCONCURRENCY-SAFE\tDEFERRED\tENABLED")
			for _, t := range tools.AllBase() {
				call := t.ZeroCall()
				fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", t.Name(),
					yesNo(call.IsReadOnly()), yesNo(call.IsConcurrencySafe()),
					yesNo(t.ShouldDefer()), yesNo(tools.Find(s.pool, t.Name()) != nil))
			}
			return w.Flush()
		},
	}
	addSessionFlags(cmd, opts)
	return cmd
}

// newCmdSystemPrompt prints the system prompt a run in this directory would send.
func newCmdSystemPrompt(f *Factory) *cobra.Command {
	opts := &Options{}
	cmd := &cobra.Command{
		Use:   "system-prompt",
		Short: "Print the assembled system prompt for this directory",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.ToolsSet = cmd.Flags().Changed("tools")
			s, err := newSession(f, opts, f.IO.ErrOut)
			if err != nil {
				return err
			}
			_, err = fmt.Fprintln(f.IO.Out, s.systemPrompt(opts))
			return err
		},
	}
	addSessionFlags(cmd, opts)
	cmd.Flags().StringVar(&opts.SystemPrompt, "system-prompt", "", "Replace the built-in system prompt")
	cmd.Flags().StringVar(&opts.AppendSystemPrompt, "append-system-prompt", "", "Append text to the system prompt")
	return cmd
}

// addSessionFlags adds the flags that change which tools a session offers.
func addSessionFlags(cmd *cobra.Command, opts *Options) {
	fl := cmd.Flags()
	fl.StringVar(&opts.Model, "model", "", "Model the prompt is built for")
	fl.StringArrayVar(&opts.Tools, "tools", nil, "Offer exactly these built-in tools")
	fl.StringArrayVar(&opts.AllowedTools, "allowedTools", nil, "Rules that allow tools without asking")
	fl.StringArrayVar(&opts.DisallowedTools, "disallowedTools", nil, "Rules that deny tools")
	fl.StringVar(&opts.PermissionMode, "permission-mode", "", "Permission mode")
	fl.StringArrayVar(&opts.AddDirs, "add-dir", nil, "Additional directories the tools may use")
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

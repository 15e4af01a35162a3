package cli

import (
	"github.com/spf13/cobra"

	transcript "github.com/mini-claude/mini-claude/internal/session"
)

// newCmdCost prints the usage and cost of a session of this directory, per
// model, from its transcript and its sub-agents' transcripts.
func newCmdCost(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "cost [session-id]",
		Short: "Show the tokens and cost of a session per model (default: the newest session of this directory)",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			project, err := f.Getwd()
			if err != nil {
				return &ExitError{Code: ExitUsage, Err: err}
			}
			var path, id string
			if len(args) == 1 {
				id = args[0]
				if path, err = transcript.Find(project, id); err != nil {
					return &ExitError{Code: ExitUsage, Err: err}
				}
			} else {
				newest, err := transcript.Newest(project)
				if err != nil {
					return &ExitError{Code: ExitUsage, Err: err}
				}
				path, id = newest.Path, newest.ID
			}
			costs, err := transcript.CostsOf(path, nil)
			if err != nil {
				return &ExitError{Code: ExitFailed, Err: err}
			}
			return costs.WriteReport(f.IO.Out, id)
		},
	}
}

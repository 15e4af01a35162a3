package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/mini-claude/mini-claude/internal/fleet"
)

// defaultNATS is the server the fleet commands use without --server or NATS_URL.
const defaultNATS = "nats://127.0.0.1:4222"

// newCmdFleet groups the commands that run tasks across workers through a
// NATS JetStream server.
func newCmdFleet(f *Factory) *cobra.Command {
	var server string
	cmd := &cobra.Command{
		Use:   "fleet",
		Short: "Run many tasks on many workers through NATS JetStream: submit, worker, status, results",
		Long: "A fleet runs agent tasks on any number of workers on any number of machines. Tasks are queued on a\n" +
			"NATS JetStream server (nats-server -js); each worker runs them as headless sessions and stores their\n" +
			"results there. A task whose worker dies is run again elsewhere and resumes from its transcript.\n" +
			"The model's key stays with each worker (its environment or settings); tasks never carry it.",
	}
	cmd.PersistentFlags().StringVar(&server, "server", "", "NATS server URL (default $NATS_URL, else "+defaultNATS+")")
	connect := func(ctx context.Context, name string) (*fleet.Fleet, error) {
		url := server
		if url == "" {
			url = f.Getenv("NATS_URL")
		}
		if url == "" {
			url = defaultNATS
		}
		fl, err := fleet.Connect(ctx, url, name)
		if err != nil {
			return nil, &ExitError{Code: ExitFailed, Err: err}
		}
		return fl, nil
	}
	cmd.AddCommand(newCmdFleetSubmit(f, connect), newCmdFleetWorker(f, connect), newCmdFleetStatus(f, connect), newCmdFleetResults(f, connect))
	return cmd
}

// fleetConnect connects to the fleet's server under a client name.
type fleetConnect func(ctx context.Context, name string) (*fleet.Fleet, error)

func newCmdFleetSubmit(f *Factory, connect fleetConnect) *cobra.Command {
	return &cobra.Command{
		Use:   "submit tasks.jsonl",
		Short: `Queue tasks, one JSON object a line ("-" reads standard input), and print their ids`,
		Long: "Each line is a task: {\"id\": \"…\", \"prompt\": \"…\", \"repo\": \"URL or path to clone\" or \"dir\": \"directory on the worker\",\n" +
			"\"model\": \"…\", \"allowedTools\": [\"…\"], \"maxTurns\": N}. A task id already queued or finished is not queued again.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			tasks, err := readTasks(f, args[0])
			if err != nil {
				return &ExitError{Code: ExitUsage, Err: err}
			}
			fl, err := connect(cmd.Context(), "mini-claude fleet submit")
			if err != nil {
				return err
			}
			defer fl.Close()
			subs, err := fl.Submit(cmd.Context(), tasks)
			for _, s := range subs {
				if s.Skipped != "" {
					fmt.Fprintf(f.IO.ErrOut, "%s: not queued: %s\n", s.ID, s.Skipped)
					continue
				}
				fmt.Fprintln(f.IO.Out, s.ID)
			}
			if err != nil {
				return &ExitError{Code: ExitFailed, Err: err}
			}
			return nil
		},
	}
}

// readTasks parses the task file at path, or standard input for "-".
func readTasks(f *Factory, path string) ([]fleet.Task, error) {
	var in io.Reader = f.IO.In
	if path != "-" {
		file, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer file.Close()
		in = file
	}
	tasks, err := fleet.ParseTasks(in)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return tasks, nil
}

func newCmdFleetWorker(f *Factory, connect fleetConnect) *cobra.Command {
	host, _ := os.Hostname()
	cfg := fleet.WorkerConfig{Name: host + "-" + strconv.Itoa(os.Getpid())}
	cmd := &cobra.Command{
		Use:   "worker",
		Short: "Pull tasks and run each as a headless session until SIGTERM or Ctrl-C",
		Long: "A worker runs each task in its directory (\"dir\") or in a clone of its repository (\"repo\") under\n" +
			"--work-root, as mini-claude -p --output-format json under a session id derived from the task id. It stores\n" +
			"the result (the JSON result, cost, usage and the git diff of the directory) and then acks the task.\n" +
			"On SIGTERM it stops pulling, lets running tasks finish for --grace, then interrupts and releases them.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			self, err := os.Executable()
			if err != nil {
				return &ExitError{Code: ExitFailed, Err: fmt.Errorf("find mini-claude's own binary: %w", err)}
			}
			cfg.Command, cfg.Log = []string{self}, f.IO.ErrOut
			fl, err := connect(cmd.Context(), "mini-claude fleet worker "+cfg.Name)
			if err != nil {
				return err
			}
			defer fl.Close()
			if err := fl.Work(cmd.Context(), cfg); err != nil {
				return &ExitError{Code: ExitFailed, Err: err}
			}
			return nil
		},
	}
	fl := cmd.Flags()
	fl.IntVar(&cfg.Concurrency, "concurrency", 1, "Tasks to run at once")
	fl.StringVar(&cfg.Name, "name", cfg.Name, "This worker's name in the tasks' states")
	fl.DurationVar(&cfg.AckWait, "ack-wait", time.Minute, "Deliver a task again when its worker gives no sign of life for this long")
	fl.IntVar(&cfg.MaxDeliver, "max-deliver", 3, "Deliveries of a task before it is parked as failed")
	fl.DurationVar(&cfg.Grace, "grace", 30*time.Second, "On SIGTERM, how long running tasks may finish before they are released")
	fl.StringVar(&cfg.WorkRoot, "work-root", filepath.Join(os.TempDir(), "mini-claude-fleet"), "Folder of the clones of the tasks that name a repository")
	return cmd
}

func newCmdFleetStatus(f *Factory, connect fleetConnect) *cobra.Command {
	return &cobra.Command{
		Use:   "status",
		Short: "Count the tasks pending, running, done and failed; list the running ones with their workers, and the failures",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			fl, err := connect(cmd.Context(), "mini-claude fleet status")
			if err != nil {
				return err
			}
			defer fl.Close()
			sum, err := fl.Status(cmd.Context())
			if err != nil {
				return &ExitError{Code: ExitFailed, Err: err}
			}
			return fleet.WriteStatus(f.IO.Out, sum, time.Now())
		},
	}
}

func newCmdFleetResults(f *Factory, connect fleetConnect) *cobra.Command {
	var wait bool
	cmd := &cobra.Command{
		Use:   "results",
		Short: "Print the tasks' results, one JSON object a line",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			fl, err := connect(cmd.Context(), "mini-claude fleet results")
			if err != nil {
				return err
			}
			defer fl.Close()
			if wait {
				if err := fl.WaitFinished(cmd.Context()); err != nil {
					return &ExitError{Code: ExitFailed, Err: err}
				}
			}
			if err := fl.WriteResults(cmd.Context(), f.IO.Out); err != nil {
				return &ExitError{Code: ExitFailed, Err: err}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&wait, "wait", false, "Wait until every submitted task is done or failed")
	return cmd
}

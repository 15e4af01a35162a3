package cli

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/mini-claude/mini-claude/internal/config"
	"github.com/mini-claude/mini-claude/internal/mcp"
	"github.com/mini-claude/mini-claude/internal/trust"
)

// DefaultMCPWait is how long the first request of a headless run waits for MCP
// servers still connecting: long enough for a quick server's tools to be in
// the first request, short enough that slow servers do not delay it. Servers
// that connect later join from the next request on.
const DefaultMCPWait = 300 * time.Millisecond

func addMCPFlags(fl *pflag.FlagSet, opts *Options) {
	fl.StringArrayVar(&opts.MCPConfig, "mcp-config", nil, `MCP servers from a JSON file or string ({"mcpServers": {...}}); repeat for several`)
	fl.BoolVar(&opts.StrictMCPConfig, "strict-mcp-config", false, "Use only the MCP servers of --mcp-config, ignoring .mcp.json and the settings files")
}

// loadMCPServers reads the MCP servers of the settings files, the project's
// .mcp.json and --mcp-config, the project's passing screen; broken sources are
// reported on errOut and skipped.
func loadMCPServers(opts *Options, files []config.File, cwd string, getenv func(string) string,
	screen func(mcp.Candidate) mcp.Verdict, errOut io.Writer) []mcp.Server {
	src := mcp.Sources{ProjectDir: cwd, Flags: opts.MCPConfig, Strict: opts.StrictMCPConfig, Getenv: getenv, Screen: screen}
	for _, file := range files {
		if len(file.MCPServers) > 0 {
			src.Settings = append(src.Settings, mcp.SettingsServers{Path: file.Path, Source: settingsSource[file.Scope], Raw: file.MCPServers})
		}
	}
	servers, errs := mcp.Load(src)
	for _, err := range errs {
		fmt.Fprintf(errOut, "Warning: %v\n", err)
	}
	return servers
}

// settingsSource names where a settings file's servers come from, as Claude
// Code's scopes do, by the file's scope: never by its path, which in the home
// folder or at / tells a user's file from a project's wrongly. A file of no
// known scope is the project's.
var settingsSource = map[string]string{
	config.ScopeUser:    mcp.SourceUser,
	config.ScopeProject: mcp.SourceProject,
	config.ScopeLocal:   mcp.SourceLocal,
	"":                  mcp.SourceProject,
}

// mcpWait is how long the first request waits for servers: MINI_CLAUDE_MCP_WAIT_MS,
// or none with Claude Code's MCP_CONNECTION_NONBLOCKING=1, else DefaultMCPWait.
func mcpWait(getenv func(string) string) time.Duration {
	if ms, err := strconv.Atoi(getenv("MINI_CLAUDE_MCP_WAIT_MS")); err == nil && ms >= 0 {
		return time.Duration(ms) * time.Millisecond
	}
	if v := getenv("MCP_CONNECTION_NONBLOCKING"); v == "1" || v == "true" {
		return 0
	}
	return DefaultMCPWait
}

// reportFailedServers tells the user on errOut which servers could not be used, and why.
func reportFailedServers(m *mcp.Manager, errOut io.Writer) {
	for _, st := range m.Statuses() {
		if st.State == mcp.Failed {
			fmt.Fprintf(errOut, "Warning: %s\n", serverFailure(st))
		}
	}
}

// serverFailure tells, in both modes, which server failed and why, and what
// it means for its tools.
func serverFailure(st mcp.Status) string {
	if st.Lost {
		return fmt.Sprintf("MCP server %q failed: %s; its tools are no longer available", st.Name, st.Problem)
	}
	return fmt.Sprintf("MCP server %q failed: %s; its tools are not available (mini-claude mcp list shows the servers)", st.Name, st.Problem)
}

// mcpServerEvent is one entry of the init event's mcp_servers.
type mcpServerEvent struct {
	Name   string `json:"name"`
	Status string `json:"status"`
	Source string `json:"source,omitempty"`
}

func mcpServerEvents(m *mcp.Manager) []mcpServerEvent {
	events := []mcpServerEvent{}
	for _, st := range m.Statuses() {
		events = append(events, mcpServerEvent{Name: st.Name, Status: string(st.State), Source: st.Source})
	}
	return events
}

// newCmdMCP groups the MCP commands.
func newCmdMCP(f *Factory) *cobra.Command {
	cmd := &cobra.Command{Use: "mcp", Short: "Inspect the configured MCP servers and approve the project's", Args: cobra.NoArgs}
	cmd.AddCommand(newCmdMCPList(f), newCmdMCPApprove(f))
	return cmd
}

// newCmdMCPList connects to every configured server that may start, as a
// session would, and reports each one's status and tool count; the project's
// servers awaiting approval are listed and never started.
func newCmdMCPList(f *Factory) *cobra.Command {
	opts := &Options{}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "Connect to each configured MCP server and show its status and number of tools",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cwd, err := f.Getwd()
			if err != nil {
				return &ExitError{Code: ExitUsage, Err: fmt.Errorf("find the working directory: %w", err)}
			}
			fo := loadFolder(cwd, opts.Trust, f.IO.ErrOut)
			servers := loadMCPServers(opts, fo.files, cwd, f.Getenv, fo.screenServer, f.IO.ErrOut)
			fmt.Fprint(f.IO.ErrOut, fo.gate.Notice(cwd))
			if n := fo.ignoredServers(); len(servers) == 0 && n > 0 {
				_, err := fmt.Fprintf(f.IO.Out, "No MCP server starts here: the %d this folder defines are ignored until you trust it (mini-claude trust).\n", n)
				return err
			}
			if len(servers) == 0 {
				_, err := fmt.Fprintf(f.IO.Out, "No MCP servers configured. Add them to %s, the mcpServers of a settings file, or --mcp-config.\n", filepath.Join(cwd, mcp.ProjectFile))
				return err
			}
			return listMCPServers(cmd.Context(), f.IO.Out, fo, servers, mcpLimits(f.Getenv, config.PassEnv(fo.files)))
		},
	}
	addMCPFlags(cmd.Flags(), opts)
	addTrustFlag(cmd.Flags(), opts)
	return cmd
}

// mcpLimits are the limits of the session's MCP servers: Claude Code's
// variables for time and size, and the credentials the user's settings pass.
func mcpLimits(getenv func(string) string, passEnv []string) mcp.Limits {
	limits := mcp.LimitsFromEnv(getenv)
	limits.PassEnv = passEnv
	return limits
}

func listMCPServers(ctx context.Context, out io.Writer, fo *folder, servers []mcp.Server, limits mcp.Limits) error {
	startable := slices.DeleteFunc(slices.Clone(servers), func(s mcp.Server) bool { return s.Held })
	m := mcp.Start(startable, limits)
	defer m.Close()
	longest := limits.StartupTimeout
	for _, s := range startable {
		longest = max(longest, s.Timeout)
	}
	m.Wait(ctx, longest+time.Second)
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "NAME\tSOURCE\tTYPE\tSTATUS\tTOOLS\tDETAIL")
	for i, st := range m.Statuses() {
		detail := st.Problem
		if st.State == mcp.Connected && detail == "" {
			detail = target(startable[i])
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%d\t%s\n", oneLine(st.Name), oneLine(st.Source), oneLine(st.Type), st.State, st.Tools, oneLine(detail))
	}
	for _, s := range servers {
		if s.Held {
			status := "needs approval"
			if a, _ := fo.store.ServerApproval(fo.cwd, s.Name, s.Fingerprint); a == trust.Changed {
				status = "changed, needs approval"
			}
			detail := oneLine(s.Describe())
			if refs := s.References(); len(refs) > 0 {
				detail += "; receives " + strings.Join(refs, ", ")
			}
			fmt.Fprintf(w, "%s\t%s\t%s\t%s\t-\t%s (mini-claude mcp approve %s)\n", oneLine(s.Name), oneLine(s.Source), oneLine(s.Type), status, detail, oneLine(s.Name))
		}
	}
	return w.Flush()
}

// target is what a server runs or connects to.
func target(s mcp.Server) string {
	if s.Type != mcp.TransportStdio {
		return s.URL
	}
	return strings.Join(append([]string{s.Command}, s.Args...), " ")
}

// oneLine shows text a configuration holds on one line, every character
// that could redraw the terminal made visible (trust.Visible).
func oneLine(s string) string {
	return trust.Visible(strings.Join(strings.Fields(s), " "))
}

// mcpFinding is the doctor's line about MCP: the servers configured here, or
// why their configuration cannot be used; `mcp list` connects to them.
func mcpFinding(f *Factory, cwd string) finding {
	fo := loadFolder(cwd, false, io.Discard)
	servers := loadMCPServers(&Options{}, fo.files, cwd, f.Getenv, fo.screenServer, io.Discard)
	if ignored := fo.ignoredServers(); len(servers) == 0 && ignored > 0 {
		return finding{name: "MCP servers", value: fmt.Sprintf("%d defined by this folder, ignored until you trust it (`mini-claude trust`)", ignored), note: true}
	}
	if len(servers) == 0 {
		return finding{name: "MCP servers", value: "none configured"}
	}
	var names, problems []string
	for _, s := range servers {
		name := oneLine(s.Name)
		names = append(names, name)
		switch {
		case s.Problem != "":
			problems = append(problems, name+": "+oneLine(s.Problem))
		case s.Held:
			problems = append(problems, name+": awaiting your approval (`mini-claude mcp approve "+name+"`)")
		}
	}
	if len(problems) > 0 {
		return finding{name: "MCP servers", value: strings.Join(problems, "; "), note: true}
	}
	return finding{name: "MCP servers", value: fmt.Sprintf("%d configured (%s); run `mini-claude mcp list` to connect to them", len(servers), strings.Join(names, ", "))}
}

package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/mini-claude/mini-claude/internal/config"
	"github.com/mini-claude/mini-claude/internal/credentials"
	"github.com/mini-claude/mini-claude/internal/mcp"
	"github.com/mini-claude/mini-claude/internal/permission"
	"github.com/mini-claude/mini-claude/internal/trust"
	"github.com/mini-claude/mini-claude/internal/tui"
)

func addTrustFlag(fl *pflag.FlagSet, opts *Options) {
	fl.BoolVar(&opts.Trust, "trust", false, "Trust the working folder for this run only: its settings, tools, agent types, commands, skills and (approved) MCP servers take effect")
}

// trustOptions are the flags of `mini-claude trust`.
type trustOptions struct {
	list   bool
	revoke bool
	force  bool
}

// newCmdTrust records, lists and revokes the user's trust in folders.
func newCmdTrust(f *Factory) *cobra.Command {
	opts := &trustOptions{}
	cmd := &cobra.Command{
		Use:   "trust [folder]",
		Short: "Trust a folder (default: this one), so that what its own files define takes effect; --list, --revoke",
		Long: "A folder's own files (.mcp.json, .claude/ and .mini-claude/ settings, agent types, commands, skills) may only narrow what\n" +
			"mini-claude does until you trust the folder: allow rules, modes, directories, tools, providers and MCP servers\n" +
			"from them are ignored. Trusting a folder trusts the folders inside it. Project MCP servers still need\n" +
			"approval each: mini-claude mcp approve NAME.",
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return trustRun(f, opts, args)
		},
	}
	cmd.Flags().BoolVar(&opts.list, "list", false, "List the folders you trusted or refused, and the servers you approved in each")
	cmd.Flags().BoolVar(&opts.revoke, "revoke", false, "Forget the folder: its trust and its approved servers")
	cmd.Flags().BoolVar(&opts.force, "force", false, "Trust even the root, your home folder or a folder above it, which covers every project inside")
	return cmd
}

func trustRun(f *Factory, opts *trustOptions, args []string) error {
	if opts.list && (opts.revoke || len(args) > 0) {
		return usageError("--list takes no folder and no --revoke")
	}
	cwd, err := f.Getwd()
	if err != nil {
		return &ExitError{Code: ExitUsage, Err: fmt.Errorf("find the working directory: %w", err)}
	}
	dir := cwd
	if len(args) == 1 {
		dir = args[0]
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(cwd, dir)
		}
	}
	dir = trust.Canonical(dir)
	store := trust.Open(config.Home())
	switch {
	case opts.list:
		return listTrust(f, store)
	case opts.revoke:
		found, err := store.Revoke(dir)
		if err != nil {
			return &ExitError{Code: ExitFailed, Err: err}
		}
		return reportRevoke(f, store, dir, found)
	}
	if home, _ := os.UserHomeDir(); trust.Broad(dir, home) && !opts.force {
		return usageError("%s holds your home folder or is the root: trusting it trusts every project inside, cloned ones too; "+
			"trust the project's own folder, or pass --force if you mean it", dir)
	}
	if err := store.Decide(dir, true); err != nil {
		return &ExitError{Code: ExitFailed, Err: err}
	}
	fmt.Fprintf(f.IO.Out, "Trusted %s (recorded in %s).\n", dir, store.Path())
	fo := loadFolder(dir, false, f.IO.ErrOut)
	servers := loadMCPServers(&Options{}, fo.files, dir, f.Getenv, fo.screenServer, f.IO.ErrOut)
	if held := slices.DeleteFunc(servers, func(s mcp.Server) bool { return !s.Held }); len(held) > 0 {
		fmt.Fprintf(f.IO.Out, "Its MCP servers still need your approval each; run `mini-claude mcp approve NAME` in it for: %s.\n", serverNames(held))
	}
	return nil
}

// reportRevoke says what revoking dir did, and whether the folder is still
// trusted through a parent, which revoking dir alone cannot change.
func reportRevoke(f *Factory, store *trust.Store, dir string, found bool) error {
	if found {
		fmt.Fprintf(f.IO.Out, "Revoked %s: it is no longer in the trust record.\n", dir)
	} else {
		fmt.Fprintf(f.IO.Out, "%s was not in the trust record (%s).\n", dir, store.Path())
	}
	if by := store.DecidedBy(dir); by != "" {
		if st, _ := store.Folder(dir); st == trust.Trusted {
			fmt.Fprintf(f.IO.Out, "It is still trusted, through %s; run `mini-claude trust --revoke %s` to change that.\n", by, by)
			return nil
		}
	}
	fmt.Fprintln(f.IO.Out, "Its own settings, tools, agent types, commands, skills and MCP servers no longer take effect.")
	return nil
}

func listTrust(f *Factory, store *trust.Store) error {
	entries, err := store.List()
	if err != nil {
		return &ExitError{Code: ExitFailed, Err: err}
	}
	if len(entries) == 0 {
		fmt.Fprintf(f.IO.Out, "No folder is trusted yet (%s). Trust one with `mini-claude trust [folder]`.\n", store.Path())
		return nil
	}
	w := tabwriter.NewWriter(f.IO.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "FOLDER\tSTATE\tSINCE\tAPPROVED MCP SERVERS")
	for _, e := range entries {
		state := map[trust.State]string{trust.Trusted: "trusted", trust.Refused: "refused", trust.Unknown: "-"}[e.State]
		servers := strings.Join(e.Servers, ", ")
		if servers == "" {
			servers = "-"
		}
		at := e.At
		if at == "" {
			at = "-"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", e.Dir, state, at, servers)
	}
	return w.Flush()
}

func serverNames(servers []mcp.Server) string {
	names := make([]string, len(servers))
	for i, s := range servers {
		names[i] = oneLine(s.Name)
	}
	return strings.Join(names, ", ")
}

// newCmdMCPApprove approves project MCP servers of the working folder, in
// the configuration they have now.
func newCmdMCPApprove(f *Factory) *cobra.Command {
	all := false
	cmd := &cobra.Command{
		Use:   "approve [name...]",
		Short: "Approve this folder's project MCP servers (from .mcp.json or its settings) so that they start; --all for every one",
		RunE: func(cmd *cobra.Command, names []string) error {
			if all == (len(names) > 0) {
				return usageError("name the servers to approve, or pass --all")
			}
			cwd, err := f.Getwd()
			if err != nil {
				return &ExitError{Code: ExitUsage, Err: fmt.Errorf("find the working directory: %w", err)}
			}
			return approveServers(f, cwd, names)
		},
	}
	cmd.Flags().BoolVar(&all, "all", false, "Approve every project server of this folder")
	return cmd
}

func approveServers(f *Factory, cwd string, names []string) error {
	fo := loadFolder(cwd, false, f.IO.ErrOut)
	if !fo.gate.Trusted() {
		return &ExitError{Code: ExitFailed, Err: fmt.Errorf("this folder is not trusted, so its MCP servers cannot start; trust it first with `mini-claude trust`")}
	}
	asWritten := func(c mcp.Candidate) mcp.Verdict { return mcp.Hold }
	var project []mcp.Server
	for _, s := range loadMCPServers(&Options{}, fo.files, cwd, f.Getenv, asWritten, f.IO.ErrOut) {
		if s.Source == mcp.SourceProject || s.Source == mcp.SourceLocal {
			project = append(project, s)
		}
	}
	for _, name := range names {
		if !slices.ContainsFunc(project, func(s mcp.Server) bool { return s.Name == name }) {
			return usageError("%q is not a project MCP server of this folder; its project servers are: %s", name, serverNames(project))
		}
	}
	for _, s := range project {
		if len(names) > 0 && !slices.Contains(names, s.Name) {
			continue
		}
		if err := fo.store.ApproveServer(cwd, s.Name, s.Fingerprint); err != nil {
			return &ExitError{Code: ExitFailed, Err: err}
		}
		fmt.Fprintf(f.IO.Out, "Approved %s (%s); a change to its configuration will need approval again.\n", oneLine(s.Name), oneLine(s.Describe()))
	}
	return nil
}

// settleTrust puts the folder's questions to the user before anything it
// defines loads: whether to trust it, when they have not answered yet and it
// defines something; then, in a trusted folder, whether to start each project
// MCP server awaiting approval. The answers go to the trust record, where the
// session built next finds them (or into opts.Trust when the record cannot
// be written).
func settleTrust(ctx context.Context, f *Factory, opts *Options) error {
	s, err := newSession(f, opts, io.Discard)
	if err != nil {
		return err
	}
	if items := folderItems(s.gate.Held()); s.trustState == trust.Unknown && !opts.Trust && len(items) > 0 {
		yes, err := askTrust(ctx, s, items)
		if err != nil {
			return err
		}
		if err := recordAnswer(s, yes); err != nil {
			fmt.Fprintf(f.IO.ErrOut, "Warning: your answer holds for this run only: %v\n", err)
			opts.Trust = yes
		}
		if !yes {
			return nil
		}
		if s, err = newSession(f, opts, io.Discard); err != nil {
			return err
		}
	}
	if !s.gate.Trusted() {
		return nil
	}
	for _, server := range s.heldServers {
		answer, err := askServer(ctx, s, server)
		if errors.Is(err, tui.ErrNoAnswer) {
			return nil
		}
		if err != nil {
			return err
		}
		if answer != 0 {
			continue
		}
		if err := s.store.ApproveServer(s.cwd, server.Name, server.Fingerprint); err != nil {
			return &ExitError{Code: ExitFailed, Err: err}
		}
	}
	return nil
}

// recordAnswer keeps the answer to the trust question; a yes for the root,
// the home folder or a folder above it is not kept, since it would cover
// every project inside.
func recordAnswer(s *session, yes bool) error {
	if home, _ := os.UserHomeDir(); yes && trust.Broad(s.cwd, home) {
		return fmt.Errorf("%s holds your home folder, so trusting it is not recorded", s.cwd)
	}
	return s.store.Decide(s.cwd, yes)
}

// askServer asks whether to start a project MCP server and returns the answer:
// 0 approves, 1 (the default) does not; tui.ErrNoAnswer leaves it and the next ones.
func askServer(ctx context.Context, s *session, server mcp.Server) (int, error) {
	answer, err := tui.Ask(ctx, tui.Question{
		Title:   fmt.Sprintf("Start the MCP server %q of this folder?", server.Name),
		Lines:   serverLines(s, server),
		Answers: []string{"Yes, approve it (asked again if its configuration changes)", "No, not this time"},
		Default: 1,
	})
	return answer, err
}

// askTrust asks whether to trust the folder, listing what it defines; No is
// the default, and leaving the question ends the run.
func askTrust(ctx context.Context, s *session, items []trust.Item) (bool, error) {
	lines := []string{oneLine(s.cwd), "", "Its own files define things that run programs, widen permissions or redirect traffic:"}
	lines = append(lines, itemLines(s.cwd, items, maxTrustItems)...)
	lines = append(lines, "", "Trust it only if you wrote these files or know who did; trusting it also trusts the folders inside it. "+
		"Without trust they are ignored; its deny and ask rules apply either way. MCP servers are asked about one by one even then.")
	if home, _ := os.UserHomeDir(); trust.Broad(s.cwd, home) {
		lines = append(lines, "This folder holds your home folder: a yes holds for this session only.")
	}
	answer, err := tui.Ask(ctx, tui.Question{
		Title:   "Do you trust the files in this folder?",
		Lines:   lines,
		Answers: []string{"Yes, I trust this folder", "No, continue without what it defines"},
		Default: 1,
	})
	if errors.Is(err, tui.ErrNoAnswer) {
		return false, &ExitError{Code: ExitFailed, Err: errors.New("the trust question was left without an answer; nothing was started")}
	}
	return answer == 0, err
}

// serverLines describe a held server for its question: what it runs or
// reaches, where it is configured, and which of the user's variables it reads.
func serverLines(s *session, server mcp.Server) []string {
	lines := []string{"It runs as you, with your files and network: " + oneLine(server.Describe()),
		"From the " + server.Source + " configuration of " + oneLine(s.cwd) + "."}
	var secrets, others []string
	for _, name := range server.References() {
		if credentials.IsSecretName(name) {
			secrets = append(secrets, name)
		} else {
			others = append(others, name)
		}
	}
	if len(secrets) > 0 {
		lines = append(lines, "It would receive these credentials of yours: "+strings.Join(secrets, ", ")+".")
	}
	if loaders := loaderVariables(server.Env); len(loaders) > 0 {
		lines = append(lines, "Careful: it sets "+strings.Join(loaders, ", ")+", which make the program load code of the folder's choosing.")
	}
	if len(others) > 0 {
		lines = append(lines, "It would receive these variables of yours: "+strings.Join(others, ", ")+".")
	}
	return lines
}

// codeLoaders are environment variables that make a program load or run
// other code than its own: a server started with one of them set by the
// folder runs the folder's code, whatever its command line says.
var codeLoaders = []string{"BASH_ENV", "DYLD_INSERT_LIBRARIES", "DYLD_LIBRARY_PATH", "ENV", "JAVA_TOOL_OPTIONS", "LD_LIBRARY_PATH",
	"LD_PRELOAD", "NODE_OPTIONS", "NODE_PATH", "PATH", "PERL5LIB", "PERL5OPT", "PYTHONPATH", "PYTHONSTARTUP", "RUBYLIB", "RUBYOPT"}

// loaderVariables returns the code-loading variables env sets, sorted.
func loaderVariables(env map[string]string) []string {
	var found []string
	for name := range env {
		if slices.Contains(codeLoaders, name) {
			found = append(found, name)
		}
	}
	slices.Sort(found)
	return found
}

// maxTrustItems is how many items the trust question lists one by one.
const maxTrustItems = 12

// dangerOrder ranks the kinds of items, those that run programs first, so
// that what matters most is listed before the list is cut. A kind it does not
// name comes first: nothing says it is harmless.
var dangerOrder = []string{trust.KindMCPServer, trust.KindHook, trust.KindTool, trust.KindAllowRule, trust.KindMode,
	trust.KindDirectory, trust.KindProvider, trust.KindModel, trust.KindAgentType, trust.KindSkill, trust.KindCommand}

// itemLines lists the items of the folder cwd most dangerous first: in the
// order of dangerOrder, but for the allow rules that grant neither a whole
// tool nor commands by a wildcard, which come last. It lists at most max of
// them, each file named relative to cwd, then how many more there are of
// each kind.
func itemLines(cwd string, items []trust.Item, max int) []string {
	rank := func(it trust.Item) int {
		if it.Kind == trust.KindAllowRule && !grantsWide(it.Name) {
			return len(dangerOrder)
		}
		return slices.Index(dangerOrder, it.Kind)
	}
	sorted := slices.Clone(items)
	slices.SortStableFunc(sorted, func(a, b trust.Item) int { return rank(a) - rank(b) })
	var lines []string
	for i, it := range sorted {
		if i == max {
			more := map[string]int{}
			for _, rest := range sorted[max:] {
				more[rest.Kind]++
			}
			var counts []string
			for _, kind := range dangerOrder {
				if more[kind] > 0 {
					counts = append(counts, fmt.Sprintf("%s: %d", kind, more[kind]))
				}
			}
			return append(lines, fmt.Sprintf("  • and %d more (%s)", len(sorted)-max, strings.Join(counts, ", ")))
		}
		if rel, err := filepath.Rel(cwd, it.Source); err == nil && filepath.IsLocal(rel) {
			it.Source = rel
		}
		lines = append(lines, "  • "+it.String())
	}
	return lines
}

// grantsWide reports whether an allow rule grants a whole tool ("Bash",
// "Read(*)", "mcp__server") or shell commands by a wildcard ("Bash(sh:*)"),
// with which a folder can run what it likes.
func grantsWide(rule string) bool {
	r, err := permission.ParseRule(rule, "")
	return err == nil && (r.Content == "" || r.Tool == "Bash" && strings.Contains(r.Content, "*"))
}

// folderItems are the held items that trusting the folder would admit.
func folderItems(held []trust.Item) []trust.Item {
	return slices.DeleteFunc(held, func(it trust.Item) bool { return it.Never })
}

// trustFinding is the doctor's line about the working folder: trusted or
// not, and how many things its own files define that are ignored for it —
// settings, agent types and servers alike, as a session would count them.
func trustFinding(f *Factory) finding {
	s, err := newSession(f, &Options{}, io.Discard)
	if err != nil {
		return finding{name: "Folder trust", value: "not checked: " + err.Error(), note: true}
	}
	ignored := len(folderItems(s.gate.Held()))
	switch {
	case s.gate.Trusted():
		by := s.store.DecidedBy(s.cwd)
		return finding{name: "Folder trust", value: fmt.Sprintf("trusted (through %s): its own settings, tools, agent types, commands and skills apply; `mini-claude trust --revoke %s` to undo", by, by)}
	case ignored > 0:
		return finding{name: "Folder trust", value: fmt.Sprintf("not trusted: %d thing(s) its files define are ignored; `mini-claude trust` if you trust it", ignored), note: true}
	}
	return finding{name: "Folder trust", value: "not trusted; its files define nothing that needs trust"}
}

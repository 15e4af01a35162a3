package cli

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/mini-claude/mini-claude/internal/config"
	"github.com/mini-claude/mini-claude/internal/credentials"
	"github.com/mini-claude/mini-claude/internal/shell"
)

// finding is one line of the doctor's report; a problem is something a run
// needs, a note something that works less well than it could.
type finding struct {
	name, value   string
	problem, note bool
}

// newCmdDoctor reports what mini-claude finds about the machine: the facts a
// failing run most often comes down to, each checked in milliseconds.
func newCmdDoctor(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "doctor",
		Short: "Check the installation: bash, the sandbox, the per-user folder, credentials",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			findings := diagnose(cmd.Context(), f)
			w := tabwriter.NewWriter(f.IO.Out, 0, 4, 2, ' ', 0)
			problems := 0
			for _, d := range findings {
				mark := "ok"
				switch {
				case d.problem:
					mark, problems = "PROBLEM", problems+1
				case d.note:
					mark = "note"
				}
				fmt.Fprintf(w, "%s\t%s\t%s\n", d.name, mark, d.value)
			}
			if err := w.Flush(); err != nil {
				return err
			}
			if problems > 0 {
				return &ExitError{Code: ExitFailed, Err: fmt.Errorf("%d problem(s) found; see the lines marked PROBLEM", problems)}
			}
			return nil
		},
	}
}

func diagnose(ctx context.Context, f *Factory) []finding {
	cwd, err := f.Getwd()
	mcpServers := finding{name: "MCP servers", value: "not checked: the working directory is unknown", note: true}
	folderTrust := finding{name: "Folder trust", value: "not checked: the working directory is unknown", note: true}
	if err != nil {
		cwd = "unknown: " + err.Error()
	} else {
		mcpServers, folderTrust = mcpFinding(f, cwd), trustFinding(f)
	}
	return []finding{
		{name: "Platform", value: platform()},
		{name: "Working directory", value: cwd},
		folderTrust,
		bashFinding(ctx),
		sandboxFinding(),
		homeFinding(),
		credentialsFinding(f.Getenv),
		toolFinding("ripgrep", "rg", "the Grep tool needs it"),
		toolFinding("git", "git", "git context in the system prompt needs it"),
		mcpServers,
	}
}

func platform() string {
	p := runtime.GOOS + "/" + runtime.GOARCH + ", " + runtime.Version()
	if release, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		p += ", kernel " + strings.TrimSpace(string(release))
	}
	return p
}

func bashFinding(ctx context.Context) finding {
	path, err := exec.LookPath("bash")
	if err != nil {
		return finding{name: "bash", value: "not found on PATH: the Bash tool cannot run commands; install bash", problem: true}
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	probe := exec.CommandContext(ctx, path, "-c", `echo "$BASH_VERSION"`)
	probe.Env = credentials.ChildEnv(os.Environ(), nil)
	out, err := probe.Output()
	if err != nil {
		return finding{name: "bash", value: path + " does not run: " + err.Error(), problem: true}
	}
	return finding{name: "bash", value: path + " " + strings.TrimSpace(string(out))}
}

// sandboxFinding reports the write sandbox; its absence is a fact, not a
// problem: commands still run, without the restriction.
func sandboxFinding() finding {
	status := shell.ProbeSandbox()
	if !status.Available() {
		return finding{name: "Sandbox", value: status.String() + "; Bash commands run without a sandbox", note: true}
	}
	return finding{name: "Sandbox", value: status.String()}
}

func homeFinding() finding {
	home := config.Home()
	if home == "" {
		return finding{name: "Per-user folder", value: "no home directory: set " + config.HomeEnv, problem: true}
	}
	if err := os.MkdirAll(home, 0o700); err != nil {
		return finding{name: "Per-user folder", value: home + " cannot be created: " + err.Error(), problem: true}
	}
	probe, err := os.CreateTemp(home, ".doctor-*")
	if err != nil {
		return finding{name: "Per-user folder", value: home + " is not writable: " + err.Error(), problem: true}
	}
	probe.Close()
	os.Remove(probe.Name())
	return finding{name: "Per-user folder", value: home + " (writable)"}
}

func credentialsFinding(getenv func(string) string) finding {
	anthropicKey, _ := lookupProvider("anthropic")
	openaiKey, _ := lookupProvider("openai")
	stored, _ := credentials.Load(config.Home())
	file := filepath.Join(config.Home(), credentials.FileName)
	var parts []string
	for _, key := range []struct {
		source, saved, name string
	}{
		{keySource(anthropicKey, getenv), stored.AnthropicAPIKey, "an Anthropic API key"},
		{keySource(openaiKey, getenv), stored.OpenAIAPIKey, "an OpenAI API key"},
	} {
		switch {
		case key.source != "none":
			parts = append(parts, key.source+" is set")
		case key.saved != "":
			parts = append(parts, key.name+" is saved in "+file)
		}
	}
	if len(parts) == 0 {
		return finding{name: "Credentials", problem: true,
			value: "none: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN), or OPENAI_API_KEY, or use a local server (--model ollama/<model>); mini-claude without -p offers to save a key"}
	}
	for _, name := range []string{"ANTHROPIC_BASE_URL", "OPENAI_BASE_URL"} {
		if url := getenv(name); url != "" {
			parts = append(parts, name+"="+url)
		}
	}
	return finding{name: "Credentials", value: strings.Join(parts, ", ")}
}

func toolFinding(name, program, why string) finding {
	path, err := exec.LookPath(program)
	if err != nil {
		return finding{name: name, value: "not found on PATH (" + why + ")", note: true}
	}
	return finding{name: name, value: path}
}

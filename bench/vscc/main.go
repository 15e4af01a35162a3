// Command vscc runs the same scripted tasks with Claude Code and with
// mini-claude, alternately (A B A B …), against the project's scripted model
// server, and reports per scenario the medians and the pair-by-pair ratio
// mini-claude / Claude Code of: process start to first request, wall time,
// user+sys CPU, peak RSS of the process tree, and bytes sent to the model. It
// prints a markdown table and, with -update, replaces the section between
// the vs-claude-code markers of BENCHMARKS.md.
//
//	go run ./bench/vscc [-pairs 10] [-claude path/to/claude] [-bin path/to/mini-claude] [-update BENCHMARKS.md]
//
// Without -claude (or $MINI_CLAUDE_BENCH_CLAUDE) it installs
// @anthropic-ai/claude-code at the pinned version with npm into
// ~/.cache/mini-claude-bench unless it is there already.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

const (
	claudeCodeVersion = "2.1.332"
	toolList          = "Bash,Edit,Read"
	toolListGrep      = "Bash,Edit,Grep,Read"
	model             = "claude-sonnet-4-5-20250929"
)

// options are the command's flags.
type options struct {
	pairs  int
	claude string
	cache  string
	bin    string
	update string
	only   string
}

func main() {
	var o options
	flag.IntVar(&o.pairs, "pairs", 10, "measured pairs per scenario, after one warm-up pair")
	flag.StringVar(&o.claude, "claude", os.Getenv("MINI_CLAUDE_BENCH_CLAUDE"), "an installed Claude Code executable (default: install into -cache)")
	flag.StringVar(&o.cache, "cache", defaultCache(), "folder Claude Code is installed into when -claude is not given")
	flag.StringVar(&o.bin, "bin", "", "mini-claude binary (default: build ./cmd/mini-claude with CGO_ENABLED=0)")
	flag.StringVar(&o.update, "update", "", "markdown file whose vs-claude-code section is replaced with the results (such as BENCHMARKS.md)")
	flag.StringVar(&o.only, "only", "", "run only the scenarios whose number is listed, such as 1,3")
	flag.Parse()
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "vscc:", err)
		os.Exit(1)
	}
}

func defaultCache() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return filepath.Join(os.TempDir(), "mini-claude-bench")
	}
	return filepath.Join(dir, "mini-claude-bench")
}

func run(o options) error {
	scratch, err := os.MkdirTemp("", "vscc")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	claude, err := claudeCode(o)
	if err != nil {
		return err
	}
	bin, err := miniClaude(o.bin, scratch)
	if err != nil {
		return err
	}
	grep, err := hasGrep(bin)
	if err != nil {
		return err
	}
	env := []string{"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_TELEMETRY=1", "DISABLE_AUTOUPDATER=1"}
	agents := [2]agent{{name: "Claude Code", bin: claude, env: env}, {name: "mini-claude", bin: bin}}
	rep := report{pairs: o.pairs, grep: grep, started: time.Now(), load: loadAverage()}
	if rep.versions, err = versions(claude, bin); err != nil {
		return err
	}
	for i, sc := range scenarios(grep) {
		if o.only != "" && !strings.Contains(","+o.only+",", fmt.Sprintf(",%d,", i+1)) {
			continue
		}
		res, err := runScenario(sc, agents, filepath.Join(scratch, fmt.Sprintf("s%d", i+1)), o.pairs, grep)
		if err != nil {
			return fmt.Errorf("scenario %q: %w", sc.name, err)
		}
		res.number = i + 1
		rep.results = append(rep.results, res)
	}
	table := rep.markdown()
	fmt.Print(table + "\n" + rep.goalTable())
	if o.update != "" {
		return updateSection(o.update, rep.section(table))
	}
	return nil
}

// result is one scenario's samples, pair by pair: [pair][0] Claude Code, [pair][1] mini-claude.
type result struct {
	sc     scenario
	number int
	pairs  [][2]sample
}

func runScenario(sc scenario, agents [2]agent, root string, pairs int, grep bool) (result, error) {
	dir := filepath.Join(root, "work")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return result{}, err
	}
	if err := sc.setup(dir); err != nil {
		return result{}, fmt.Errorf("set up files: %w", err)
	}
	srv, err := llmtest.Start()
	if err != nil {
		return result{}, err
	}
	defer srv.Close()
	turns := sc.turns(dir)
	srv.ServeByHistory(turns...)
	srv.SetRecord(false)
	res := result{sc: sc}
	for p := range pairs + 1 {
		var pair [2]sample
		for i, a := range agents {
			home := filepath.Join(root, "home-"+strings.ReplaceAll(a.name, " ", ""))
			if err := os.MkdirAll(home, 0o755); err != nil {
				return result{}, err
			}
			s, err := runOnce(a, sc, srv, dir, home, len(turns), grep)
			if err != nil {
				return result{}, fmt.Errorf("pair %d: %w", p, err)
			}
			pair[i] = s
		}
		fmt.Fprintf(os.Stderr, "%s: pair %d: wall %v / %v\n", sc.name, p, pair[0].wall.Round(time.Millisecond), pair[1].wall.Round(time.Millisecond))
		if p > 0 {
			res.pairs = append(res.pairs, pair)
		}
	}
	return res, nil
}

// claudeCode returns the Claude Code executable to measure, installing it
// with npm into the cache folder when none was named and it is not there.
func claudeCode(o options) (string, error) {
	if o.claude != "" {
		return o.claude, nil
	}
	prefix := filepath.Join(o.cache, "claude-code-"+claudeCodeVersion)
	bin := filepath.Join(prefix, "node_modules", ".bin", "claude")
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	if err := os.MkdirAll(prefix, 0o755); err != nil {
		return "", err
	}
	fmt.Fprintf(os.Stderr, "vscc: installing Claude Code %s into %s\n", claudeCodeVersion, prefix)
	install := exec.Command("npm", "install", "--no-audit", "--no-fund", "--prefix", prefix, "@anthropic-ai/claude-code@"+claudeCodeVersion)
	install.Stdout, install.Stderr = os.Stderr, os.Stderr
	if err := install.Run(); err != nil {
		return "", fmt.Errorf("npm install Claude Code (or pass -claude with an installed one): %w", err)
	}
	return bin, nil
}

func miniClaude(bin, scratch string) (string, error) {
	if bin != "" {
		return bin, nil
	}
	bin = filepath.Join(scratch, "mini-claude")
	build := exec.Command("go", "build", "-o", bin, "./cmd/mini-claude")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		return "", fmt.Errorf("build mini-claude (run from the repository root): %w", err)
	}
	return bin, nil
}

func hasGrep(bin string) (bool, error) {
	out, err := exec.Command(bin, "tools").Output()
	if err != nil {
		return false, fmt.Errorf("mini-claude tools: %w", err)
	}
	for line := range strings.Lines(string(out)) {
		if strings.HasPrefix(line, "Grep ") {
			return true, nil
		}
	}
	return false, nil
}

// versions names what was measured: Claude Code's --version and the commit
// mini-claude was built from.
func versions(claude, bin string) ([2]string, error) {
	out, err := exec.Command(claude, "--version").Output()
	if err != nil {
		return [2]string{}, fmt.Errorf("%s --version: %w", claude, err)
	}
	commit, err := exec.Command("git", "describe", "--always", "--dirty").Output()
	if err != nil {
		commit = []byte("unknown commit")
	}
	info, err := os.Stat(bin)
	if err != nil {
		return [2]string{}, err
	}
	version := strings.TrimSuffix(string(bytes.TrimSpace(out)), " (Claude Code)")
	return [2]string{version, fmt.Sprintf("built from %s (%.1f MB static binary)", bytes.TrimSpace(commit), float64(info.Size())/(1<<20))}, nil
}

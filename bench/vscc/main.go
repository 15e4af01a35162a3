// Command vscc runs the same scripted tasks with a peer agent — Claude Code,
// Codex CLI — and with mini-claude, alternately (A B A B …), against the
// project's scripted model server, and reports per scenario the medians and
// the pair-by-pair ratio mini-claude / peer of: process start to first
// request, wall time, user+sys CPU, peak RSS of the process tree, and bytes
// sent to the model. It prints a markdown table per peer and, with -update,
// replaces that peer's section of BENCHMARKS.md.
//
//	go run ./bench/vscc [-peers claude-code,codex] [-pairs 10] [-claude PATH] [-codex PATH] [-bin PATH] [-update BENCHMARKS.md]
//
// Against Claude Code, mini-claude uses the Anthropic API like it; against
// Codex CLI, which speaks OpenAI's Responses API, mini-claude uses OpenAI's
// chat completions (--provider openai). A peer not given by path is installed
// with npm at the pinned version into ~/.cache/mini-claude-bench unless it is
// there already.
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

	"github.com/mini-claude/mini-claude/bench/build"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// The peers' npm packages, at the versions measured.
var (
	claudeCodePackage = npmPackage{name: "@anthropic-ai/claude-code", version: "2.1.332", bin: "claude"}
	codexPackage      = npmPackage{name: "@openai/codex", version: "0.171.0", bin: "codex"}
)

// options are the command's flags.
type options struct {
	peers  string
	pairs  int
	claude string
	codex  string
	cache  string
	bin    string
	update string
	only   string
}

func main() {
	var o options
	flag.StringVar(&o.peers, "peers", "claude-code,codex", "the agents to compare with, in order: claude-code, codex")
	flag.IntVar(&o.pairs, "pairs", 10, "measured pairs per scenario, after one warm-up pair")
	flag.StringVar(&o.claude, "claude", os.Getenv("MINI_CLAUDE_BENCH_CLAUDE"), "an installed Claude Code executable (default: install into -cache)")
	flag.StringVar(&o.codex, "codex", os.Getenv("MINI_CLAUDE_BENCH_CODEX"), "an installed Codex CLI executable (default: install into -cache)")
	flag.StringVar(&o.cache, "cache", defaultCache(), "folder the peers are installed into when not given by path")
	flag.StringVar(&o.bin, "bin", "", "mini-claude binary (default: build ./cmd/mini-claude with CGO_ENABLED=0)")
	flag.StringVar(&o.update, "update", "", "markdown file whose sections for the peers are replaced with the results (such as BENCHMARKS.md)")
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
	// Codex refuses to set up its helpers under a temporary folder, so the
	// scratch space lives in the cache folder.
	if err := os.MkdirAll(o.cache, 0o755); err != nil {
		return err
	}
	scratch, err := os.MkdirTemp(o.cache, "run-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	bin, err := build.MiniClaude(o.bin, scratch)
	if err != nil {
		return err
	}
	for _, name := range strings.Split(o.peers, ",") {
		peer, mini, err := pair(name, bin, o)
		if err != nil {
			return err
		}
		if err := compare(peer, mini, o, filepath.Join(scratch, name)); err != nil {
			return fmt.Errorf("against %s: %w", peer.name, err)
		}
	}
	return nil
}

// pair returns the named peer and the mini-claude measured against it.
func pair(name, bin string, o options) (agent, agent, error) {
	switch name {
	case "claude-code":
		path, err := installed(o.claude, claudeCodePackage, o.cache)
		return claudeCode(path), miniClaude(bin, false), err
	case "codex":
		path, err := installed(o.codex, codexPackage, o.cache)
		return codex(path), miniClaude(bin, true), err
	}
	return agent{}, agent{}, fmt.Errorf("unknown peer %q: use claude-code or codex", name)
}

// compare runs every scenario with the peer and mini-claude and reports.
func compare(peer, mini agent, o options, scratch string) error {
	agents := [2]agent{peer, mini}
	rep := report{peer: peer.name, pairs: o.pairs, started: time.Now(), load: loadAverage()}
	var err error
	if rep.versions, err = versions(peer.bin, mini.bin); err != nil {
		return err
	}
	for i, sc := range scenarios() {
		if o.only != "" && !strings.Contains(","+o.only+",", fmt.Sprintf(",%d,", i+1)) {
			continue
		}
		res, err := runScenario(sc, agents, filepath.Join(scratch, fmt.Sprintf("s%d", i+1)), o.pairs)
		if err != nil {
			return fmt.Errorf("scenario %q: %w", sc.name, err)
		}
		res.number = i + 1
		rep.results = append(rep.results, res)
	}
	table := rep.markdown()
	fmt.Print(table + "\n" + rep.goalTable())
	if o.update != "" {
		return updateSection(o.update, rep.markers(), rep.section(table))
	}
	return nil
}

// result is one scenario's samples, pair by pair: [pair][0] the peer, [pair][1] mini-claude.
type result struct {
	sc     scenario
	number int
	pairs  [][2]sample
}

// runScenario runs the pairs; each agent has its own scripted server, which
// serves the scenario done with that agent's tools.
func runScenario(sc scenario, agents [2]agent, root string, pairs int) (result, error) {
	dir := filepath.Join(root, "work")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return result{}, err
	}
	if err := sc.setup(dir); err != nil {
		return result{}, fmt.Errorf("set up files: %w", err)
	}
	var servers [2]*llmtest.Server
	var turns [2]int
	for i, a := range agents {
		srv, err := llmtest.Start()
		if err != nil {
			return result{}, err
		}
		defer srv.Close()
		script := sc.turns(dir, a.tools(dir))
		srv.ServeByHistory(script...)
		srv.SetRecord(false)
		servers[i], turns[i] = srv, len(script)
	}
	res := result{sc: sc}
	for p := range pairs + 1 {
		var pair [2]sample
		for i, a := range agents {
			home := filepath.Join(root, "home-"+strings.ReplaceAll(a.name, " ", ""))
			if err := os.MkdirAll(home, 0o755); err != nil {
				return result{}, err
			}
			s, err := runOnce(a, sc, servers[i], dir, home, turns[i])
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

// npmPackage is a peer agent published on npm.
type npmPackage struct{ name, version, bin string }

// installed returns path when given, else the package's executable in the
// cache folder, installing it with npm when it is not there.
func installed(path string, pkg npmPackage, cache string) (string, error) {
	if path != "" {
		return path, nil
	}
	prefix := filepath.Join(cache, pkg.bin+"-"+pkg.version)
	bin := filepath.Join(prefix, "node_modules", ".bin", pkg.bin)
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	if err := os.MkdirAll(prefix, 0o755); err != nil {
		return "", err
	}
	fmt.Fprintf(os.Stderr, "vscc: installing %s@%s into %s\n", pkg.name, pkg.version, prefix)
	install := exec.Command("npm", "install", "--no-audit", "--no-fund", "--prefix", prefix, pkg.name+"@"+pkg.version)
	install.Stdout, install.Stderr = os.Stderr, os.Stderr
	if err := install.Run(); err != nil {
		return "", fmt.Errorf("npm install %s (or name an installed one with a flag): %w", pkg.name, err)
	}
	return bin, nil
}

// versions names what was measured: the peer's --version and the commit
// mini-claude was built from.
func versions(peer, bin string) ([2]string, error) {
	out, err := exec.Command(peer, "--version").Output()
	if err != nil {
		return [2]string{}, fmt.Errorf("%s --version: %w", peer, err)
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

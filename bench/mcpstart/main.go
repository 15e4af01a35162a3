// Command mcpstart measures what configured MCP servers cost a headless run:
// the time from process start to the first model request with no servers,
// and with three stdio servers that each take 2 s to start (a shell that
// sleeps, then runs the real server-everything), waited for as mini-claude
// does by default, not at all (MCP_CONNECTION_NONBLOCKING=1), and fully
// (MINI_CLAUDE_MCP_WAIT_MS=30000, as Claude Code waits in -p mode). It prints
// medians as a markdown table, with how many servers the model can reach from
// the first request (their tools sent, or listed as connecting for ToolSearch).
//
//	go run ./bench/mcpstart [-runs 5] [-bin path/to/mini-claude]
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/mini-claude/mini-claude/bench/build"
	"github.com/mini-claude/mini-claude/bench/stats"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
	"github.com/mini-claude/mini-claude/internal/mcp/mcptest"
)

// scenario is one configuration measured.
type scenario struct {
	name    string
	servers int
	env     []string
}

var scenarios = []scenario{
	{name: "no MCP servers"},
	{name: "3 servers × 2 s, default (300 ms grace)", servers: 3},
	{name: "3 servers × 2 s, MCP_CONNECTION_NONBLOCKING=1", servers: 3, env: []string{"MCP_CONNECTION_NONBLOCKING=1"}},
	{name: "3 servers × 2 s, waiting for all (MINI_CLAUDE_MCP_WAIT_MS=30000)", servers: 3, env: []string{"MINI_CLAUDE_MCP_WAIT_MS=30000"}},
}

func main() {
	runs := flag.Int("runs", 5, "measured runs per scenario, after one warm-up run")
	bin := flag.String("bin", "", "mini-claude binary to measure (default: build ./cmd/mini-claude)")
	flag.Parse()
	if err := measure(*runs, *bin); err != nil {
		fmt.Fprintln(os.Stderr, "mcpstart:", err)
		os.Exit(1)
	}
}

func measure(runs int, bin string) error {
	servers, err := mcptest.Locate()
	if err != nil {
		return fmt.Errorf("%w; run .ci/run first", err)
	}
	scratch, err := os.MkdirTemp("", "mini-claude-mcpbench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	if bin, err = build.MiniClaude(bin, scratch); err != nil {
		return err
	}
	srv, err := llmtest.Start()
	if err != nil {
		return err
	}
	defer srv.Close()
	srv.ServeByHistory(llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("Hello.")}})
	fmt.Printf("| scenario (median of %d runs) | first request | wall time | ratio of first request to no servers | servers the first request reaches |\n|---|---|---|---|---|\n", runs)
	var base time.Duration
	for _, sc := range scenarios {
		config, err := slowConfig(sc.servers, servers)
		if err != nil {
			return err
		}
		var first, wall []time.Duration
		reach := ""
		for i := range runs + 1 {
			f, w, r, err := runOnce(bin, scratch, config, sc.env, srv)
			if err != nil {
				return fmt.Errorf("%s, run %d: %w", sc.name, i, err)
			}
			reach = reachable(r, sc.servers)
			if i > 0 {
				first, wall = append(first, f), append(wall, w)
			}
		}
		if sc.servers == 0 {
			base = stats.Median(first)
		}
		fmt.Printf("| %s | %.1f ms | %.1f ms | %.1f× | %s |\n", sc.name, stats.MS(stats.Median(first)), stats.MS(stats.Median(wall)), float64(stats.Median(first))/float64(base), reach)
	}
	fmt.Printf("\n%d logical CPUs, %s/%s, %s\n", runtime.NumCPU(), runtime.GOOS, runtime.GOARCH, runtime.Version())
	return nil
}

// slowConfig is an --mcp-config value with n servers that sleep 2 s before
// starting server-everything.
func slowConfig(n int, s mcptest.Servers) (string, error) {
	all := map[string]any{}
	for i := range n {
		all[fmt.Sprintf("slow%d", i+1)] = map[string]any{
			"command": "sh", "args": []string{"-c", `sleep 2; exec "$0" "$1" stdio`, s.Node, s.Everything},
		}
	}
	b, err := json.Marshal(map[string]any{"mcpServers": all})
	return string(b), err
}

// reachable says how many of the n servers the model can reach from the
// first request: with their tools sent, or through ToolSearch, which lists
// a server still connecting and waits for it.
func reachable(req llmtest.Request, n int) string {
	if n == 0 {
		return "-"
	}
	full, connecting := 0, 0
	for i := range n {
		server := fmt.Sprintf("slow%d", i+1)
		switch {
		case slices.ContainsFunc(req.Tools, func(t llm.ToolSpec) bool { return strings.HasPrefix(t.Name, "mcp__"+server+"__") }):
			full++
		case strings.Contains(req.System, "mcp__"+server+"__* (the tools of MCP server"):
			connecting++
		}
	}
	switch {
	case connecting > 0:
		return fmt.Sprintf("%d of %d (through ToolSearch, still connecting)", connecting+full, n)
	case full > 0:
		return fmt.Sprintf("%d of %d (tools sent)", full, n)
	}
	return fmt.Sprintf("0 of %d", n)
}

func runOnce(bin, scratch, config string, env []string, srv *llmtest.Server) (first, wall time.Duration, req llmtest.Request, err error) {
	home := filepath.Join(scratch, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		return 0, 0, req, err
	}
	cmd := exec.Command(bin, "-p", "say hello", "--mcp-config", config)
	cmd.Dir = scratch
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "ANTHROPIC_API_KEY=bench", "ANTHROPIC_BASE_URL=" + srv.URL}, env...)
	before := len(srv.Requests())
	start := time.Now()
	if out, err := cmd.CombinedOutput(); err != nil {
		return 0, 0, req, fmt.Errorf("%w: %s", err, out)
	}
	wall = time.Since(start)
	reqs := srv.Requests()
	if len(reqs) != before+1 {
		return 0, 0, req, fmt.Errorf("the server saw %d requests, want 1", len(reqs)-before)
	}
	return reqs[before].Time.Sub(start), wall, reqs[before], nil
}

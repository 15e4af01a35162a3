// Command fleet starts N headless agents at once against one scripted model
// server, as a user running agents from scripts does, and reports the wall
// time until the last one exits and the sum of their peak RSS, for
// mini-claude and, when it is installed, Claude Code, round by round
// alternately (the peer first). Each agent runs the Read → Bash → answer
// task in a folder and with a HOME of its own; every run is checked (exit 0,
// a successful result, three requests, no failed tool result, no protocol
// violation). It prints a markdown table of medians with min–max.
//
//	go run ./bench/fleet [-n 20] [-rounds 3] [-bin path/to/mini-claude] [-claude path|""]
//
// Claude Code is looked for at ~/.cache/mini-claude-ref/node_modules/.bin/claude
// unless -claude names it; -claude "" leaves it out.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/mini-claude/mini-claude/bench/build"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// agent is one program under test and how to start it headless.
type agent struct {
	name string
	bin  string
	env  []string
}

// round is what one round of N agents measured.
type round struct {
	wall       time.Duration
	sumRSSKB   int64
	maxRSSKB   int64
	cpu        time.Duration
	lastFirst  time.Duration
	medianWall time.Duration
}

func main() {
	n := flag.Int("n", 20, "agents started at once")
	rounds := flag.Int("rounds", 3, "measured rounds per agent, after one warm-up round")
	bin := flag.String("bin", "", "mini-claude binary (default: build ./cmd/mini-claude)")
	claude := flag.String("claude", defaultClaude(), `Claude Code executable; "" leaves it out`)
	flag.Parse()
	if err := run(*n, *rounds, *bin, *claude); err != nil {
		fmt.Fprintln(os.Stderr, "fleet:", err)
		os.Exit(1)
	}
}

func defaultClaude() string {
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	path := filepath.Join(home, ".cache", "mini-claude-ref", "node_modules", ".bin", "claude")
	if _, err := os.Stat(path); err != nil {
		return ""
	}
	return path
}

func run(n, rounds int, bin, claude string) error {
	scratch, err := os.MkdirTemp("", "mini-claude-fleet")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	if bin, err = build.MiniClaude(bin, scratch); err != nil {
		return err
	}
	agents := []agent{{name: "mini-claude", bin: bin}}
	if claude != "" {
		cc := agent{name: "Claude Code", bin: claude, env: []string{"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_TELEMETRY=1", "DISABLE_AUTOUPDATER=1"}}
		agents = append([]agent{cc}, agents...)
	}
	results := make([][]round, len(agents))
	load := loadAverage()
	for r := range rounds + 1 {
		for i, a := range agents {
			res, err := fleetRound(a, n, filepath.Join(scratch, fmt.Sprintf("%d-%d", i, r)))
			if err != nil {
				return fmt.Errorf("%s, round %d: %w", a.name, r, err)
			}
			fmt.Fprintf(os.Stderr, "%s round %d: wall %v, summed peak RSS %.0f MB\n", a.name, r, res.wall.Round(time.Millisecond), float64(res.sumRSSKB)/1024)
			if r > 0 {
				results[i] = append(results[i], res)
			}
		}
	}
	report(agents, results, n, load)
	return nil
}

// fleetRound starts n agents at once, each on the Read → Bash → answer task
// in a folder of its own under root, and waits for all of them.
func fleetRound(a agent, n int, root string) (round, error) {
	srv, err := llmtest.Start()
	if err != nil {
		return round{}, err
	}
	defer srv.Close()
	srv.ServeFunc(script)
	var mu sync.Mutex
	firsts := map[string]time.Time{}
	var toolErrors []string
	srv.OnRequest(func(req llmtest.Request) {
		mu.Lock()
		defer mu.Unlock()
		for _, m := range req.Messages {
			for _, b := range m.Content {
				if b.Type == llm.BlockToolResult && b.IsError {
					toolErrors = append(toolErrors, fmt.Sprint(b.Content))
				}
			}
		}
		if len(req.Messages) == 1 {
			firsts[req.Messages[0].Text()] = req.Time
		}
	})
	cmds := make([]*exec.Cmd, n)
	outs := make([]*bytes.Buffer, n)
	for i := range n {
		dir := filepath.Join(root, fmt.Sprintf("agent-%02d", i))
		home := filepath.Join(dir, "home")
		work := filepath.Join(dir, "work")
		if err := os.MkdirAll(home, 0o755); err != nil {
			return round{}, err
		}
		if err := os.MkdirAll(work, 0o755); err != nil {
			return round{}, err
		}
		if err := os.WriteFile(filepath.Join(work, "notes.txt"), []byte("one\ntwo\n"), 0o644); err != nil {
			return round{}, err
		}
		cmd := exec.Command(a.bin, "-p", "Do the task "+fmt.Sprint(i), "--output-format", "stream-json", "--verbose",
			"--dangerously-skip-permissions", "--tools", "Bash,Read", "--model", "claude-sonnet-4-5-20250929")
		cmd.Dir = work
		cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "TERM=dumb", "IS_SANDBOX=1",
			"ANTHROPIC_BASE_URL=" + srv.URL, "ANTHROPIC_API_KEY=bench"}, a.env...)
		outs[i] = &bytes.Buffer{}
		cmd.Stdout, cmd.Stderr = outs[i], outs[i]
		cmds[i] = cmd
	}
	start := time.Now()
	for i, cmd := range cmds {
		if err := cmd.Start(); err != nil {
			return round{}, fmt.Errorf("agent %d: %w", i, err)
		}
	}
	walls := make([]time.Duration, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i, cmd := range cmds {
		wg.Go(func() {
			errs[i] = cmd.Wait()
			walls[i] = time.Since(start)
		})
	}
	wg.Wait()
	res := round{wall: time.Since(start), medianWall: median(walls)}
	for i, cmd := range cmds {
		if errs[i] != nil {
			return round{}, fmt.Errorf("agent %d: %w: %s", i, errs[i], tail(outs[i].Bytes()))
		}
		if !bytes.Contains(outs[i].Bytes(), []byte(`"subtype":"success"`)) {
			return round{}, fmt.Errorf("agent %d: no successful result: %s", i, tail(outs[i].Bytes()))
		}
		usage, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
		if !ok {
			return round{}, fmt.Errorf("no rusage on %s", runtime.GOOS)
		}
		res.sumRSSKB += usage.Maxrss
		res.maxRSSKB = max(res.maxRSSKB, usage.Maxrss)
		res.cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	mu.Lock()
	defer mu.Unlock()
	switch {
	case len(srv.Requests()) != 3*n:
		return round{}, fmt.Errorf("the server saw %d requests, want %d", len(srv.Requests()), 3*n)
	case len(toolErrors) > 0:
		return round{}, fmt.Errorf("tool results were errors: %q", toolErrors)
	case len(srv.Violations()) > 0:
		return round{}, fmt.Errorf("protocol violations: %q", srv.Violations())
	case len(firsts) != n:
		return round{}, fmt.Errorf("%d distinct first requests, want %d", len(firsts), n)
	}
	for _, t := range firsts {
		res.lastFirst = max(res.lastFirst, t.Sub(start))
	}
	return res, nil
}

// workingDirectory finds the agent's folder in its system prompt, which
// both agents state as Claude Code does ("Working directory: /…").
var workingDirectory = regexp.MustCompile(`Working directory: (\S+)`)

// script answers each agent's requests by the number of its assistant
// messages: Read notes.txt in its folder, then Bash echo hi, then the answer.
func script(req llmtest.Request) llmtest.Turn {
	turn := 0
	for _, m := range req.Messages {
		if m.Role == llm.RoleAssistant {
			turn++
		}
	}
	switch turn {
	case 0:
		dir := "."
		if m := workingDirectory.FindStringSubmatch(req.System); m != nil {
			dir = m[1]
		}
		input := fmt.Sprintf(`{"file_path":%q}`, filepath.Join(dir, "notes.txt"))
		return llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("toolu_read", "Read", input)}}
	case 1:
		return llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("toolu_bash", "Bash", `{"command":"echo hi"}`)}}
	}
	return llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("Done.")}}
}

func report(agents []agent, results [][]round, n int, load string) {
	figures := []struct {
		name string
		get  func(round) float64
		unit string
	}{
		{"wall time until the last agent exits", func(r round) float64 { return ms(r.wall) }, "ms"},
		{"median agent's wall time", func(r round) float64 { return ms(r.medianWall) }, "ms"},
		{"start → the last agent's first request", func(r round) float64 { return ms(r.lastFirst) }, "ms"},
		{"summed peak RSS", func(r round) float64 { return float64(r.sumRSSKB) / 1024 }, "MB"},
		{"largest agent's peak RSS", func(r round) float64 { return float64(r.maxRSSKB) / 1024 }, "MB"},
		{"summed user+sys CPU", func(r round) float64 { return ms(r.cpu) }, "ms"},
	}
	fmt.Printf("| %d agents at once, Read → Bash → answer (median of %d rounds, min–max) |", n, len(results[0]))
	for _, a := range agents {
		fmt.Printf(" %s |", a.name)
	}
	fmt.Print("\n|---|" + strings.Repeat("---|", len(agents)) + "\n")
	for _, f := range figures {
		fmt.Printf("| %s |", f.name)
		for i := range agents {
			var values []float64
			for _, r := range results[i] {
				values = append(values, f.get(r))
			}
			fmt.Printf(" %s |", format(values, f.unit))
		}
		fmt.Println()
	}
	fmt.Printf("\n%d logical CPUs, %s/%s, %s, load average %s at the start\n", runtime.NumCPU(), runtime.GOOS, runtime.GOARCH, runtime.Version(), load)
}

func format(values []float64, unit string) string {
	m := median(values)
	if unit == "MB" || m >= 100 {
		return fmt.Sprintf("%.0f %s (%.0f–%.0f)", m, unit, slices.Min(values), slices.Max(values))
	}
	return fmt.Sprintf("%.1f %s (%.1f–%.1f)", m, unit, slices.Min(values), slices.Max(values))
}

func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	fields := strings.Fields(string(data))
	if err != nil || len(fields) < 3 {
		return "unknown"
	}
	return strings.Join(fields[:3], " ")
}

func tail(b []byte) []byte {
	if len(b) > 2000 {
		return b[len(b)-2000:]
	}
	return b
}

func median[T float64 | time.Duration](values []T) T {
	sorted := slices.Clone(values)
	slices.Sort(sorted)
	return sorted[len(sorted)/2]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

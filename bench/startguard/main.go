// Command startguard keeps mini-claude's start-up from regressing. It times
// process start → first request of `mini-claude -p "say hello"` against the
// same for a minimal static Go program that starts and sends one request
// (bench/startguard/baseline), pair by pair in one run against the same
// scripted model server (internal/llm/llmtest, in-process), the order
// alternating within the pairs. It prints both times and the median of the
// pair-by-pair ratios, and exits 1 when that median exceeds -max-ratio. A
// ratio, not a time, because CI machines are shared: a loaded machine slows
// both programs alike, while a feature that adds work at start-up moves only
// mini-claude's side.
//
//	go run ./bench/startguard [-pairs 21] [-max-ratio 6] [-bin path/to/mini-claude]
//
// `make startguard` runs it; `make check` (and so .ci/run) includes it.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	"github.com/mini-claude/mini-claude/bench/build"
	"github.com/mini-claude/mini-claude/bench/stats"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

func main() {
	pairs := flag.Int("pairs", 21, "measured pairs, after one warm-up pair")
	maxRatio := flag.Float64("max-ratio", 6, "the largest median of mini-claude's first request over the baseline's that passes")
	bin := flag.String("bin", "", "mini-claude binary to measure (default: build ./cmd/mini-claude)")
	flag.Parse()
	ok, err := guard(*pairs, *maxRatio, *bin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "startguard:", err)
		os.Exit(2)
	}
	if !ok {
		os.Exit(1)
	}
}

// program is one side of a pair: how to start it.
type program struct {
	name string
	args []string
}

func guard(pairs int, maxRatio float64, bin string) (bool, error) {
	scratch, err := os.MkdirTemp("", "mini-claude-startguard")
	if err != nil {
		return false, err
	}
	defer os.RemoveAll(scratch)
	if bin, err = build.MiniClaude(bin, scratch); err != nil {
		return false, err
	}
	baseline, err := buildBaseline(scratch)
	if err != nil {
		return false, err
	}
	srv, err := llmtest.Start()
	if err != nil {
		return false, err
	}
	defer srv.Close()
	srv.ServeByHistory(llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("Hello.")}})
	home := filepath.Join(scratch, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		return false, err
	}
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "ANTHROPIC_API_KEY=startguard", "ANTHROPIC_BASE_URL=" + srv.URL}
	mc := program{name: "mini-claude", args: []string{bin, "-p", "say hello"}}
	base := program{name: "baseline", args: []string{baseline}}
	var mcTimes, baseTimes []time.Duration
	var ratios []float64
	for i := range pairs + 1 {
		order := []program{mc, base}
		if i%2 == 1 {
			order = []program{base, mc}
		}
		times := map[string]time.Duration{}
		for _, p := range order {
			d, err := firstRequest(p, scratch, env, srv)
			if err != nil {
				return false, fmt.Errorf("pair %d: %s: %w", i, p.name, err)
			}
			times[p.name] = d
		}
		if i == 0 {
			continue // warm-up: page cache, the server's first connection
		}
		mcTimes = append(mcTimes, times[mc.name])
		baseTimes = append(baseTimes, times[base.name])
		ratios = append(ratios, float64(times[mc.name])/float64(times[base.name]))
	}
	ratio := stats.Median(ratios)
	fmt.Printf("| process start → first request (%d pairs) | median | min–max |\n|---|---|---|\n", pairs)
	fmt.Printf("| mini-claude | %.1f ms | %.1f–%.1f ms |\n", stats.MS(stats.Median(mcTimes)), stats.MS(slices.Min(mcTimes)), stats.MS(slices.Max(mcTimes)))
	fmt.Printf("| baseline (static Go, one request) | %.1f ms | %.1f–%.1f ms |\n", stats.MS(stats.Median(baseTimes)), stats.MS(slices.Min(baseTimes)), stats.MS(slices.Max(baseTimes)))
	fmt.Printf("| mini-claude / baseline, pair by pair | %.2f | %.2f–%.2f |\n", ratio, slices.Min(ratios), slices.Max(ratios))
	fmt.Printf("\n%d logical CPUs, %s/%s, %s, load average %s\n", runtime.NumCPU(), runtime.GOOS, runtime.GOARCH, runtime.Version(), stats.LoadAverage())
	if ratio > maxRatio {
		fmt.Printf("FAIL: mini-claude reaches the model %.2f× as late as the baseline, above the limit of %.2f×; "+
			"something now runs at start-up that the first request does not need (GODEBUG=inittrace=1 and BENCHMARKS.md show where to look)\n", ratio, maxRatio)
		return false, nil
	}
	fmt.Printf("ok: the median ratio %.2f is within the limit of %.2f\n", ratio, maxRatio)
	return true, nil
}

// buildBaseline builds the baseline program as the README builds mini-claude.
func buildBaseline(dir string) (string, error) {
	bin := filepath.Join(dir, "baseline")
	cmd := exec.Command("go", "build", "-ldflags=-s -w", "-o", bin, "./bench/startguard/baseline")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("build the baseline (run from the repository root): %w", err)
	}
	return bin, nil
}

// firstRequest runs p to its end and returns the time from just before its
// start to the arrival of its request at the server.
func firstRequest(p program, dir string, env []string, srv *llmtest.Server) (time.Duration, error) {
	before := len(srv.Requests())
	cmd := exec.Command(p.args[0], p.args[1:]...)
	cmd.Dir = dir
	cmd.Env = env
	start := time.Now()
	if out, err := cmd.CombinedOutput(); err != nil {
		return 0, fmt.Errorf("%w: %s", err, out)
	}
	reqs := srv.Requests()
	if len(reqs) != before+1 {
		return 0, fmt.Errorf("the server saw %d requests, want 1", len(reqs)-before)
	}
	return reqs[before].Time.Sub(start), nil
}

// Command startup measures mini-claude's start-up against the scripted model
// server: time from process start to the first request the server receives,
// wall time of a one-turn headless run, peak RSS (the rusage maximum that
// /usr/bin/time -v reports) and the binary's size. It prints medians as a
// markdown table.
//
//	go run ./bench/startup [-runs 10] [-bin path/to/mini-claude] [-provider anthropic|openai]
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"syscall"
	"time"

	"github.com/mini-claude/mini-claude/bench/build"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// sample is what one run measured.
type sample struct {
	firstRequest time.Duration
	wall         time.Duration
	peakRSSKB    int64
}

func main() {
	runs := flag.Int("runs", 10, "measured runs, after one warm-up run")
	bin := flag.String("bin", "", "mini-claude binary to measure (default: build ./cmd/mini-claude)")
	provider := flag.String("provider", "anthropic", "API the runs talk to the scripted server with: anthropic or openai (chat completions)")
	flag.Parse()
	if *provider != "anthropic" && *provider != "openai" {
		fmt.Fprintln(os.Stderr, "startup: -provider is anthropic or openai")
		os.Exit(2)
	}
	if err := measure(*runs, *bin, *provider); err != nil {
		fmt.Fprintln(os.Stderr, "startup:", err)
		os.Exit(1)
	}
}

func measure(runs int, bin, provider string) error {
	scratch, err := os.MkdirTemp("", "mini-claude-bench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	if bin, err = build.MiniClaude(bin, scratch); err != nil {
		return err
	}
	info, err := os.Stat(bin)
	if err != nil {
		return err
	}
	srv, err := llmtest.Start()
	if err != nil {
		return err
	}
	defer srv.Close()
	srv.ServeByHistory(llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("Hello.")}})
	var samples []sample
	for i := range runs + 1 {
		s, err := runOnce(bin, scratch, provider, srv, i)
		if err != nil {
			return fmt.Errorf("run %d: %w", i, err)
		}
		if i > 0 {
			samples = append(samples, s)
		}
	}
	report(samples, info.Size(), provider)
	return nil
}

func runOnce(bin, scratch, provider string, srv *llmtest.Server, i int) (sample, error) {
	home := filepath.Join(scratch, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		return sample{}, err
	}
	cmd := exec.Command(bin, "-p", "say hello")
	cmd.Dir = scratch
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "ANTHROPIC_API_KEY=bench", "ANTHROPIC_BASE_URL=" + srv.URL}
	if provider == "openai" {
		cmd.Args = append(cmd.Args, "--provider", "openai")
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "OPENAI_API_KEY=bench", "OPENAI_BASE_URL=" + srv.URL + "/v1"}
	}
	start := time.Now()
	if out, err := cmd.Output(); err != nil {
		return sample{}, fmt.Errorf("%w: %s", err, out)
	}
	wall := time.Since(start)
	reqs := srv.Requests()
	if len(reqs) != i+1 {
		return sample{}, fmt.Errorf("the server saw %d requests, want %d", len(reqs), i+1)
	}
	usage, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		return sample{}, fmt.Errorf("no rusage on %s", runtime.GOOS)
	}
	return sample{firstRequest: reqs[i].Time.Sub(start), wall: wall, peakRSSKB: usage.Maxrss}, nil
}

func median[T int64 | time.Duration](values []T) T {
	sorted := slices.Clone(values)
	slices.Sort(sorted)
	return sorted[len(sorted)/2]
}

func report(samples []sample, binSize int64, provider string) {
	var first, wall []time.Duration
	var rss []int64
	for _, s := range samples {
		first = append(first, s.firstRequest)
		wall = append(wall, s.wall)
		rss = append(rss, s.peakRSSKB)
	}
	fmt.Printf("| figure (median of %d runs) | mini-claude | target |\n|---|---|---|\n", len(samples))
	fmt.Printf("| process start to first request | %.1f ms | ≤ 15 ms |\n", ms(median(first)))
	fmt.Printf("| wall time, 1-turn run | %.1f ms | |\n", ms(median(wall)))
	fmt.Printf("| peak RSS | %.1f MB | ≤ 25 MB |\n", float64(median(rss))/1024)
	fmt.Printf("| binary size | %.1f MB | ≤ 30 MB |\n", float64(binSize)/(1<<20))
	fmt.Printf("\n%s API; %d logical CPUs, %s/%s, %s\n", provider, runtime.NumCPU(), runtime.GOOS, runtime.GOARCH, runtime.Version())
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

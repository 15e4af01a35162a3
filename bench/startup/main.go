// Command startup measures mini-claude's start-up against the scripted model
// server: time from process start to the first request the server receives,
// wall time of a headless run, peak RSS (the rusage maximum that
// /usr/bin/time -v reports) and the binary's size. It prints medians with
// min–max as a markdown table. The run is one text-only turn, or with -task
// read-bash a Read, a Bash `echo hi` and the answer. With -before, a second
// binary is measured in the same run, the two alternating, for a before/after
// table.
//
//	go run ./bench/startup [-runs 10] [-bin path/to/mini-claude] [-before path/to/old/mini-claude] [-task hello|read-bash] [-provider anthropic|openai]
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/mini-claude/mini-claude/bench/build"
	"github.com/mini-claude/mini-claude/bench/stats"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// sample is what one run measured.
type sample struct {
	firstRequest time.Duration
	wall         time.Duration
	peakRSSKB    int64
}

// binary is one mini-claude under measurement.
type binary struct {
	label   string
	path    string
	size    int64
	samples []sample
}

func main() {
	runs := flag.Int("runs", 10, "measured runs, after one warm-up run")
	bin := flag.String("bin", "", "mini-claude binary to measure (default: build ./cmd/mini-claude)")
	before := flag.String("before", "", "an earlier mini-claude binary, measured in the same run, alternating with -bin")
	task := flag.String("task", "hello", "what each run does: hello (one text-only turn) or read-bash (Read, Bash echo hi, the answer)")
	provider := flag.String("provider", "anthropic", "API the runs talk to the scripted server with: anthropic or openai (chat completions)")
	flag.Parse()
	if *provider != "anthropic" && *provider != "openai" {
		fmt.Fprintln(os.Stderr, "startup: -provider is anthropic or openai")
		os.Exit(2)
	}
	if *task != "hello" && *task != "read-bash" {
		fmt.Fprintln(os.Stderr, "startup: -task is hello or read-bash")
		os.Exit(2)
	}
	if err := measure(*runs, *bin, *before, *task, *provider); err != nil {
		fmt.Fprintln(os.Stderr, "startup:", err)
		os.Exit(1)
	}
}

func measure(runs int, bin, before, task, provider string) error {
	scratch, err := os.MkdirTemp("", "mini-claude-bench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	if bin, err = build.MiniClaude(bin, scratch); err != nil {
		return err
	}
	bins := []*binary{{label: "mini-claude", path: bin}}
	if before != "" {
		bins = []*binary{{label: "before", path: before}, {label: "after", path: bin}}
	}
	for _, b := range bins {
		info, err := os.Stat(b.path)
		if err != nil {
			return err
		}
		b.size = info.Size()
	}
	srv, err := llmtest.Start()
	if err != nil {
		return err
	}
	defer srv.Close()
	turns := len(script(scratch, task))
	srv.ServeByHistory(script(scratch, task)...)
	for i := range runs + 1 {
		for _, b := range bins {
			s, err := runOnce(b.path, scratch, task, provider, srv, turns)
			if err != nil {
				return fmt.Errorf("%s, run %d: %w", b.label, i, err)
			}
			if i > 0 {
				b.samples = append(b.samples, s)
			}
		}
	}
	report(bins, runs, task, provider)
	return nil
}

// script is the model's side of the task; the Read is of a file in dir.
func script(dir, task string) []llmtest.Turn {
	answer := llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("Hello.")}}
	if task == "hello" {
		return []llmtest.Turn{answer}
	}
	read := fmt.Sprintf(`{"file_path":%q}`, filepath.Join(dir, "notes.txt"))
	return []llmtest.Turn{
		{Blocks: []llm.ContentBlock{llmtest.ToolUse("toolu_read", "Read", read)}},
		{Blocks: []llm.ContentBlock{llmtest.ToolUse("toolu_bash", "Bash", `{"command":"echo hi"}`)}},
		answer,
	}
}

func runOnce(bin, scratch, task, provider string, srv *llmtest.Server, turns int) (sample, error) {
	home := filepath.Join(scratch, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		return sample{}, err
	}
	if err := os.WriteFile(filepath.Join(scratch, "notes.txt"), []byte("one\ntwo\n"), 0o644); err != nil {
		return sample{}, err
	}
	cmd := exec.Command(bin, "-p", "say hello")
	if task == "read-bash" {
		cmd.Args = append(cmd.Args, "--dangerously-skip-permissions")
	}
	cmd.Dir = scratch
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "IS_SANDBOX=1", "ANTHROPIC_API_KEY=bench", "ANTHROPIC_BASE_URL=" + srv.URL}
	if provider == "openai" {
		cmd.Args = append(cmd.Args, "--provider", "openai")
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "IS_SANDBOX=1", "OPENAI_API_KEY=bench", "OPENAI_BASE_URL=" + srv.URL + "/v1"}
	}
	before := len(srv.Requests())
	start := time.Now()
	if out, err := cmd.Output(); err != nil {
		return sample{}, fmt.Errorf("%w: %s", err, out)
	}
	wall := time.Since(start)
	reqs := srv.Requests()
	if len(reqs) != before+turns {
		return sample{}, fmt.Errorf("the server saw %d requests, want %d", len(reqs)-before, turns)
	}
	if v := srv.Violations(); len(v) > 0 {
		return sample{}, fmt.Errorf("protocol violations: %q", v)
	}
	usage, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		return sample{}, fmt.Errorf("no rusage on %s", runtime.GOOS)
	}
	return sample{firstRequest: reqs[before].Time.Sub(start), wall: wall, peakRSSKB: usage.Maxrss}, nil
}

func report(bins []*binary, runs int, task, provider string) {
	taskName := map[string]string{"hello": "1-turn run", "read-bash": "Read → Bash → answer run"}[task]
	fmt.Printf("| figure (median of %d runs, min–max) |", runs)
	for _, b := range bins {
		fmt.Printf(" %s |", b.label)
	}
	fmt.Print(" target |\n|---|" + strings.Repeat("---|", len(bins)) + "---|\n")
	row := func(name, target string, cell func(*binary) string) {
		fmt.Printf("| %s |", name)
		for _, b := range bins {
			fmt.Printf(" %s |", cell(b))
		}
		fmt.Printf(" %s |\n", target)
	}
	durations := func(get func(sample) time.Duration) func(*binary) string {
		return func(b *binary) string {
			var v []time.Duration
			for _, s := range b.samples {
				v = append(v, get(s))
			}
			return fmt.Sprintf("%.1f ms (%.1f–%.1f)", stats.MS(stats.Median(v)), stats.MS(slices.Min(v)), stats.MS(slices.Max(v)))
		}
	}
	row("process start to first request", "≤ 5 ms quiet, ≤ 15 ms", durations(func(s sample) time.Duration { return s.firstRequest }))
	row("wall time, "+taskName, "", durations(func(s sample) time.Duration { return s.wall }))
	row("peak RSS", "≤ 15 MB (Read → Bash → answer)", func(b *binary) string {
		var v []int64
		for _, s := range b.samples {
			v = append(v, s.peakRSSKB)
		}
		return fmt.Sprintf("%.1f MB (%.1f–%.1f)", float64(stats.Median(v))/1024, float64(slices.Min(v))/1024, float64(slices.Max(v))/1024)
	})
	row("binary size", "≤ 30 MB", func(b *binary) string { return fmt.Sprintf("%.1f MB", float64(b.size)/(1<<20)) })
	fmt.Printf("\n%s API; %d logical CPUs, %s/%s, %s, load average %s at the end\n", provider, runtime.NumCPU(), runtime.GOOS, runtime.GOARCH, runtime.Version(), stats.LoadAverage())
}

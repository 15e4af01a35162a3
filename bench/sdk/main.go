// Command sdk measures what a session driven by the TypeScript Agent SDK
// costs per turn against the same turns run headless, and the peak memory
// of the CLI the SDK drives, for mini-claude and for Claude Code:
//
//	go run ./bench/sdk [-sessions 3] [-turns 10] [-bin path/to/mini-claude] [-claude path|none] [-npm DIR]
//
// Each session is TURNS user messages, each asking the scripted model
// server (internal/llm/llmtest, in-process) for a Read of a.txt and then a
// one-line answer, so every turn is two model requests on a conversation
// that grows by the same messages either way. Through the SDK (drive.mjs,
// with the SDK that .ci/run installs) the messages go to one process over
// streaming input, each sent once the previous result arrived; a turn's
// time runs from sending the message to its result, as the program sees
// them. Headless, each turn is one `-p` run continuing the conversation
// (`-c`), timed from exec to exit. The model answers at once, so the times
// are the CLIs' own overhead. Peak RSS is the largest sum of VmRSS over the
// CLI's process tree (the SDK's node process left out), sampled every 5 ms.
// It prints markdown tables of medians with min–max.
package main

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mini-claude/mini-claude/bench/build"
	"github.com/mini-claude/mini-claude/bench/rss"
	"github.com/mini-claude/mini-claude/bench/stats"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

//go:embed drive.mjs
var driveScript []byte

// model is the model both CLIs are told to use.
const model = "claude-sonnet-4-5-20250929"

func main() {
	home, _ := os.UserHomeDir()
	cache, _ := os.UserCacheDir()
	sessions := flag.Int("sessions", 3, "measured sessions per CLI and way, after one warm-up session")
	turns := flag.Int("turns", 10, "user turns per session")
	bin := flag.String("bin", "", "mini-claude binary to measure (default: build ./cmd/mini-claude)")
	claude := flag.String("claude", filepath.Join(home, ".cache", "mini-claude-ref", "node_modules", ".bin", "claude"), `Claude Code's executable, or "none"`)
	npm := flag.String("npm", envOr("MINI_CLAUDE_TEST_NPM", filepath.Join(cache, "mini-claude", "npm")), "folder whose node_modules holds the Agent SDK (.ci/run installs it)")
	flag.Parse()
	if err := measure(*sessions, *turns, *bin, *claude, *npm); err != nil {
		fmt.Fprintln(os.Stderr, "sdk:", err)
		os.Exit(1)
	}
}

func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}

// cli is one program measured.
type cli struct {
	name string
	bin  string
}

// figures are what the sessions of one CLI measured, one way or the other.
type figures struct {
	first, rest []time.Duration // a session's first turn; its other turns
	session     []time.Duration // a whole session, start-up included
	peakKB      []int64         // a session's peak RSS (headless: its largest run)
}

func measure(sessions, turns int, bin, claude, npm string) error {
	if _, err := os.Stat(filepath.Join(npm, "node_modules", "@anthropic-ai", "claude-agent-sdk", "sdk.mjs")); err != nil {
		return fmt.Errorf("the Agent SDK is not in %s: run .ci/run or give -npm", npm)
	}
	scratch, err := os.MkdirTemp("", "mini-claude-bench-sdk")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	if bin, err = build.MiniClaude(bin, scratch); err != nil {
		return err
	}
	script := filepath.Join(scratch, "drive.mjs")
	if err := os.WriteFile(script, driveScript, 0o644); err != nil {
		return err
	}
	clis := []cli{{"mini-claude", bin}}
	if claude != "none" {
		clis = append(clis, cli{"Claude Code", claude})
	}
	srv, err := llmtest.Start()
	if err != nil {
		return err
	}
	defer srv.Close()
	results := map[string][2]figures{}
	for _, c := range clis {
		var sdk, headless figures
		for i := range sessions + 1 {
			for way, f := range []*figures{&sdk, &headless} {
				dir := filepath.Join(scratch, fmt.Sprintf("%s-%d-%d", strings.ReplaceAll(c.name, " ", ""), i, way))
				proj, err := project(dir, srv.URL)
				if err != nil {
					return err
				}
				srv.ServeByHistory(modelScript(proj, turns)...)
				before := len(srv.Requests())
				var s figures
				if way == 0 {
					s, err = sdkSession(c, proj, dir, script, npm, srv.URL, turns)
				} else {
					s, err = headlessSession(c, proj, dir, srv.URL, turns)
				}
				if err != nil {
					return fmt.Errorf("%s, session %d: %w", c.name, i, err)
				}
				if n := len(srv.Requests()) - before; n != 2*turns {
					return fmt.Errorf("%s, session %d: the server saw %d requests, want %d", c.name, i, n, 2*turns)
				}
				if v := srv.Violations(); len(v) > 0 {
					return fmt.Errorf("%s, session %d: protocol violations: %q", c.name, i, v)
				}
				if i > 0 {
					f.first = append(f.first, s.first...)
					f.rest = append(f.rest, s.rest...)
					f.session = append(f.session, s.session...)
					f.peakKB = append(f.peakKB, s.peakKB...)
				}
			}
		}
		results[c.name] = [2]figures{sdk, headless}
	}
	report(clis, results, sessions, turns)
	return nil
}

// modelScript is a turn's Read of the project's a.txt and its answer, turns times.
func modelScript(proj string, turns int) []llmtest.Turn {
	read, _ := json.Marshal(map[string]string{"file_path": filepath.Join(proj, "a.txt")})
	var script []llmtest.Turn
	for i := range turns {
		script = append(script,
			llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("", "Read", string(read))}},
			llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text(fmt.Sprintf("Answer %d.", i+1))}})
	}
	return script
}

// project makes a project holding a.txt and a HOME beside it in which
// Claude Code has been through onboarding and trusts the project.
func project(dir, url string) (string, error) {
	proj, home := filepath.Join(dir, "proj"), filepath.Join(dir, "home")
	for _, d := range []string{proj, home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return "", err
		}
	}
	if err := os.WriteFile(filepath.Join(proj, "a.txt"), []byte("hello\n"), 0o644); err != nil {
		return "", err
	}
	state, _ := json.Marshal(map[string]any{"hasCompletedOnboarding": true,
		"customApiKeyResponses": map[string]any{"approved": []string{"bench"}, "rejected": []string{}},
		"projects":              map[string]any{proj: map[string]any{"hasTrustDialogAccepted": true}}})
	return proj, os.WriteFile(filepath.Join(home, ".claude.json"), state, 0o644)
}

// env is the environment of a run in dir against the server at url.
func env(dir, url string) []string {
	return []string{"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Join(dir, "home"), "TERM=dumb", "IS_SANDBOX=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_TELEMETRY=1", "DISABLE_AUTOUPDATER=1",
		"ANTHROPIC_BASE_URL=" + url, "ANTHROPIC_API_KEY=bench"}
}

// sdkSession runs one session through the SDK.
func sdkSession(c cli, proj, dir, script, npm, url string, turns int) (figures, error) {
	cmd := exec.Command("node", script)
	cmd.Dir = proj
	cmd.Env = append(env(dir, url), "SDK_NPM="+npm, "SDK_CLI="+c.bin, "SDK_CWD="+proj, "TURNS="+strconv.Itoa(turns), "MODEL="+model)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		return figures{}, err
	}
	peak := rss.SampleTree(cmd.Process.Pid, false)
	err := cmd.Wait()
	peakKB := peak()
	if err != nil {
		return figures{}, fmt.Errorf("node drive.mjs: %w\n%s", err, tail(stderr.Bytes()))
	}
	var out struct {
		Turns   []float64 `json:"turns"`
		Session float64   `json:"session"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil || len(out.Turns) != turns {
		return figures{}, fmt.Errorf("drive.mjs printed %q (%v)\n%s", stdout.Bytes(), err, tail(stderr.Bytes()))
	}
	f := figures{session: []time.Duration{fromMS(out.Session)}, peakKB: []int64{peakKB}, first: []time.Duration{fromMS(out.Turns[0])}}
	for _, t := range out.Turns[1:] {
		f.rest = append(f.rest, fromMS(t))
	}
	return f, nil
}

// headlessSession runs the same turns as -p runs, each continuing the last.
func headlessSession(c cli, proj, dir, url string, turns int) (figures, error) {
	f := figures{peakKB: []int64{0}}
	var total time.Duration
	for i := range turns {
		args := []string{"-p", fmt.Sprintf("Question %d", i+1), "--output-format", "stream-json", "--verbose",
			"--model", model, "--allowedTools", "Read"}
		if i > 0 {
			args = append(args, "-c")
		}
		cmd := exec.Command(c.bin, args...)
		cmd.Dir = proj
		cmd.Env = env(dir, url)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		start := time.Now()
		if err := cmd.Start(); err != nil {
			return figures{}, err
		}
		peak := rss.SampleTree(cmd.Process.Pid, true)
		err := cmd.Wait()
		wall := time.Since(start)
		f.peakKB[0] = max(f.peakKB[0], peak())
		if err != nil {
			return figures{}, fmt.Errorf("turn %d: %w\n%s", i+1, err, tail(stderr.Bytes()))
		}
		if !bytes.Contains(stdout.Bytes(), []byte(`"subtype":"success"`)) {
			return figures{}, fmt.Errorf("turn %d: no successful result\n%s", i+1, tail(stdout.Bytes()))
		}
		total += wall
		if i == 0 {
			f.first = append(f.first, wall)
		} else {
			f.rest = append(f.rest, wall)
		}
	}
	f.session = []time.Duration{total}
	return f, nil
}

func fromMS(ms float64) time.Duration { return time.Duration(ms * float64(time.Millisecond)) }

func tail(b []byte) []byte {
	if len(b) > 2000 {
		return b[len(b)-2000:]
	}
	return b
}

// report prints the tables.
func report(clis []cli, results map[string][2]figures, sessions, turns int) {
	fmt.Printf("Times: medians over %d sessions of %d turns (a turn's row pools the turns of every session), min–max in brackets:\n\n", sessions, turns)
	fmt.Print("| figure |")
	for _, c := range clis {
		fmt.Printf(" %s |", c.name)
	}
	if len(clis) == 2 {
		fmt.Print(" mini-claude / Claude Code |")
	}
	fmt.Print("\n|---|" + strings.Repeat("---|", len(clis)+len(clis)/2) + "\n")
	rows := []struct {
		label string
		way   int
		pick  func(figures) []time.Duration
	}{
		{"SDK: first turn (start-up and initialize included)", 0, func(f figures) []time.Duration { return f.first }},
		{fmt.Sprintf("SDK: each later turn (turns 2–%d)", turns), 0, func(f figures) []time.Duration { return f.rest }},
		{"headless: first `-p` run", 1, func(f figures) []time.Duration { return f.first }},
		{fmt.Sprintf("headless: each later `-p -c` run (turns 2–%d)", turns), 1, func(f figures) []time.Duration { return f.rest }},
		{fmt.Sprintf("SDK: the %d-turn session", turns), 0, func(f figures) []time.Duration { return f.session }},
		{fmt.Sprintf("headless: the %d runs", turns), 1, func(f figures) []time.Duration { return f.session }},
	}
	for _, r := range rows {
		fmt.Printf("| %s |", r.label)
		var meds []float64
		for _, c := range clis {
			values := r.pick(results[c.name][r.way])
			fmt.Printf(" %s |", spread(values))
			meds = append(meds, float64(stats.Median(values)))
		}
		if len(clis) == 2 {
			fmt.Printf(" %s |", ratio(meds[0], meds[1]))
		}
		fmt.Println()
	}
	fmt.Print("| SDK later turn / headless later run |")
	for _, c := range clis {
		f := results[c.name]
		fmt.Printf(" %s |", ratio(float64(stats.Median(f[0].rest)), float64(stats.Median(f[1].rest))))
	}
	if len(clis) == 2 {
		fmt.Print(" |")
	}
	fmt.Println()
	fmt.Printf("\nPeak RSS of the CLI's process tree: medians over %d sessions, min–max in brackets:\n\n", sessions)
	fmt.Print("| figure |")
	for _, c := range clis {
		fmt.Printf(" %s |", c.name)
	}
	if len(clis) == 2 {
		fmt.Print(" mini-claude / Claude Code |")
	}
	fmt.Print("\n|---|" + strings.Repeat("---|", len(clis)+len(clis)/2) + "\n")
	for way, label := range []string{fmt.Sprintf("SDK session of %d turns", turns), fmt.Sprintf("headless, largest of the %d runs", turns)} {
		fmt.Printf("| %s |", label)
		var meds []float64
		for _, c := range clis {
			kb := results[c.name][way].peakKB
			m := stats.Median(kb)
			fmt.Printf(" %.1f MB (%.1f–%.1f) |", mb(m), mb(slices.Min(kb)), mb(slices.Max(kb)))
			meds = append(meds, float64(m))
		}
		if len(clis) == 2 {
			fmt.Printf(" %s |", ratio(meds[0], meds[1]))
		}
		fmt.Println()
	}
	fmt.Printf("\n%d logical CPUs, %s/%s, %s\n", runtime.NumCPU(), runtime.GOOS, runtime.GOARCH, runtime.Version())
}

// spread is the median with the range in brackets, in ms.
func spread(values []time.Duration) string {
	return fmt.Sprintf("%s ms (%s–%s)", msText(stats.Median(values)), msText(slices.Min(values)), msText(slices.Max(values)))
}

func msText(d time.Duration) string {
	ms := float64(d.Microseconds()) / 1000
	if ms >= 100 {
		return fmt.Sprintf("%.0f", ms)
	}
	return fmt.Sprintf("%.1f", ms)
}

func mb(kb int64) float64 { return float64(kb) / 1024 }

// ratio is a / b, and its inverse when below 1.
func ratio(a, b float64) string {
	if b == 0 {
		return "—"
	}
	r := a / b
	if r < 1 {
		return fmt.Sprintf("%.3f (1/%.1f)", r, 1/r)
	}
	return fmt.Sprintf("%.2f", r)
}

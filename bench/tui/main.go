// Command tui measures the interactive UI over a long session: it runs the
// binary in tmux against the scripted model server for a number of turns (each
// a markdown answer, a Bash call and its output, then a closing answer) and
// reports, at turn 10 and at the last turn, the time from a key sent to the
// key drawn on the screen and the process's peak RSS (VmHWM).
//
//	go run ./bench/tui [-turns 500] [-keys 30] [-bin path/to/mini-claude]
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
	"time"

	"github.com/mini-claude/mini-claude/bench/build"
	"github.com/mini-claude/mini-claude/bench/stats"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

func main() {
	turns := flag.Int("turns", 500, "user turns in the session")
	keys := flag.Int("keys", 30, "keystrokes timed at each checkpoint")
	bin := flag.String("bin", "", "mini-claude binary (default: build ./cmd/mini-claude)")
	flag.Parse()
	if err := measure(*turns, *keys, *bin); err != nil {
		fmt.Fprintln(os.Stderr, "tui bench:", err)
		os.Exit(1)
	}
}

// checkpoint is what was measured after a turn.
type checkpoint struct {
	turn     int
	keyMedia time.Duration
	keyP90   time.Duration
	hwmKB    int64
}

func measure(turns, keys int, bin string) error {
	scratch, err := os.MkdirTemp("", "mini-claude-tui-bench")
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
	srv.ServeByHistory(script(turns)...)
	t := &tmux{socket: filepath.Join(scratch, "tmux.sock")}
	defer t.cmd("kill-server")
	project := filepath.Join(scratch, "project")
	if err := os.MkdirAll(project, 0o755); err != nil {
		return err
	}
	env := fmt.Sprintf("exec env -i PATH=%q HOME=%q ANTHROPIC_API_KEY=bench ANTHROPIC_BASE_URL=%q TERM=xterm-256color %q --allowedTools Bash",
		os.Getenv("PATH"), scratch, srv.URL, bin)
	if _, err := t.cmd("new-session", "-d", "-x", "120", "-y", "40", "-c", project, env); err != nil {
		return err
	}
	if err := t.waitFor("shift+tab", 10*time.Second); err != nil {
		return err
	}
	pidText, err := t.cmd("display", "-p", "-t", "0", "#{pane_pid}")
	if err != nil {
		return err
	}
	pid := strings.TrimSpace(pidText)
	var points []checkpoint
	started := time.Now()
	for turn := 1; turn <= turns; turn++ {
		if err := t.typeLine(fmt.Sprintf("turn %d", turn)); err != nil {
			return err
		}
		if err := t.waitFor(fmt.Sprintf("Closing answer %d.", turn), 20*time.Second); err != nil {
			return fmt.Errorf("turn %d: %w", turn, err)
		}
		if turn == 10 || turn == turns {
			p, err := timeKeys(t, keys, pid)
			if err != nil {
				return err
			}
			p.turn = turn
			points = append(points, p)
		}
	}
	report(points, time.Since(started), turns)
	return nil
}

// script is the model's side of the session: for each user turn, an answer
// with a Bash call, then a closing answer.
func script(turns int) []llmtest.Turn {
	var out []llmtest.Turn
	for i := 1; i <= turns; i++ {
		out = append(out,
			llmtest.Turn{Blocks: []llm.ContentBlock{
				llmtest.Text(fmt.Sprintf("Turn %d: checking **the build** with:\n\n- `go vet`\n- the tests", i)),
				llmtest.ToolUse(fmt.Sprintf("b%d", i), "Bash", fmt.Sprintf(`{"command":"echo built %d; echo line two; echo line three; echo line four"}`, i)),
			}},
			llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text(fmt.Sprintf("Closing answer %d.", i))}},
		)
	}
	return out
}

// timeKeys types keys characters one at a time, timing each from send-keys to
// the screen showing it, then clears the input; it reads VmHWM afterwards.
func timeKeys(t *tmux, keys int, pid string) (checkpoint, error) {
	var times []time.Duration
	typed := ""
	for i := 0; i < keys; i++ {
		c := string(rune('a' + i%26))
		typed += c
		start := time.Now()
		if _, err := t.cmd("send-keys", "-t", "0", "-l", c); err != nil {
			return checkpoint{}, err
		}
		if err := t.waitFor("> "+typed, 5*time.Second); err != nil {
			return checkpoint{}, err
		}
		times = append(times, time.Since(start))
	}
	for range typed {
		if _, err := t.cmd("send-keys", "-t", "0", "BSpace"); err != nil {
			return checkpoint{}, err
		}
	}
	slices.Sort(times)
	return checkpoint{keyMedia: times[len(times)/2], keyP90: times[len(times)*9/10], hwmKB: vmHWM(pid)}, nil
}

func vmHWM(pid string) int64 {
	data, err := os.ReadFile("/proc/" + pid + "/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			var kb int64
			fmt.Sscan(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), &kb)
			return kb
		}
	}
	return 0
}

func report(points []checkpoint, took time.Duration, turns int) {
	fmt.Printf("| figure | turn %d | turn %d | ratio |\n|---|---|---|---|\n", points[0].turn, points[len(points)-1].turn)
	a, b := points[0], points[len(points)-1]
	fmt.Printf("| keystroke to screen, median | %.1f ms | %.1f ms | %.2f× |\n", stats.MS(a.keyMedia), stats.MS(b.keyMedia), float64(b.keyMedia)/float64(a.keyMedia))
	fmt.Printf("| keystroke to screen, p90 | %.1f ms | %.1f ms | %.2f× |\n", stats.MS(a.keyP90), stats.MS(b.keyP90), float64(b.keyP90)/float64(a.keyP90))
	fmt.Printf("| peak RSS (VmHWM) | %.1f MB | %.1f MB | %.2f× |\n", float64(a.hwmKB)/1024, float64(b.hwmKB)/1024, float64(b.hwmKB)/float64(a.hwmKB))
	fmt.Printf("\n%d turns (%d model responses, %d Bash calls) in %s; tmux 120x40; %d logical CPUs, %s/%s, %s\n",
		turns, 2*turns, turns, took.Round(time.Second), runtime.NumCPU(), runtime.GOOS, runtime.GOARCH, runtime.Version())
}

// tmux talks to a private tmux server.
type tmux struct{ socket string }

func (t *tmux) cmd(args ...string) (string, error) {
	out, err := exec.Command("tmux", append([]string{"-S", t.socket}, args...)...).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("tmux %v: %w: %s", args, err, out)
	}
	return string(out), nil
}

func (t *tmux) typeLine(s string) error {
	if _, err := t.cmd("send-keys", "-t", "0", "-l", s); err != nil {
		return err
	}
	_, err := t.cmd("send-keys", "-t", "0", "Enter")
	return err
}

// waitFor polls the screen until it shows text.
func (t *tmux) waitFor(text string, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		shot, err := t.cmd("capture-pane", "-p", "-t", "0")
		if err == nil && strings.Contains(shot, text) {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the screen never showed %q:\n%s", text, shot)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

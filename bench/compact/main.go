// Command compact measures mini-claude's memory over a long session: the
// binary runs one headless prompt for 1,000 model turns against the scripted
// server, each turn a Read or Bash call with a sizeable result and a paragraph
// of text, with a --compact-threshold small enough that old results are
// cleared every few turns and the history is summarised every few dozen. When
// the requests of turns 100 and 1,000 arrive (the binary is then waiting on
// the model), it reads the child's peak RSS (VmHWM) and RSS from /proc, and
// the live heap after the last garbage collection from GODEBUG=gctrace=1.
// It prints a markdown table and fails when the peak RSS at turn 1,000 is
// more than 1.5 times the one at turn 100.
//
//	go run ./bench/compact [-turns 1000] [-threshold 30000] [-bin path/to/mini-claude]
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mini-claude/mini-claude/bench/build"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// maxRatio is the target: peak RSS at the last turn over peak RSS at turn 100.
const maxRatio = 1.5

// sample is the child's memory when the request of one turn arrived.
type sample struct {
	turn                 int
	peakRSSKB, rssKB     int64
	liveHeapMB           int64
	requestBytes         int
	summaries, clearings int
}

func main() {
	turns := flag.Int("turns", 1000, "model turns of the session")
	threshold := flag.Int("threshold", 30000, "--compact-threshold of the run, in tokens")
	bin := flag.String("bin", "", "mini-claude binary to measure (default: build ./cmd/mini-claude)")
	flag.Parse()
	if err := run(*turns, *threshold, *bin); err != nil {
		fmt.Fprintln(os.Stderr, "compact:", err)
		os.Exit(1)
	}
}

func run(turns, threshold int, bin string) error {
	if turns <= 100 {
		return errors.New("-turns must be more than 100")
	}
	scratch, err := os.MkdirTemp("", "mini-claude-compact")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	if bin, err = build.MiniClaude(bin, scratch); err != nil {
		return err
	}
	project := filepath.Join(scratch, "project")
	if err := writeProject(project); err != nil {
		return err
	}
	s := &session{turns: turns, project: project, heap: &heapTracker{}}
	srv, err := llmtest.Start()
	if err != nil {
		return err
	}
	defer srv.Close()
	srv.SetRecord(false)
	srv.ServeFunc(s.answer)
	start := time.Now()
	if err := s.runBinary(bin, scratch, srv.URL, threshold); err != nil {
		return err
	}
	if v := srv.Violations(); len(v) > 0 {
		return fmt.Errorf("the scripted server saw %d protocol violations, the first: %s", len(v), v[0])
	}
	return s.report(time.Since(start), threshold)
}

// files is how many files the session reads in turn; fileLines their length.
const (
	files     = 20
	fileLines = 400
)

func writeProject(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for i := range files {
		var b strings.Builder
		for line := range fileLines {
			fmt.Fprintf(&b, "func handler%d_%d(w http.ResponseWriter, r *http.Request) { serve(w, r, %d) }\n", i, line, line)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("file%02d.go", i)), []byte(b.String()), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// session scripts the model's side and samples the child's memory.
type session struct {
	turns   int
	project string
	pid     atomic.Int64
	heap    *heapTracker

	mu        sync.Mutex
	turn      int
	summaries int
	clearings int
	samples   []sample
	sampleErr error
}

// paragraph is the text of each turn, so the history grows by more than tool results.
var paragraph = strings.Repeat("Looking at the handlers to see how requests are served and where the cache is filled. ", 10)

// answer is the scripted model: a summary for a summarising request, else the
// next turn's tool call, and the final answer after the last turn.
func (s *session) answer(req llmtest.Request) llmtest.Turn {
	usage := llm.Usage{InputTokens: len(req.Body) / 4, OutputTokens: 200}
	last := req.Messages[len(req.Messages)-1]
	if strings.Contains(last.Text(), "Write that summary now.") {
		s.mu.Lock()
		s.summaries++
		s.mu.Unlock()
		return llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("<summary>" + strings.Repeat("The handlers were read and the cache path traced. ", 40) + "</summary>")}, Usage: usage}
	}
	s.mu.Lock()
	s.turn++
	turn := s.turn
	if strings.Contains(string(req.Body), "[Old tool result cleared") {
		s.clearings++
	}
	if turn == 100 || turn == s.turns {
		s.sample(turn, len(req.Body))
	}
	s.mu.Unlock()
	if turn >= s.turns {
		return llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("Done.")}, Usage: usage}
	}
	var call llm.ContentBlock
	if turn%2 == 0 {
		path := filepath.Join(s.project, fmt.Sprintf("file%02d.go", turn/2%files))
		call = llmtest.ToolUse("", "Read", fmt.Sprintf(`{"file_path":%q,"offset":%d,"limit":100}`, path, 1+turn%300))
	} else {
		call = llmtest.ToolUse("", "Bash", fmt.Sprintf(`{"command":"seq %d %d"}`, turn*10000, turn*10000+1200))
	}
	return llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text(paragraph), call}, Usage: usage}
}

// sample records the child's memory; s.mu is held.
func (s *session) sample(turn, requestBytes int) {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.pid.Load()))
	if err != nil {
		s.sampleErr = fmt.Errorf("turn %d: %w", turn, err)
		return
	}
	s.samples = append(s.samples, sample{
		turn: turn, peakRSSKB: statusKB(string(status), "VmHWM:"), rssKB: statusKB(string(status), "VmRSS:"),
		liveHeapMB: s.heap.live(), requestBytes: requestBytes, summaries: s.summaries, clearings: s.clearings,
	})
}

func statusKB(status, field string) int64 {
	for line := range strings.SplitSeq(status, "\n") {
		if rest, ok := strings.CutPrefix(line, field); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb
		}
	}
	return 0
}

func (s *session) runBinary(bin, scratch, url string, threshold int) error {
	home := filepath.Join(scratch, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		return err
	}
	cmd := exec.Command(bin, "-p", "Trace how the handlers fill the cache.", "--dangerously-skip-permissions",
		"--compact-threshold", strconv.Itoa(threshold))
	cmd.Dir = s.project
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "MINI_CLAUDE_HOME=" + filepath.Join(home, ".mini-claude"),
		"ANTHROPIC_API_KEY=bench", "ANTHROPIC_BASE_URL=" + url, "IS_SANDBOX=1", "GODEBUG=gctrace=1"}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return err
	}
	var out strings.Builder
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil {
		return err
	}
	s.pid.Store(int64(cmd.Process.Pid))
	var errText strings.Builder
	done := make(chan struct{})
	go func() {
		s.heap.follow(stderr, &errText)
		close(done)
	}()
	<-done
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("mini-claude: %w; stderr: %s", err, errText.String())
	}
	if strings.TrimSpace(out.String()) != "Done." {
		return fmt.Errorf("mini-claude printed %q, want Done.", out.String())
	}
	return s.sampleErr
}

// heapTracker follows gctrace lines: "gc 12 @0.5s 1%: … 4->5->2 MB, …".
type heapTracker struct {
	mu      sync.Mutex
	lastMB  int64
	maxLive int64
}

var gcLine = regexp.MustCompile(`^gc \d+ @.* (\d+)->(\d+)->(\d+) MB`)

// follow reads stderr to its end, keeping the live heap of the last
// collection and copying every other line to rest.
func (h *heapTracker) follow(r io.Reader, rest *strings.Builder) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		m := gcLine.FindStringSubmatch(sc.Text())
		if m == nil {
			rest.WriteString(sc.Text() + "\n")
			continue
		}
		live, _ := strconv.ParseInt(m[3], 10, 64)
		h.mu.Lock()
		h.lastMB = live
		h.maxLive = max(h.maxLive, live)
		h.mu.Unlock()
	}
}

func (h *heapTracker) live() int64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.lastMB
}

func (s *session) report(wall time.Duration, threshold int) error {
	if len(s.samples) != 2 {
		return fmt.Errorf("%d samples taken, want 2 (turn 100 and turn %d)", len(s.samples), s.turns)
	}
	first, last := s.samples[0], s.samples[1]
	ratio := float64(last.peakRSSKB) / float64(first.peakRSSKB)
	fmt.Printf("| figure | turn %d | turn %d |\n|---|---|---|\n", first.turn, last.turn)
	fmt.Printf("| peak RSS (VmHWM) | %.1f MB | %.1f MB |\n", mb(first.peakRSSKB), mb(last.peakRSSKB))
	fmt.Printf("| RSS (VmRSS) | %.1f MB | %.1f MB |\n", mb(first.rssKB), mb(last.rssKB))
	fmt.Printf("| live heap after the last GC (gctrace) | %d MB | %d MB |\n", first.liveHeapMB, last.liveHeapMB)
	fmt.Printf("| request body | %d KB | %d KB |\n", first.requestBytes/1024, last.requestBytes/1024)
	fmt.Printf("| summaries so far | %d | %d |\n", first.summaries, last.summaries)
	fmt.Printf("| requests with cleared results so far | %d | %d |\n", first.clearings, last.clearings)
	fmt.Printf("\npeak RSS ratio turn %d / turn %d: %.2f (target ≤ %.1f); largest live heap %d MB; --compact-threshold %d; wall %.1f s\n",
		last.turn, first.turn, ratio, maxRatio, s.heap.maxLive, threshold, wall.Seconds())
	fmt.Printf("%d logical CPUs, %s/%s, %s\n", runtime.NumCPU(), runtime.GOOS, runtime.GOARCH, runtime.Version())
	if ratio > maxRatio {
		return fmt.Errorf("peak RSS grew %.2f times from turn %d to turn %d, over the %.1f target", ratio, first.turn, last.turn, maxRatio)
	}
	return nil
}

func mb(kb int64) float64 { return float64(kb) / 1024 }

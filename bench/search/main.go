// Command search measures Grep and Glob on a large tree against the tools they
// stand in for, in one run: Grep through rg against raw rg, Grep's built-in
// search against raw rg, and Glob against find. It prints medians of several
// runs and their ratios.
//
//	go run ./bench/search -files 60000 -runs 7
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools/glob"
	"github.com/mini-claude/mini-claude/internal/tools/grep"
)

func main() {
	dir := flag.String("dir", filepath.Join(os.TempDir(), "mini-claude-search-bench"), "where the generated tree lives (reused when present)")
	files := flag.Int("files", 60000, "number of files to generate")
	runs := flag.Int("runs", 7, "runs per measurement; the median is reported")
	tree := flag.String("tree", "", "search this existing tree instead of generating one (for example $(go env GOROOT)/src)")
	flag.Parse()
	if *tree != "" {
		*dir, *files = *tree, 0
	}
	if err := run(*dir, *files, *runs); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func run(dir string, files, runs int) error {
	rg, err := exec.LookPath("rg")
	if err != nil {
		return fmt.Errorf("rg is not on PATH: install ripgrep to compare against it")
	}
	n, err := generate(dir, files)
	if err != nil {
		return err
	}
	fmt.Printf("tree: %s, %d files; %d runs each, interleaved; medians of the times and of the round-by-round ratios; GOMAXPROCS=%d\n\n", dir, n, runs, runtime.GOMAXPROCS(0))
	grepCases := []struct{ name, input string }{
		{"literal, files_with_matches", `{"pattern": "Errorf"}`},
		{"regex, files_with_matches", `{"pattern": "func \\w+Error\\("}`},
		{"case-insensitive, count", `{"pattern": "deadline", "-i": true, "output_mode": "count"}`},
		{"literal, content", `{"pattern": "ErrUnexpectedEOF", "output_mode": "content", "head_limit": 0}`},
		{"common word, content", `{"pattern": "err", "output_mode": "content"}`},
	}
	fmt.Printf("%-30s %10s %10s %10s %8s %8s\n", "Grep", "raw rg", "via rg", "built-in", "rg ×", "built-in ×")
	for _, c := range grepCases {
		m := measure(runs,
			func() error { return rawRipgrep(rg, dir, c.input) },
			func() error { return callGrep(dir, c.input, "rg") },
			func() error { return callGrep(dir, c.input, "builtin") })
		fmt.Printf("%-30s %10s %10s %10s %8.2f %8.2f\n", c.name, ms(m.medians[0]), ms(m.medians[1]), ms(m.medians[2]), m.ratio(1, 0), m.ratio(2, 0))
	}
	fmt.Printf("\n%-30s %10s %12s %10s %8s %8s\n", "Glob", "find", "find+mtime", "Glob", "×find", "×mtime")
	for _, pattern := range []string{"**/*.go", "*_test.go"} {
		name := strings.TrimPrefix(pattern, "**/")
		find := func(extra ...string) func() error {
			return func() error {
				args := append([]string{dir, "-type", "f", "-name", name, "-not", "-path", "*/.git/*"}, extra...)
				return exec.Command("find", args...).Run()
			}
		}
		m := measure(runs, find(), find("-printf", "%T@ %p\\n"), func() error { return callGlob(dir, pattern) })
		fmt.Printf("%-30s %10s %12s %10s %8.2f %8.2f\n", pattern, ms(m.medians[0]), ms(m.medians[1]), ms(m.medians[2]), m.ratio(2, 0), m.ratio(2, 1))
	}
	return nil
}

// rawRipgrep runs rg with the arguments Grep gives it, printing to a pipe that
// is read to the end, as Grep reads it.
func rawRipgrep(rg, dir, input string) error {
	var in map[string]any
	json.Unmarshal([]byte(input), &in)
	args := []string{"--no-config", "--hidden", "--no-follow", "--glob", "!.git", "--glob", "!.svn", "--glob", "!.hg",
		"--glob", "!.bzr", "--glob", "!.jj", "--glob", "!.sl"}
	if in["-i"] == true {
		args = append(args, "-i")
	}
	switch in["output_mode"] {
	case "content":
		args = append(args, "--json", "-A", "0", "-B", "0")
	case "count":
		args = append(args, "-c", "-H", "--null")
	default:
		args = append(args, "-l", "--null")
	}
	cmd := exec.Command(rg, append(args, "-e", in["pattern"].(string), "--", ".")...)
	cmd.Dir = dir
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	r := bufio.NewReaderSize(out, 64<<10)
	for {
		if _, err := r.ReadSlice('\n'); err != nil && err != bufio.ErrBufferFull {
			break
		}
	}
	if err := cmd.Wait(); err != nil && cmd.ProcessState.ExitCode() != 1 {
		return err
	}
	return nil
}

func callGrep(dir, input, engine string) error {
	os.Setenv(grep.EngineEnv, engine)
	return call(grep.Tool, dir, input)
}

func callGlob(dir, pattern string) error {
	return call(glob.Tool, dir, fmt.Sprintf(`{"pattern": %q}`, pattern))
}

func call(t tool.Tool, dir, input string) error {
	env := &tool.Env{Cwd: dir, Session: tool.NewSession(dir)}
	_, err := tool.Exec(context.Background(), t, env, json.RawMessage(input), nil)
	return err
}

// measurement is what measure found: each contender's median time, and the
// times of every round, for ratios taken round by round.
type measurement struct {
	medians []time.Duration
	rounds  [][]time.Duration
}

// measure runs each contender once to warm up, then runs times in turn (so
// they share the machine's ups and downs).
func measure(runs int, contenders ...func() error) measurement {
	var m measurement
	for round := -1; round < runs; round++ {
		times := make([]time.Duration, len(contenders))
		for i, f := range contenders {
			start := time.Now()
			if err := f(); err != nil {
				fmt.Fprintln(os.Stderr, err)
			}
			times[i] = time.Since(start)
		}
		if round >= 0 {
			m.rounds = append(m.rounds, times)
		}
	}
	for i := range contenders {
		column := make([]time.Duration, len(m.rounds))
		for r, times := range m.rounds {
			column[r] = times[i]
		}
		slices.Sort(column)
		m.medians = append(m.medians, column[len(column)/2])
	}
	return m
}

// ratio is the median over the rounds of contender a's time over b's, so a
// load that comes and goes weighs on both sides of each ratio alike.
func (m measurement) ratio(a, b int) float64 {
	ratios := make([]float64, len(m.rounds))
	for r, times := range m.rounds {
		ratios[r] = float64(times[a]) / float64(times[b])
	}
	slices.Sort(ratios)
	return ratios[len(ratios)/2]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1fms", float64(d.Microseconds())/1000) }

// generate writes files files of Go-like source under dir, built from the
// lines of the Go distribution's own sources, in a tree four levels deep with
// a .gitignore and ignored folders; an existing tree is reused.
func generate(dir string, files int) (int, error) {
	if n := count(dir); n >= files && n > 0 {
		return n, nil
	}
	os.RemoveAll(dir)
	lines, err := corpus()
	if err != nil {
		return 0, err
	}
	rng := rand.New(rand.NewPCG(1, 2))
	if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
		return 0, err
	}
	os.WriteFile(filepath.Join(dir, ".git", "HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
	os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("*.tmp\nbuild/\nvendor/cache/\n"), 0o644)
	exts := []string{".go", ".go", ".go", "_test.go", ".md", ".txt", ".tmp", ".json"}
	for i := range files {
		sub := filepath.Join(dir, fmt.Sprintf("pkg%02d", i%40), fmt.Sprintf("mod%02d", (i/40)%25), fmt.Sprintf("part%d", (i/1000)%8))
		if i%50 == 0 {
			sub = filepath.Join(dir, "build", fmt.Sprintf("out%d", i%7))
		}
		if err := os.MkdirAll(sub, 0o755); err != nil {
			return 0, err
		}
		var b strings.Builder
		for range 20 + rng.IntN(120) {
			b.WriteString(lines[rng.IntN(len(lines))])
			b.WriteByte('\n')
		}
		name := filepath.Join(sub, fmt.Sprintf("file%05d%s", i, exts[i%len(exts)]))
		if err := os.WriteFile(name, []byte(b.String()), 0o644); err != nil {
			return 0, err
		}
	}
	return count(dir), nil
}

func count(dir string) int {
	n := 0
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			n++
		}
		return nil
	})
	return n
}

// corpus is the lines of the Go sources under GOROOT/src/net and /io.
func corpus() ([]string, error) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return nil, err
	}
	root := filepath.Join(strings.TrimSpace(string(out)), "src")
	var lines []string
	for _, sub := range []string{"net/http", "io", "os", "context"} {
		filepath.WalkDir(filepath.Join(root, sub), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
				return nil
			}
			data, _ := os.ReadFile(path)
			lines = append(lines, strings.Split(string(data), "\n")...)
			return nil
		})
	}
	if len(lines) == 0 {
		return nil, fmt.Errorf("no Go sources found under %s", root)
	}
	return lines, nil
}

package main

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"
)

// report is a whole run: its scenarios' results and what was measured.
type report struct {
	// peer is the name of the agent mini-claude is compared with.
	peer     string
	pairs    int
	started  time.Time
	versions [2]string
	load     string
	results  []result
}

// figure is one measured quantity: its name, how to read it from a sample
// and how to print it.
type figure struct {
	name  string
	value func(sample) float64
	unit  string
}

var figures = []figure{
	{"start → first request", func(s sample) float64 { return ms(s.firstRequest) }, "ms"},
	{"wall time", func(s sample) float64 { return ms(s.wall) }, "ms"},
	{"user+sys CPU", func(s sample) float64 { return ms(s.cpu) }, "ms"},
	{"peak RSS, process tree", func(s sample) float64 { return float64(s.peakRSSKB) / 1024 }, "MB"},
	{"bytes sent to the model", func(s sample) float64 { return float64(s.requestBytes) / 1024 }, "KB"},
	{"first request's size", func(s sample) float64 { return float64(s.firstBytes) / 1024 }, "KB"},
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func median(values []float64) float64 {
	sorted := slices.Clone(values)
	slices.Sort(sorted)
	n := len(sorted)
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}

// markdown is the results table: per scenario and figure, the medians of both
// agents and the median of the pair-by-pair ratios mini-claude / peer.
func (r report) markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "| scenario | figure (median of %d pairs) | %s | mini-claude | mini-claude / %s (median of pair ratios) |\n|---|---|---|---|---|\n", r.pairs, r.peer, r.peer)
	for _, res := range r.results {
		for i, f := range figures {
			var cc, mc, ratio []float64
			for _, p := range res.pairs {
				a, m := f.value(p[0]), f.value(p[1])
				cc, mc = append(cc, a), append(mc, m)
				if a > 0 {
					ratio = append(ratio, m/a)
				}
			}
			name := ""
			if i == 0 {
				name = res.sc.name
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", name, f.name, format(median(cc), f.unit), format(median(mc), f.unit), formatRatio(ratio))
		}
	}
	return b.String()
}

func format(v float64, unit string) string {
	switch {
	case v >= 100:
		return fmt.Sprintf("%.0f %s", v, unit)
	case v >= 10:
		return fmt.Sprintf("%.1f %s", v, unit)
	}
	return fmt.Sprintf("%.2f %s", v, unit)
}

func formatRatio(ratios []float64) string {
	if len(ratios) == 0 {
		return "n/a"
	}
	m := median(ratios)
	if m < 1 {
		return fmt.Sprintf("%.3f (1/%.1f)", m, 1/m)
	}
	return fmt.Sprintf("%.2f", m)
}

// goal is one of the targets against Claude Code: the median pair ratio of a figure,
// in the named scenarios (all when empty), must not exceed max.
type goal struct {
	text      string
	figure    int
	scenarios []int
	max       float64
}

var goals = []goal{
	{"start → first request ≥ 20× faster, every scenario", 0, nil, 1.0 / 20},
	{"peak RSS ≤ 1/5, every scenario", 3, nil, 1.0 / 5},
	{"scenario 3 wall time ≤ 1/3", 1, []int{3}, 1.0 / 3},
	{"scenario 1 bytes sent ≤ Claude Code's", 4, []int{1}, 1},
}

// goalTable states, per goal, the worst median pair ratio over its scenarios
// and whether it meets the target; the goals are set against Claude Code only.
func (r report) goalTable() string {
	if r.peer != "Claude Code" {
		return ""
	}
	var b strings.Builder
	b.WriteString("| goal | worst median ratio | met |\n|---|---|---|\n")
	for _, g := range goals {
		worst, seen := 0.0, false
		for _, res := range r.results {
			if len(g.scenarios) > 0 && !slices.Contains(g.scenarios, res.number) {
				continue
			}
			var ratio []float64
			for _, p := range res.pairs {
				if a := figures[g.figure].value(p[0]); a > 0 {
					ratio = append(ratio, figures[g.figure].value(p[1])/a)
				}
			}
			if len(ratio) > 0 {
				worst, seen = max(worst, median(ratio)), true
			}
		}
		if !seen {
			continue
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", g.text, formatRatio([]float64{worst}), map[bool]string{true: "yes", false: "**no**"}[worst <= g.max])
	}
	return b.String()
}

func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	fields := strings.Fields(string(data))
	if len(fields) < 3 {
		return "unknown"
	}
	return strings.Join(fields[:3], " ")
}

// markers delimit the peer's section of BENCHMARKS.md.
func (r report) markers() [2]string {
	slug := strings.ToLower(strings.Fields(r.peer)[0])
	if r.peer == "Claude Code" {
		slug = "claude-code"
	}
	return [2]string{"<!-- vs-" + slug + ":start -->", "<!-- vs-" + slug + ":end -->"}
}

// section is the BENCHMARKS.md text: method, machine, versions, command and table.
func (r report) section(table string) string {
	var b strings.Builder
	marks := r.markers()
	fmt.Fprintf(&b, "%s\n## Side by side with %s (`bench/vs-claude-code.sh`)\n\n", marks[0], r.peer)
	fmt.Fprintf(&b, "Measured %s on %s, %d logical CPUs shared with other work (load average %s at the start), %s memory, %s/%s, %s.\n",
		r.started.UTC().Format("2006-01-02 15:04 MST"), cpuModel(), runtime.NumCPU(), r.load, memTotal(), runtime.GOOS, runtime.GOARCH, runtime.Version())
	fmt.Fprintf(&b, "%s %s; mini-claude %s. ", r.peer, r.versions[0], r.versions[1])
	if r.peer == "Claude Code" {
		fmt.Fprintf(&b, "Both run `-p … --output-format stream-json --verbose\n--dangerously-skip-permissions --tools %s --model %s` against the scripted model\n", toolList, claudeModel)
		b.WriteString(method + claudeCodeMethod)
	} else {
		fmt.Fprintf(&b, "Codex runs `exec --json --skip-git-repo-check\n--dangerously-bypass-approvals-and-sandbox -m %s` with a model provider of wire_api \"responses\" and no\nretries in a scratch CODEX_HOME; mini-claude runs `-p … --provider openai --model %s` on chat\ncompletions, with the flags used against Claude Code, against the scripted model\n", codexModel, codexModel)
		b.WriteString(method + codexMethod)
	}
	b.WriteString("\n" + table + "\n" + r.goalTable() + marks[1] + "\n")
	return b.String()
}

const method = `server (internal/llm/llmtest, in-process, one per agent, the turn chosen by the number of
assistant messages in the request), alternately the peer then mini-claude, one warm-up pair and
then the measured pairs, each agent with its own scratch HOME kept across its runs. Every run is
checked: exit 0, a successful end in the output, exactly the scripted number of requests, no
failed tool result, no protocol violation at the server, and for scenario 4 all 49 lines changed
on disk. "Start → first request" runs from just before exec to the server's arrival time of the
first request. CPU is the user+sys time of the waited child, which includes its waited-for
descendants. Peak RSS is the larger of the child's rusage maximum (ru_maxrss, the largest single
process) and the largest sum of VmRSS over the process tree, sampled every 5 ms through
/proc/PID/task/*/children. Bytes are the request bodies as received.
`

const claudeCodeMethod = `Claude Code runs with CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1, DISABLE_TELEMETRY=1,
DISABLE_AUTOUPDATER=1; both with IS_SANDBOX=1 and the same scripted tool calls.
`

const codexMethod = `Codex has no Read, Grep or Edit tool: its scripted model does each step with its shell tool
(exec_command) the way its models do, cat to read, rg to search and apply_patch (which Codex
intercepts) to edit, while mini-claude's does them with Read, Grep and Edit as against Claude
Code; a command's non-zero exit counts as a failed tool result. Codex starts as users start it
from npm: the node launcher script runs the packaged native binary, and both count in its tree.
`

func cpuModel() string {
	data, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "unknown CPU"
	}
	for line := range strings.Lines(string(data)) {
		if name, ok := strings.CutPrefix(line, "model name"); ok {
			return strings.TrimSpace(strings.TrimLeft(name, " \t:"))
		}
	}
	return "unknown CPU"
}

func memTotal() string {
	data, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return "unknown"
	}
	var kb int64
	for line := range strings.Lines(string(data)) {
		if _, err := fmt.Sscanf(line, "MemTotal: %d kB", &kb); err == nil {
			return fmt.Sprintf("%.1f GiB", float64(kb)/(1<<20))
		}
	}
	return "unknown"
}

// updateSection replaces the text between the markers of path with section,
// or appends section when the file has no markers yet.
func updateSection(path string, markers [2]string, section string) error {
	sectionStart, sectionEnd := markers[0], markers[1]
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	text := string(data)
	start, end := strings.Index(text, sectionStart), strings.Index(text, sectionEnd)
	switch {
	case start >= 0 && end > start:
		text = text[:start] + section + strings.TrimPrefix(text[end+len(sectionEnd):], "\n")
	case start < 0 && end < 0:
		text = strings.TrimRight(text, "\n") + "\n\n" + section
	default:
		return fmt.Errorf("%s: the markers %s and %s are not in order", path, sectionStart, sectionEnd)
	}
	return os.WriteFile(path, []byte(text), 0o644)
}

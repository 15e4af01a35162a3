package grep

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestPageKeeperShowsWhatHoldingEverythingShows searches a tree of many
// files with short pages, so ripgrep's output drops most files' text, and
// compares the result with the built-in search, which holds every line.
func TestPageKeeperShowsWhatHoldingEverythingShows(t *testing.T) {
	rg, err := exec.LookPath("rg")
	if err != nil {
		t.Skip("rg is not installed")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	dir := t.TempDir()
	for i := range 80 {
		var b strings.Builder
		for j := range rng.IntN(25) {
			switch rng.IntN(8) {
			case 0:
				b.WriteString("hit " + strings.Repeat("é", 600) + "\n")
			case 1, 2:
				fmt.Fprintf(&b, "hit line %d\n", j)
			default:
				fmt.Fprintf(&b, "other %d\n", j)
			}
		}
		if i%9 == 0 {
			b.WriteString(strings.Repeat("pad\n", 20_000) + "hit\x00after\n")
		}
		path := filepath.Join(dir, fmt.Sprintf("d%d", i%7), fmt.Sprintf("f%02d.txt", i))
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	inputs := []string{
		`{"pattern": "hit", "output_mode": "content"}`,
		`{"pattern": "hit", "output_mode": "content", "head_limit": 5}`,
		`{"pattern": "hit", "output_mode": "content", "head_limit": 30, "offset": 17}`,
		`{"pattern": "hit", "output_mode": "content", "head_limit": 40, "-C": 1}`,
		`{"pattern": "hit", "output_mode": "content", "head_limit": 12, "offset": 300, "-B": 2}`,
		`{"pattern": "line", "output_mode": "content", "head_limit": 9, "-n": false}`,
	}
	for _, input := range inputs {
		for range 3 {
			builtin, errB := execute(t, dir, "", input)
			viaRg, errR := execute(t, dir, rg, input)
			if errB != nil || errR != nil || builtin != viaRg {
				t.Fatalf("input %s:\n--- rg (err %v)\n%s\n--- built-in (err %v)\n%s", input, errR, viaRg, errB, builtin)
			}
		}
	}
}

func TestLineTallyCountsAsFileLinesRenders(t *testing.T) {
	q := &query{contextBreaks: true, mode: modeContent}
	events := []event{
		{line: 1, raw: []byte("a\n")},
		{line: 2, context: true, raw: []byte("b\x00\n")},
		{line: 5, raw: []byte("c\n")},
		{line: 9, raw: []byte(strings.Repeat("x", 600) + "\x00\n")},
	}
	for _, binary := range []int64{-1, 40} {
		f := fileResult{events: events, binaryOffset: binary}
		var tally lineTally
		for _, ev := range events {
			tally.add(ev.line, q.contextBreaks, dropsAsBinary(ev.raw, ev.context))
		}
		if got, want := tally.total(binary >= 0), len(fileLines(f, q)); got != want {
			t.Errorf("binary offset %d: tally %d, fileLines %d", binary, got, want)
		}
	}
}

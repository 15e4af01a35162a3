package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

func TestMedian(t *testing.T) {
	tests := []struct {
		in   []float64
		want float64
	}{
		{[]float64{3}, 3},
		{[]float64{5, 1, 3}, 3},
		{[]float64{4, 1, 3, 2}, 2.5},
	}
	for _, tt := range tests {
		if got := median(tt.in); got != tt.want {
			t.Errorf("median(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestFormatRatio(t *testing.T) {
	tests := []struct {
		in   []float64
		want string
	}{
		{nil, "n/a"},
		{[]float64{0.05, 0.1, 0.02}, "0.050 (1/20.0)"},
		{[]float64{1.5}, "1.50"},
	}
	for _, tt := range tests {
		if got := formatRatio(tt.in); got != tt.want {
			t.Errorf("formatRatio(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

var testMarkers = report{peer: "Claude Code"}.markers()

func TestUpdateSection(t *testing.T) {
	sectionStart, sectionEnd := testMarkers[0], testMarkers[1]
	section := sectionStart + "\nnew\n" + sectionEnd + "\n"
	tests := []struct {
		name, in, want string
	}{
		{"appends when absent", "# B\n\ntext\n", "# B\n\ntext\n\n" + section},
		{"replaces between markers", "# B\n" + sectionStart + "\nold\n" + sectionEnd + "\n## next\n", "# B\n" + section + "## next\n"},
		{"replaces at the end without newline", "# B\n" + sectionStart + "\nold\n" + sectionEnd, "# B\n" + section},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "BENCHMARKS.md")
			if err := os.WriteFile(path, []byte(tt.in), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := updateSection(path, testMarkers, section); err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(path)
			if string(got) != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestUpdateSectionRejectsMarkersOutOfOrder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "BENCHMARKS.md")
	if err := os.WriteFile(path, []byte(testMarkers[1]+"\n"+testMarkers[0]+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := updateSection(path, testMarkers, "x"); err == nil {
		t.Error("markers out of order: want an error")
	}
}

func TestTallyCountsBytesAndToolErrors(t *testing.T) {
	var tl tally
	at := time.Now()
	ok := llm.ToolResultBlock("t1", []llm.ContentBlock{llm.TextBlock("fine")}, false)
	bad := llm.ToolResultBlock("t2", []llm.ContentBlock{llm.TextBlock("no such file")}, true)
	tl.add(llmtest.Request{Time: at, Body: make([]byte, 10)})
	tl.add(llmtest.Request{Time: at.Add(time.Second), Body: make([]byte, 30),
		Messages: []llm.Message{{Role: llm.RoleUser, Content: []llm.ContentBlock{ok, bad}}}})
	if tl.count != 2 || tl.bytes != 40 || tl.firstBytes != 10 || !tl.first.Equal(at) {
		t.Errorf("count %d, bytes %d, first bytes %d, first %v", tl.count, tl.bytes, tl.firstBytes, tl.first)
	}
	if len(tl.toolErrors) != 1 || tl.toolErrors[0] != "no such file" {
		t.Errorf("tool errors %q, want the one failed result", tl.toolErrors)
	}
	if len(tl.results) != 2 {
		t.Errorf("results %q, want both", tl.results)
	}
}

// TestEditScriptAppliesStepByStep applies the scripted Edits in order as an
// exact, unique replacement, the way both agents' Edit tools do.
func TestEditScriptAppliesStepByStep(t *testing.T) {
	dir := t.TempDir()
	if err := editFile(dir); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, editFileName)
	data, _ := os.ReadFile(path)
	content := string(data)
	turns := editTurnsScript(dir, claudeTools{})
	if len(turns) != editTurns+2 {
		t.Fatalf("%d turns, want a Read, %d Edits and a text", len(turns), editTurns)
	}
	for i, turn := range turns[1 : len(turns)-1] {
		b := turn.Blocks[0]
		var in map[string]string
		if err := json.Unmarshal(b.Input, &in); err != nil || b.Name != "Edit" {
			t.Fatalf("turn %d: %s %s", i+1, b.Name, b.Input)
		}
		if in["file_path"] != path || strings.Count(content, in["old_string"]) != 1 {
			t.Fatalf("turn %d: %q occurs %d times in %s", i+1, in["old_string"], strings.Count(content, in["old_string"]), in["file_path"])
		}
		content = strings.Replace(content, in["old_string"], in["new_string"], 1)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := checkEdited(dir); err != nil {
		t.Error(err)
	}
}

func TestGoalTableMarksMissedGoals(t *testing.T) {
	cc := sample{firstRequest: 800 * time.Millisecond, wall: time.Second, peakRSSKB: 200 << 10, requestBytes: 1000}
	fast := sample{firstRequest: 10 * time.Millisecond, wall: 100 * time.Millisecond, peakRSSKB: 20 << 10, requestBytes: 500}
	slow := sample{firstRequest: 100 * time.Millisecond, wall: 500 * time.Millisecond, peakRSSKB: 100 << 10, requestBytes: 2000}
	r := report{peer: "Claude Code", results: []result{
		{number: 1, pairs: [][2]sample{{cc, fast}, {cc, fast}, {cc, fast}}},
		{number: 3, pairs: [][2]sample{{cc, slow}, {cc, slow}, {cc, fast}}},
	}}
	got := r.goalTable()
	want := []string{
		"| start → first request ≥ 20× faster, every scenario | 0.125 (1/8.0) | **no** |",
		"| peak RSS ≤ 1/5, every scenario | 0.500 (1/2.0) | **no** |",
		"| scenario 3 wall time ≤ 1/3 | 0.500 (1/2.0) | **no** |",
		"| scenario 1 bytes sent ≤ Claude Code's | 0.500 (1/2.0) | yes |",
	}
	for _, line := range want {
		if !strings.Contains(got, line) {
			t.Errorf("goal table lacks %q:\n%s", line, got)
		}
	}
}

// TestRunOnceRejectsFailedRuns runs stand-in agents that claim success
// without doing the work, or fail, and expects each run to be refused.
func TestRunOnceRejectsFailedRuns(t *testing.T) {
	tests := []struct {
		name, script, want string
	}{
		{"exit status", "echo '{\"subtype\":\"success\"}'; exit 3", "exit status 3"},
		{"no request", "echo '{\"subtype\":\"success\"}'", "saw 0 requests, want 1"},
	}
	srv, err := llmtest.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	sc := scenarios()[0]
	srv.ServeByHistory(sc.turns("", claudeTools{})...)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			bin := filepath.Join(dir, "agent")
			if err := os.WriteFile(bin, []byte("#!/bin/sh\n"+tt.script+"\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			stand := miniClaude(bin, false)
			_, err := runOnce(stand, sc, srv, dir, dir, 1)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("runOnce error %v, want one saying %q", err, tt.want)
			}
		})
	}
}

func TestTallyCountsCodexFailedCommands(t *testing.T) {
	var tl tally
	ok := llm.ToolResultBlock("c1", []llm.ContentBlock{llm.TextBlock("Chunk ID: e883a1\nWall time: 0.0100 seconds\nProcess exited with code 0\nOriginal token count: 1\nOutput:\nhi\n")}, false)
	bad := llm.ToolResultBlock("c2", []llm.ContentBlock{llm.TextBlock("Chunk ID: e883a1\nWall time: 0.9166 seconds\nProcess exited with code 3\nOriginal token count: 1\nOutput:\nout\n")}, false)
	tl.add(llmtest.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: []llm.ContentBlock{ok, bad}}}})
	if len(tl.toolErrors) != 1 || !strings.Contains(tl.toolErrors[0], "code 3") {
		t.Errorf("tool errors %q, want the command that exited 3", tl.toolErrors)
	}
}

// TestCodexToolsDoEachStepInTheShell checks the commands Codex's scripted
// model runs: the edit is an apply_patch of the file relative to the
// working directory, and paths and patterns are quoted for the shell.
func TestCodexToolsDoEachStepInTheShell(t *testing.T) {
	tools := codexToolset("/w")
	tests := []struct {
		block llm.ContentBlock
		want  string
	}{
		{tools.read("/w/it's.txt"), `cat '/w/it'\''s.txt'`},
		{tools.grep("value [0-9]+ is", "/w"), `rg -n 'value [0-9]+ is' '/w'; test $? -le 1`},
		{tools.bash("echo hi"), "echo hi"},
		{tools.edit("/w/counter.txt", "entry 00: pending", "entry 00: done"),
			"apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: counter.txt\n@@\n-entry 00: pending\n+entry 00: done\n*** End Patch\nEOF\n"},
	}
	for _, tt := range tests {
		var in struct{ Cmd string }
		if err := json.Unmarshal(tt.block.Input, &in); err != nil || tt.block.Name != "exec_command" || in.Cmd != tt.want {
			t.Errorf("%s %s, want exec_command of %q", tt.block.Name, tt.block.Input, tt.want)
		}
	}
}

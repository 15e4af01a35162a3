package e2e

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// TestMaxBudgetStopsTheRunAsClaudeCodeDoes runs the script Claude Code
// 2.1.332 answered in e2e/testdata/budget (a call, then an answer, each
// request costing $0.0045 at Sonnet 4.5's price) under two budgets: one the
// first response reaches, whose call then does not run, and one the second
// reaches, which still ends the run as over budget.
func TestMaxBudgetStopsTheRunAsClaudeCodeDoes(t *testing.T) {
	for _, tt := range []struct {
		budget   string
		requests int
		touched  bool
	}{
		{"0.001", 1, false},
		{"0.005", 2, true},
	} {
		t.Run(tt.budget, func(t *testing.T) {
			r := newRun(t)
			usage := llm.Usage{InputTokens: 1000, OutputTokens: 100}
			r.srv.Push(
				llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("", "Touch", `{"path":"made.txt"}`)}, Usage: usage},
				llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("done")}, Usage: usage},
			)
			out := r.exec("-p", "make a file", "--output-format", "json", "--model", "claude-sonnet-4-5-20250929",
				"--max-budget-usd", tt.budget, "--allowedTools", "Touch")
			if out.code != 1 {
				t.Fatalf("exit %d, want 1; stderr %q", out.code, out.stderr)
			}
			if !strings.Contains(out.stderr, "reached the maximum budget ($"+tt.budget+"); raise --max-budget-usd") {
				t.Errorf("stderr %q", out.stderr)
			}
			got, want := budgetFields(t, []byte(out.stdout)), budgetFields(t, []byte(readFile(t, filepath.Join("testdata", "budget", "claude-code-"+tt.budget+".json"))))
			if !reflect.DeepEqual(got, want) {
				t.Errorf("result\n got %v\nwant %v (Claude Code's)", got, want)
			}
			if n := len(r.srv.Requests()); n != tt.requests {
				t.Errorf("%d requests, want %d", n, tt.requests)
			}
			if _, err := os.Stat(filepath.Join(r.dir, "made.txt")); (err == nil) != tt.touched {
				t.Errorf("the call ran: %v, want %v", err == nil, tt.touched)
			}
		})
	}
}

// budgetFields are the fields of a result that say how a budget ended it.
func budgetFields(t *testing.T, data []byte) map[string]any {
	t.Helper()
	var res map[string]any
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatalf("%v: %s", err, data)
	}
	fields := map[string]any{}
	for _, k := range []string{"type", "subtype", "is_error", "num_turns", "errors", "stop_reason", "terminal_reason", "total_cost_usd"} {
		fields[k] = res[k]
	}
	// Claude Code sums in another order: 0.0045000000000000005.
	if cost, ok := fields["total_cost_usd"].(float64); ok {
		fields["total_cost_usd"] = math.Round(cost*1e9) / 1e9
	}
	return fields
}

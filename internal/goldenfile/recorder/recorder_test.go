package recorder

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

func TestFlagsWantTheScenariosOnlyNames(t *testing.T) {
	tests := []struct {
		args []string
		want map[string]bool
	}{
		{nil, map[string]bool{"a": true, "b": true}},
		{[]string{"-only", "a"}, map[string]bool{"a": true, "b": false}},
		{[]string{"-only", "b,,c", "-keep"}, map[string]bool{"a": false, "b": true, "c": true}},
	}
	for _, tt := range tests {
		var f Flags
		fs := flag.NewFlagSet("record", flag.ContinueOnError)
		f.Register(fs)
		if err := fs.Parse(tt.args); err != nil {
			t.Fatal(err)
		}
		for name, want := range tt.want {
			if got := f.Wants(name); got != want {
				t.Errorf("%v: Wants(%q) = %v, want %v", tt.args, name, got, want)
			}
		}
		if f.Keep != slices.Contains(tt.args, "-keep") {
			t.Errorf("%v: Keep = %v", tt.args, f.Keep)
		}
	}
}

func TestWriteStateTrustsTheFoldersNamed(t *testing.T) {
	tests := []struct {
		name    string
		trusted []string
	}{
		{"none", nil},
		{"one", []string{"/p"}},
		{"two", []string{"/p", "/p/sub"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			if err := WriteState(home, tt.trusted...); err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(filepath.Join(home, ".claude.json"))
			if err != nil {
				t.Fatal(err)
			}
			var state struct {
				HasCompletedOnboarding bool
				CustomAPIKeyResponses  struct{ Approved []string } `json:"customApiKeyResponses"`
				Projects               map[string]struct{ HasTrustDialogAccepted bool }
			}
			if err := json.Unmarshal(data, &state); err != nil {
				t.Fatal(err)
			}
			if !state.HasCompletedOnboarding || !slices.Equal(state.CustomAPIKeyResponses.Approved, []string{APIKey}) {
				t.Errorf(".claude.json = %s", data)
			}
			if len(state.Projects) != len(tt.trusted) {
				t.Errorf("projects = %v, want %v", state.Projects, tt.trusted)
			}
			for _, p := range tt.trusted {
				if !state.Projects[p].HasTrustDialogAccepted {
					t.Errorf("%s not trusted in %s", p, data)
				}
			}
		})
	}
}

func TestEnvReplacesOrAddsTheExtraEntries(t *testing.T) {
	env := Env("/h", "http://127.0.0.1:1", "TERM=xterm-256color", "EXTRA=1")
	want := map[string]string{"HOME": "/h", "TERM": "xterm-256color", "EXTRA": "1", "IS_SANDBOX": "1",
		"ANTHROPIC_BASE_URL": "http://127.0.0.1:1", "ANTHROPIC_API_KEY": APIKey, "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1"}
	seen := map[string]int{}
	for _, e := range env {
		k, v, _ := strings.Cut(e, "=")
		seen[k]++
		if w, ok := want[k]; ok && v != w {
			t.Errorf("%s=%s, want %s", k, v, w)
		}
	}
	for k := range want {
		if seen[k] != 1 {
			t.Errorf("%s appears %d times in %v", k, seen[k], env)
		}
	}
	if env[2] != "TERM=xterm-256color" {
		t.Errorf("TERM moved: %v", env)
	}
}

func TestNewScratchRemovesOnlyWhatIsNotKept(t *testing.T) {
	for _, keep := range []bool{false, true} {
		s, err := NewScratch("recorder-test-", "t", keep)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range []string{s.Proj, s.Home} {
			if fi, err := os.Stat(d); err != nil || !fi.IsDir() || filepath.Dir(d) != s.Dir {
				t.Errorf("keep %v: %s: %v", keep, d, err)
			}
		}
		s.Remove()
		_, err = os.Stat(s.Dir)
		if kept := err == nil; kept != keep {
			t.Errorf("keep %v: after Remove, stat: %v", keep, err)
		}
		os.RemoveAll(s.Dir)
	}
}

func TestRunReportsTheExitCodeAndTheTimeout(t *testing.T) {
	tests := []struct {
		name     string
		script   string
		timeout  time.Duration
		code     int
		stdout   string
		stderr   string
		wantsErr bool
	}{
		{"success", "echo out; echo err >&2", 0, 0, "out\n", "err\n", false},
		{"exit code", "echo partial; exit 3", 0, 3, "partial\n", "", false},
		{"timeout", "echo started; sleep 10 & wait", 200 * time.Millisecond, 0, "started\n", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			out, err := Command{Path: "sh", Args: []string{"-c", tt.script}, Dir: t.TempDir(),
				Env: []string{"PATH=" + os.Getenv("PATH")}, Timeout: tt.timeout}.Run(context.Background())
			if (err != nil) != tt.wantsErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantsErr)
			}
			if out.ExitCode != tt.code || string(out.Stdout) != tt.stdout || string(out.Stderr) != tt.stderr {
				t.Errorf("output = %+v", out)
			}
			if time.Since(start) > 5*time.Second {
				t.Errorf("took %s: the process group was not killed", time.Since(start))
			}
		})
	}
}

func TestLastToolResultJoinsTheFirstResultOfTheLastMessage(t *testing.T) {
	result := llm.ContentBlock{Type: llm.BlockToolResult, IsError: true,
		Content: []llm.ContentBlock{llmtest.Text("a"), llmtest.Text("b")}}
	tests := []struct {
		name   string
		msgs   []llm.Message
		text   string
		isErr  bool
		wantOK bool
	}{
		{"none", nil, "", false, false},
		{"text only", []llm.Message{{Role: llm.RoleUser, Content: []llm.ContentBlock{llmtest.Text("hi")}}}, "", false, false},
		{"result", []llm.Message{{Role: llm.RoleUser, Content: []llm.ContentBlock{llmtest.Text("x"), result}}}, "ab", true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, isErr, ok := LastToolResult(llmtest.Request{Messages: tt.msgs})
			if text != tt.text || isErr != tt.isErr || ok != tt.wantOK {
				t.Errorf("= %q, %v, %v; want %q, %v, %v", text, isErr, ok, tt.text, tt.isErr, tt.wantOK)
			}
		})
	}
}

func TestCheckRefusesAnotherVersion(t *testing.T) {
	if _, err := Check(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("Check of a missing executable succeeded")
	}
	if _, err := os.Stat(DefaultClaude()); err != nil {
		t.Skip("Claude Code is not installed:", err)
	}
	got, err := Check("")
	if err != nil || got != DefaultClaude() {
		t.Errorf("Check(\"\") = %q, %v; want %q", got, err, DefaultClaude())
	}
}

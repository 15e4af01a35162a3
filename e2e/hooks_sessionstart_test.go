package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// SessionStart hooks on resume and after a compaction, headless.

// sessionStartLog is a SessionStart hook of source that logs its input to
// file in the project and says context.
func sessionStartLog(source, file, context string) string {
	return `{"matcher": "` + source + `", "hooks": [{"type": "command", "command": "cat >> \"$CLAUDE_PROJECT_DIR\"/` + file +
		`; echo >> \"$CLAUDE_PROJECT_DIR\"/` + file + `; echo '` + context + `'"}]}`
}

// transcriptOf is the transcript of session id of the run's project.
func transcriptOf(t *testing.T, r *run, id string) string {
	t.Helper()
	var matches []string
	for _, kv := range r.env {
		if home, ok := strings.CutPrefix(kv, "MINI_CLAUDE_HOME="); ok {
			matches, _ = filepath.Glob(filepath.Join(home, "projects", "*", id+".jsonl"))
		}
	}
	if len(matches) != 1 {
		t.Fatalf("transcript of %s: found %v", id, matches)
	}
	return matches[0]
}

func TestSessionStartOnResumeTellsTheLastResponseAndItsContextReachesTheModel(t *testing.T) {
	r := newRun(t)
	hookSettings(t, r, `{"SessionStart": [`+sessionStartLog("resume", "started.jsonl", "Resumed context")+`]}`)
	r.srv.Push(llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("hello")}, Usage: llm.Usage{InputTokens: 1000, CacheReadInputTokens: 200, OutputTokens: 40}},
		text("again"), text("late"))
	model := []string{"--model", "claude-sonnet-4-5-20250929", "--output-format", "json"}
	out := r.exec(append([]string{"-p", "hi"}, model...)...)
	var first struct {
		SessionID string `json:"session_id"`
	}
	if err := json.Unmarshal([]byte(out.stdout), &first); err != nil || first.SessionID == "" {
		t.Fatalf("exit %d, stdout %q: %v", out.code, out.stdout, err)
	}
	if out := r.exec(append([]string{"-p", "go on", "--resume", first.SessionID}, model...)...); out.code != 0 {
		t.Fatalf("resume: exit %d: %s", out.code, out.stderr)
	}
	started := logged(t, r, "started.jsonl", 1)[0]
	want := map[string]any{"source": "resume", "context_tokens": 1240.0, "prompt_cache_likely_expired": false, "estimated_cache_write_usd": 0.0046}
	for k, v := range want {
		if started[k] != v {
			t.Errorf("SessionStart %s = %v, want %v (input %v)", k, started[k], v, started)
		}
	}
	if s, ok := started["seconds_since_last_response"].(float64); !ok || s > 5 || started["model"] != nil {
		t.Errorf("SessionStart input %v, want the seconds since the answer and no model", started)
	}
	resumedMsg := r.srv.Requests()[1].Messages[2].Content
	if resumedMsg[0].Text != "<system-reminder>\nSessionStart:resume hook success: Resumed context\n</system-reminder>" {
		t.Errorf("the resumed prompt's message = %+v, want the hook's context first", resumedMsg)
	}

	// Ten minutes later the prompt cache has dropped the context.
	path := transcriptOf(t, r, first.SessionID)
	data, _ := os.ReadFile(path)
	earlier := time.Now().Add(-10 * time.Minute).UTC().Format("2006-01-02T15:04:05.000Z")
	data = regexp.MustCompile(`"timestamp":"[^"]*"`).ReplaceAll(data, []byte(`"timestamp":"`+earlier+`"`))
	os.WriteFile(path, data, 0o644)
	if out := r.exec(append([]string{"-p", "later", "--resume", first.SessionID}, model...)...); out.code != 0 {
		t.Fatalf("second resume: exit %d: %s", out.code, out.stderr)
	}
	late := logged(t, r, "started.jsonl", 2)[1]
	if s, _ := late["seconds_since_last_response"].(float64); s < 600 || late["prompt_cache_likely_expired"] != true || late["context_tokens"] != 150.0 {
		t.Errorf("SessionStart input ten minutes on = %v, want 600 seconds or more, expired, the last answer's 150 tokens", late)
	}
}

func TestSessionStartAfterAnAutomaticCompactionHeadless(t *testing.T) {
	r := newRun(t)
	hookSettings(t, r, `{"SessionStart": [`+sessionStartLog("compact", "started.jsonl", "Context after compaction")+`],
		"UserPromptSubmit": [{"hooks": [`+logHook("prompts.jsonl")+`]}]}`)
	r.srv.Push(
		llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.ToolUse("b1", "Bash", `{"command":"head -c 20000 /dev/zero | tr '\\0' y"}`)},
			Usage: llm.Usage{InputTokens: 6000, OutputTokens: 30}},
		text("<summary>yes was printed.</summary>"),
		text("finished"),
	)
	out := r.exec("-p", "print a lot", "--output-format", "stream-json", "--verbose", "--dangerously-skip-permissions",
		"--compact-threshold", "9000", "--model", "claude-sonnet-4-5-20250929")
	if out.code != 0 {
		t.Fatalf("exit %d: %s", out.code, out.stderr)
	}
	reqs := r.srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want the turn, the summary and the turn after it", len(reqs))
	}
	if got := reqs[2].Messages[0].Content[0].Text; got != "<system-reminder>\nSessionStart:compact hook success: Context after compaction\n</system-reminder>" {
		t.Errorf("the compacted conversation starts %q, want the SessionStart hook's context", got)
	}
	started := logged(t, r, "started.jsonl", 1)[0]
	prompt := logged(t, r, "prompts.jsonl", 1)[0]
	if started["source"] != "compact" || started["model"] != "claude-sonnet-4-5-20250929" || started["prompt_id"] != prompt["prompt_id"] || started["permission_mode"] != nil {
		t.Errorf("SessionStart input = %v, want source compact, the model and the prompt's id (%v)", started, prompt["prompt_id"])
	}
	if !strings.Contains(out.stdout, `"hook_name":"SessionStart:compact"`) {
		t.Errorf("stream-json does not report the SessionStart:compact hook:\n%s", out.stdout)
	}
}

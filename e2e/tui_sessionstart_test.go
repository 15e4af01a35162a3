package e2e

import (
	"encoding/json"
	"testing"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// TestTUISessionStartOnResumeAndAfterCompact: the UI opened with --resume
// tells the SessionStart hooks the last response, without the model; /compact
// fires SessionStart compact with its own prompt id and the model, and that
// hook's context reaches the model with the next prompt.
func TestTUISessionStartOnResumeAndAfterCompact(t *testing.T) {
	r := newRun(t)
	hookSettings(t, r, `{"SessionStart": [`+sessionStartLog("resume", "started.jsonl", "Resumed context")+`, `+
		sessionStartLog("compact", "started.jsonl", "Context after compaction")+`],
		"PreCompact": [{"hooks": [`+logHook("compacting.jsonl")+`]}]}`)
	r.srv.Push(llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("hello")}, Usage: llm.Usage{InputTokens: 1000, OutputTokens: 40}},
		text("<summary>We said hello.</summary>"), text("Going on."))
	out := r.exec("-p", "hi", "--output-format", "json", "--model", "claude-sonnet-4-5-20250929")
	var first struct {
		SessionID string `json:"session_id"`
	}
	if err := json.Unmarshal([]byte(out.stdout), &first); err != nil {
		t.Fatalf("exit %d, stdout %q: %v", out.code, out.stdout, err)
	}

	s := openScreen(t, r, "--resume", first.SessionID, "--model", "claude-sonnet-4-5-20250929")
	resumed := logged(t, r, "started.jsonl", 1)[0]
	if resumed["source"] != "resume" || resumed["context_tokens"] != 1040.0 || resumed["prompt_cache_likely_expired"] != false ||
		resumed["estimated_cache_write_usd"] != 0.0039 || resumed["model"] != nil {
		t.Errorf("SessionStart on resume = %v, want the last response's 1040 tokens, cached, and no model", resumed)
	}
	s.typeLine("/compact")
	s.waitFor("Conversation compacted")
	compacted := logged(t, r, "started.jsonl", 2)[1]
	pre := logged(t, r, "compacting.jsonl", 1)[0]
	if compacted["source"] != "compact" || compacted["model"] != "claude-sonnet-4-5-20250929" || compacted["prompt_id"] == nil ||
		compacted["prompt_id"] != pre["prompt_id"] || pre["trigger"] != "manual" {
		t.Errorf("after /compact: PreCompact %v, SessionStart %v; want /compact's prompt id on both, the model on SessionStart", pre, compacted)
	}
	s.typeLine("go on")
	s.waitFor("Going on.")
	next := r.srv.Requests()[2].Messages[0].Content
	if next[0].Text != "<system-reminder>\nSessionStart:compact hook success: Context after compaction\n</system-reminder>" {
		t.Errorf("the first message after /compact = %+v, want the SessionStart hook's context first", next)
	}
}

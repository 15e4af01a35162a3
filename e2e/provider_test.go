package e2e

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

func TestInvalidToolArgumentsAskForValidJSON(t *testing.T) {
	for _, provider := range providers {
		t.Run(provider, func(t *testing.T) {
			r := newRunFor(t, provider)
			r.srv.Push(
				calls(llmtest.ToolUse("bad", "Sleep", `{"label":"a","ms":1`)),
				calls(llmtest.ToolUse("good", "Sleep", `{"label":"a","ms":1}`)),
				text("slept"),
			)
			out := r.exec("-p", "sleep", "--output-format", "stream-json", "--verbose")
			if out.code != 0 {
				t.Fatalf("exit %d: %s", out.code, out.stderr)
			}
			result := lastResults(t, r.srv, 1)[0]
			if result.IsError != r.flagsErrors() || !strings.Contains(contentText(result), "Sleep was called with input that could not be parsed as JSON") ||
				!strings.Contains(contentText(result), "Retry with valid JSON.") {
				t.Errorf("result = %q (error %v), want a request to resend valid JSON", contentText(result), result.IsError)
			}
			unparsed := `{"__unparsedToolInput":{"raw":"{\"label\":\"a\",\"ms\":1","len":19}}`
			if sent := r.srv.Requests()[1].Messages[1].ToolUses()[0]; string(sent.Input) != unparsed {
				t.Errorf("the history carries the call's input as %s, want %s", sent.Input, unparsed)
			}
			if good := lastResults(t, r.srv, 2)[0]; good.IsError {
				t.Errorf("the resent call failed: %q", contentText(good))
			}
			for _, ev := range lines(t, out.stdout) { // every line is JSON, the bad call's included
				if ev["type"] == "result" && ev["result"] != "slept" {
					t.Errorf("result event = %v", ev)
				}
			}
		})
	}
}

func TestLocalPresetNeedsNoKeyAndCostsNothing(t *testing.T) {
	r := newRun(t)
	r.setenv("ANTHROPIC_API_KEY=")
	r.setenv("OPENAI_BASE_URL=" + r.srv.URL + "/v1")
	r.srv.Push(llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("local")}, Usage: llm.Usage{InputTokens: 1000, OutputTokens: 100}})
	out := r.exec("-p", "hi", "--model", "ollama/qwen3-coder", "--output-format", "stream-json", "--verbose")
	if out.code != 0 {
		t.Fatalf("exit %d: %s", out.code, out.stderr)
	}
	events := lines(t, out.stdout)
	init, res := events[0], events[len(events)-1]
	if init["model"] != "qwen3-coder" || init["apiKeySource"] != "none" || res["result"] != "local" || res["total_cost_usd"] != 0.0 {
		t.Errorf("init %v\nresult %v", init, res)
	}
	req := r.srv.Requests()[0]
	if req.Path != "/v1/chat/completions" || req.Model != "qwen3-coder" || req.Header.Get("Authorization") != "" {
		t.Errorf("request %s model %q authorization %q", req.Path, req.Model, req.Header.Get("Authorization"))
	}
}

func TestOpenAIModelIsPriced(t *testing.T) {
	r := newRunFor(t, "openai")
	r.provider = "" // chosen by the model's prefix instead
	r.srv.Push(llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("42")}, Usage: llm.Usage{InputTokens: 1000, OutputTokens: 100}})
	out := r.exec("-p", "answer", "--model", "openai/gpt-5", "--output-format", "json")
	var res map[string]any
	if err := json.Unmarshal([]byte(out.stdout), &res); err != nil || out.code != 0 {
		t.Fatalf("exit %d, stdout %q: %v", out.code, out.stdout, err)
	}
	if cost := res["total_cost_usd"].(float64); cost < 0.00224 || cost > 0.00226 { // 1000 at $1.25/M + 100 at $10/M
		t.Errorf("total_cost_usd = %v, want 0.00225", cost)
	}
	if req := r.srv.Requests()[0]; req.Model != "gpt-5" || req.Header.Get("Authorization") != "Bearer test-key" {
		t.Errorf("model %q, authorization %q", req.Model, req.Header.Get("Authorization"))
	}
}

func TestProviderFromSettings(t *testing.T) {
	r := newRunFor(t, "openai")
	r.provider = ""
	settings := filepath.Join(r.dir, ".mini-claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(settings), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(settings, []byte(`{"provider":"openai","model":"gpt-5-mini"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	r.trust(false)
	r.srv.Push(text("from settings"))
	if out := r.exec("-p", "hi"); out.code != 0 || out.stdout != "from settings\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	if req := r.srv.Requests()[0]; req.Path != "/v1/chat/completions" || req.Model != "gpt-5-mini" {
		t.Errorf("request %s model %q", req.Path, req.Model)
	}
}

func TestProviderErrors(t *testing.T) {
	tests := []struct {
		name string
		env  []string
		args []string
		code int
		want string
	}{
		{"OpenAI without a key", []string{"OPENAI_BASE_URL=", "OPENAI_API_KEY="}, []string{"-p", "hi", "--provider", "openai"}, 2, "OPENAI_API_KEY"},
		{"unknown provider", nil, []string{"-p", "hi", "--provider", "gemini"}, 2, `unknown provider "gemini"`},
		{"preset without a model", nil, []string{"-p", "hi", "--provider", "ollama"}, 2, "no model for ollama"},
		{"local server not running", []string{"OPENAI_BASE_URL=http://127.0.0.1:1/v1"}, []string{"-p", "hi", "--model", "llamacpp/gemma3"}, 1,
			"no server is listening at http://127.0.0.1:1/v1/chat/completions"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRun(t)
			for _, kv := range tt.env {
				r.setenv(kv)
			}
			start := time.Now()
			out := r.exec(tt.args...)
			if out.code != tt.code || !strings.Contains(out.stderr, tt.want) || strings.Count(out.stderr, "\n") != 1 || time.Since(start) > 5*time.Second {
				t.Errorf("exit %d after %v, stderr %q; want %d and one line containing %q", out.code, time.Since(start), out.stderr, tt.code, tt.want)
			}
			if len(r.srv.Requests()) != 0 {
				t.Error("a request reached the scripted server")
			}
		})
	}
}

package cli

import (
	"testing"

	"github.com/mini-claude/mini-claude/internal/config"
	"github.com/mini-claude/mini-claude/internal/tools/web"
)

// TestWebConfigChoosesTheSmallModelAsClaudeCodeDoes proves the model of
// WebFetch's side request for each provider and environment, whether the
// provider searches itself, and that the settings reach the tools.
func TestWebConfigChoosesTheSmallModelAsClaudeCodeDoes(t *testing.T) {
	anthropicP, _ := lookupProvider("anthropic")
	ollama, _ := lookupProvider("ollama")
	yes := true
	files := []config.File{{WebFetch: config.WebFetchSettings{SkipSummary: &yes}, WebSearch: config.WebSearchSettings{SearXNG: "http://127.0.0.1:8888"}}}
	tests := []struct {
		name string
		p    Provider
		env  map[string]string
		want web.Config
	}{
		{"the Anthropic API: Haiku", anthropicP, nil, web.Config{SmallModel: "claude-haiku-4-5", ServerSearch: true}},
		{"its own URL named", anthropicP, map[string]string{"ANTHROPIC_BASE_URL": "https://api.anthropic.com/"}, web.Config{SmallModel: "claude-haiku-4-5", ServerSearch: true}},
		{"a gateway: the session's model", anthropicP, map[string]string{"ANTHROPIC_BASE_URL": "http://127.0.0.1:4000"}, web.Config{ServerSearch: true}},
		{"the small model named", anthropicP, map[string]string{"ANTHROPIC_BASE_URL": "http://gw", "ANTHROPIC_SMALL_FAST_MODEL": "fast"}, web.Config{SmallModel: "fast", ServerSearch: true}},
		{"the Haiku model named", anthropicP, map[string]string{"ANTHROPIC_DEFAULT_HAIKU_MODEL": "h"}, web.Config{SmallModel: "h", ServerSearch: true}},
		{"another provider: no server search", ollama, map[string]string{"ANTHROPIC_SMALL_FAST_MODEL": "fast"}, web.Config{}},
	}
	for _, tt := range tests {
		got := webConfig(tt.p, nil, func(k string) string { return tt.env[k] })
		if got != tt.want {
			t.Errorf("%s: %+v, want %+v", tt.name, got, tt.want)
		}
	}
	got := webConfig(ollama, files, func(string) string { return "" })
	if got.Settings != (web.Settings{SkipSummary: true, SearXNG: "http://127.0.0.1:8888"}) {
		t.Errorf("settings %+v", got.Settings)
	}
}

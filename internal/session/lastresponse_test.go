package session

import (
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/llm"
)

func TestLastResponseIsWhatAResumedSessionStartTells(t *testing.T) {
	tests := []struct {
		name    string
		write   func(tr *Transcript)
		want    LastResponse
		present bool
	}{
		{"the last response's usage", func(tr *Transcript) {
			tr.OnEvent(agent.UserMessage{Message: llm.UserText("go")})
			tr.OnEvent(agent.AssistantMessage{Message: assistant(llm.TextBlock("done")), Model: "claude-sonnet-4-5",
				Usage: llm.Usage{InputTokens: 100, CacheReadInputTokens: 20, CacheCreationInputTokens: 30, OutputTokens: 50}})
		}, LastResponse{Model: "claude-sonnet-4-5", ContextTokens: 200, Cached: true}, true},
		{"no response yet", func(tr *Transcript) {
			tr.OnEvent(agent.UserMessage{Message: llm.UserText("go")})
		}, LastResponse{}, false},
		{"none since the compaction", func(tr *Transcript) {
			tr.OnEvent(agent.UserMessage{Message: llm.UserText("go")})
			tr.OnEvent(agent.AssistantMessage{Message: assistant(llm.TextBlock("done")), Model: "claude-sonnet-4-5", Usage: llm.Usage{InputTokens: 100}})
			tr.OnEvent(agent.Compacted{Message: llm.UserText("summary"), PostTokens: 2812})
		}, LastResponse{}, false},
		{"one since the compaction", func(tr *Transcript) {
			tr.OnEvent(agent.UserMessage{Message: llm.UserText("go")})
			tr.OnEvent(agent.AssistantMessage{Message: assistant(llm.TextBlock("done")), Model: "claude-sonnet-4-5", Usage: llm.Usage{InputTokens: 100}})
			tr.OnEvent(agent.Compacted{Message: llm.UserText("summary"), PostTokens: 2812})
			tr.OnEvent(agent.UserMessage{Message: llm.UserText("more")})
			tr.OnEvent(agent.AssistantMessage{Message: assistant(llm.TextBlock("ok")), Model: "claude-opus-4-5", Usage: llm.Usage{InputTokens: 300, OutputTokens: 7}})
		}, LastResponse{Model: "claude-opus-4-5", ContextTokens: 307, Cached: true}, true},
		{"one since the compaction without usage", func(tr *Transcript) {
			tr.OnEvent(agent.UserMessage{Message: llm.UserText("go")})
			tr.OnEvent(agent.Compacted{Message: llm.UserText("summary"), PostTokens: 2812})
			tr.OnEvent(agent.UserMessage{Message: llm.UserText("more")})
			tr.OnEvent(agent.AssistantMessage{Message: assistant(llm.TextBlock("ok")), Model: "local"})
		}, LastResponse{Model: "local", ContextTokens: 2812}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			project := setup(t)
			tr, err := Create(Config{Project: project, ID: NewID()})
			if err != nil {
				t.Fatal(err)
			}
			before := time.Now().Add(-time.Second)
			tt.write(tr)
			tr.Close()
			loaded, err := Load(tr.Path())
			if err != nil {
				t.Fatal(err)
			}
			got, ok := loaded.LastResponse()
			if ok != tt.present {
				t.Fatalf("LastResponse() = %+v, %v; want present %v", got, ok, tt.present)
			}
			if ok && (got.At.Before(before) || got.At.After(time.Now())) {
				t.Errorf("At = %v, want the time it was written", got.At)
			}
			got.At = time.Time{}
			if got != tt.want {
				t.Errorf("LastResponse() = %+v, want %+v", got, tt.want)
			}
		})
	}
}

package llm_test

import (
	"context"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/anthropic"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// TestCompleteReturnsTheWholeAnswer: a one-shot request comes back as the
// message that ended the stream, with its usage; a request the model cannot
// answer is an error.
func TestCompleteReturnsTheWholeAnswer(t *testing.T) {
	srv := llmtest.New(t)
	srv.Push(llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("the answer")}, Usage: llm.Usage{InputTokens: 12, OutputTokens: 3}})
	client, err := anthropic.New(anthropic.Config{APIKey: "test-key", BaseURL: srv.URL, BaseDelay: time.Millisecond, MaxDelay: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	req := llm.Request{Model: "claude-haiku-4-5", Messages: []llm.Message{llm.UserText("the question")}}
	end, err := llm.Complete(context.Background(), client, req)
	if err != nil || end.Message.Text() != "the answer" || end.Usage.InputTokens != 12 {
		t.Fatalf("Complete = %q, usage %+v, error %v", end.Message.Text(), end.Usage, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := llm.Complete(ctx, client, req); err == nil {
		t.Error("a cancelled request returned no error")
	}
}

package anthropic

import (
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// newClient returns a client of srv with short retry delays.
func newClient(t *testing.T, srv *llmtest.Server) *Client {
	t.Helper()
	c, err := New(Config{APIKey: "test-key", BaseURL: srv.URL, MaxRetries: 3, BaseDelay: time.Millisecond, MaxDelay: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// simpleRequest is a one-message request.
func simpleRequest(text string) llm.Request {
	return llm.Request{Model: "claude-test", Messages: []llm.Message{llm.UserText(text)}}
}

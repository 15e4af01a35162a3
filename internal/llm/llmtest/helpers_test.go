package llmtest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/llm"
)

// sseEvent is one parsed SSE event of a response.
type sseEvent struct {
	Name string
	Data string
}

// body returns a streaming request body with the given messages.
func body(t *testing.T, msgs ...llm.Message) []byte {
	t.Helper()
	b, err := json.Marshal(map[string]any{
		"model": "claude-test", "max_tokens": 1024, "stream": true, "messages": msgs,
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// post sends body to path of the server and returns the response.
func post(t *testing.T, ctx context.Context, url, path string, b []byte) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url+path, bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", path, err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// readSSE parses an SSE stream; it returns the events read before an error.
func readSSE(r io.Reader) ([]sseEvent, error) {
	var events []sseEvent
	var cur sseEvent
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			events = append(events, cur)
			cur = sseEvent{}
		case strings.HasPrefix(line, "event: "):
			cur.Name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			cur.Data = strings.TrimPrefix(line, "data: ")
		}
	}
	return events, sc.Err()
}

// names returns the event names of events.
func names(events []sseEvent) []string {
	var out []string
	for _, e := range events {
		out = append(out, e.Name)
	}
	return out
}

// user and assistant build messages for request bodies.
func user(blocks ...llm.ContentBlock) llm.Message {
	return llm.Message{Role: llm.RoleUser, Content: blocks}
}

func assistant(blocks ...llm.ContentBlock) llm.Message {
	return llm.Message{Role: llm.RoleAssistant, Content: blocks}
}

func result(id string) llm.ContentBlock {
	return llm.ToolResultBlock(id, []llm.ContentBlock{llm.TextBlock("ok")}, false)
}

package openai

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// newClient returns a client of srv with short retry delays.
func newClient(t *testing.T, srv *llmtest.Server) *Client {
	t.Helper()
	return newClientAt(t, srv.URL+"/v1")
}

func newClientAt(t *testing.T, baseURL string) *Client {
	t.Helper()
	c, err := New(Config{APIKey: "test-key", BaseURL: baseURL, MaxRetries: 3, BaseDelay: time.Millisecond, MaxDelay: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// rawServer answers every request with status, headers and body as given, for
// the shapes of other servers that llmtest does not produce.
func rawServer(t *testing.T, status int, header http.Header, body string) string {
	t.Helper()
	return rawServerFunc(t, func(w http.ResponseWriter) {
		for k, v := range header {
			w.Header()[k] = v
		}
		w.WriteHeader(status)
		w.Write([]byte(body))
	})
}

// rawServerFunc answers every request with answer, one request at a time.
func rawServerFunc(t *testing.T, answer func(http.ResponseWriter)) string {
	t.Helper()
	var mu sync.Mutex
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		answer(w)
	}))
	t.Cleanup(ts.Close)
	return ts.URL
}

// simpleRequest is a one-message request.
func simpleRequest(text string) llm.Request {
	return llm.Request{Model: "gpt-test", Messages: []llm.Message{llm.UserText(text)}}
}

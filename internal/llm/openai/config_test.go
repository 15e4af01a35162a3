package openai

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
	"github.com/mini-claude/mini-claude/internal/llm/retry"
)

func TestNew(t *testing.T) {
	tests := []struct {
		name     string
		cfg      Config
		wantErr  string
		endpoint string
		retries  int
	}{
		{"OpenAI needs a key", Config{}, ErrNoCredentials.Error(), "", 0},
		{"OpenAI with a key", Config{APIKey: "k"}, "", "https://api.openai.com/v1/chat/completions", retry.DefaultMaxRetries},
		{"local server needs none", Config{BaseURL: "http://127.0.0.1:11434/v1/", MaxRetries: -1}, "", "http://127.0.0.1:11434/v1/chat/completions", 0},
		{"bad base URL", Config{BaseURL: "localhost:8080"}, "base URL", "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := New(tt.cfg)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.endpoint != tt.endpoint || c.policy.MaxRetries != tt.retries || c.policy.BaseDelay != retry.DefaultBaseDelay || c.http == nil {
				t.Errorf("client = %+v", c)
			}
		})
	}
	if _, err := New(Config{}); !errors.Is(err, ErrNoCredentials) {
		t.Errorf("New(Config{}) = %v, want ErrNoCredentials", err)
	}
}

func TestConfigFromEnv(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-x")
	t.Setenv("OPENAI_BASE_URL", "http://127.0.0.1:8080/v1")
	t.Setenv("MINI_CLAUDE_MAX_RETRIES", "2")
	want := Config{APIKey: "sk-x", BaseURL: "http://127.0.0.1:8080/v1", MaxRetries: 2}
	if got := ConfigFromEnv(); got.APIKey != want.APIKey || got.BaseURL != want.BaseURL || got.MaxRetries != want.MaxRetries || got.BaseDelay != time.Duration(0) {
		t.Errorf("ConfigFromEnv() = %+v, want %+v", got, want)
	}
}

func TestRefusedLocalServerFailsAtOnce(t *testing.T) {
	srv, err := llmtest.Start()
	if err != nil {
		t.Fatal(err)
	}
	srv.Close()
	c, err := New(Config{BaseURL: srv.URL + "/v1", MaxRetries: 5, BaseDelay: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	events, err := llmtest.Collect(context.Background(), c, simpleRequest("hi"))
	var apiErr *llm.APIError
	if !errors.As(err, &apiErr) || apiErr.Retryable || !strings.Contains(apiErr.Message, "no server is listening at "+srv.URL+"/v1/chat/completions") ||
		len(events) != 0 || time.Since(start) > time.Second {
		t.Errorf("err %v after %d events and %v, want a refusal at once", err, len(events), time.Since(start))
	}
}

func TestIsLoopback(t *testing.T) {
	for host, want := range map[string]bool{"127.0.0.1": true, "::1": true, "localhost": true, "127.1.2.3": true, "10.0.0.2": false, "api.openai.com": false} {
		if got := isLoopback(host); got != want {
			t.Errorf("isLoopback(%q) = %v", host, got)
		}
	}
}

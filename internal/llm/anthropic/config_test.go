package anthropic

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

func TestNewConfig(t *testing.T) {
	tests := []struct {
		name    string
		cfg     Config
		wantErr string
		retries int
		base    time.Duration
	}{
		{"no credentials", Config{BaseURL: "http://x"}, ErrNoCredentials.Error(), 0, 0},
		{"defaults", Config{APIKey: "k"}, "", DefaultMaxRetries, DefaultBaseDelay},
		{"no retries", Config{AuthToken: "t", MaxRetries: -1, BaseDelay: time.Second}, "", 0, time.Second},
		{"bad base URL", Config{APIKey: "k", BaseURL: "localhost:8080"}, "base URL", 0, 0},
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
			if c.policy.MaxRetries != tt.retries || c.policy.BaseDelay != tt.base || c.policy.MaxDelay != DefaultMaxDelay {
				t.Errorf("client = %+v", c)
			}
		})
	}
	if _, err := New(Config{}); !errors.Is(err, ErrNoCredentials) {
		t.Errorf("New(Config{}) = %v, want ErrNoCredentials", err)
	}
}

func TestConfigFromEnv(t *testing.T) {
	tests := []struct {
		retries string
		want    int
	}{{"", 0}, {"3", 3}, {"0", -1}, {"-2", 0}, {"many", 0}}
	for _, tt := range tests {
		t.Setenv("ANTHROPIC_API_KEY", "")
		t.Setenv("ANTHROPIC_AUTH_TOKEN", "tok")
		t.Setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:1")
		t.Setenv("MINI_CLAUDE_MAX_RETRIES", tt.retries)
		want := Config{AuthToken: "tok", BaseURL: "http://127.0.0.1:1", MaxRetries: tt.want}
		if got := ConfigFromEnv(); got != want {
			t.Errorf("MINI_CLAUDE_MAX_RETRIES=%q: ConfigFromEnv() = %+v, want %+v", tt.retries, got, want)
		}
	}
}

func TestAuthTokenIsSentAsBearer(t *testing.T) {
	srv := llmtest.New(t)
	srv.Push(llmtest.Turn{Blocks: []llm.ContentBlock{llmtest.Text("ok")}})
	c, err := New(Config{AuthToken: "tok-123", BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := llmtest.Collect(context.Background(), c, simpleRequest("hi")); err != nil {
		t.Fatal(err)
	}
	h := srv.Requests()[0].Header
	if h.Get("Authorization") != "Bearer tok-123" || h.Get("x-api-key") != "" {
		t.Errorf("authorization %q, x-api-key %q", h.Get("Authorization"), h.Get("x-api-key"))
	}
}

func TestConnectionRefusedIsRetried(t *testing.T) {
	srv, err := llmtest.Start()
	if err != nil {
		t.Fatal(err)
	}
	srv.Close()
	c, err := New(Config{APIKey: "k", BaseURL: srv.URL, MaxRetries: 2, BaseDelay: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	events, err := llmtest.Collect(context.Background(), c, simpleRequest("hi"))
	var apiErr *llm.APIError
	if !errors.As(err, &apiErr) || apiErr.Status != 0 || !apiErr.Retryable || len(events) != 2 {
		t.Errorf("err = %v after %d events", err, len(events))
	}
}

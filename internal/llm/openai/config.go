// Package openai implements llm.Client with OpenAI's chat completions API,
// streaming, for hosted OpenAI models and for the local servers that speak the
// same API (Ollama, llama.cpp's llama-server, vLLM). Retries are those of
// llm/retry, as for the Anthropic client.
//
// It is a focused client of our own rather than github.com/openai/openai-go:
// the streaming chat completions protocol is small and stable, and linking the
// SDK would add about 20 MB to the binary (see BENCHMARKS.md), past its limit.
package openai

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/mini-claude/mini-claude/internal/llm/retry"
)

// DefaultBaseURL is OpenAI's API, used when a Config names no other.
const DefaultBaseURL = "https://api.openai.com/v1"

// ErrNoCredentials is returned by New for OpenAI's own API when the Config
// holds no API key; other servers may need none.
var ErrNoCredentials = errors.New("no OpenAI credentials: set OPENAI_API_KEY, or OPENAI_BASE_URL for a server that needs no key")

// Config says how to reach the API and how to retry.
type Config struct {
	// APIKey is sent as "Authorization: Bearer" when not empty.
	APIKey string
	// BaseURL is the API root that /chat/completions is appended to, such as
	// http://127.0.0.1:11434/v1; empty means DefaultBaseURL.
	BaseURL string
	// MaxRetries is the number of retries after the first attempt: 0 means
	// retry.DefaultMaxRetries, a negative value means none.
	MaxRetries int
	// BaseDelay and MaxDelay bound the backoff; 0 means the defaults.
	BaseDelay, MaxDelay time.Duration
	// HTTPClient sends the requests; nil means retry.HTTPClient().
	HTTPClient *http.Client
}

// ConfigFromEnv returns a Config from OPENAI_API_KEY, OPENAI_BASE_URL and
// MINI_CLAUDE_MAX_RETRIES.
func ConfigFromEnv() Config {
	return Config{
		APIKey:     os.Getenv("OPENAI_API_KEY"),
		BaseURL:    os.Getenv("OPENAI_BASE_URL"),
		MaxRetries: retry.MaxRetriesFromEnv(),
	}
}

// Client streams model responses from a chat completions endpoint; it is safe
// for concurrent use.
type Client struct {
	endpoint string
	// loopback says the server is on this machine (127.0.0.0/8, ::1, localhost).
	loopback bool
	apiKey   string
	http     *http.Client
	policy   retry.Policy
}

// New returns a Client for cfg. It fails with ErrNoCredentials when cfg points
// at OpenAI's API without a key, and on a base URL that is not http(s).
func New(cfg Config) (*Client, error) {
	base := cfg.BaseURL
	if base == "" {
		base = DefaultBaseURL
	}
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("openai: base URL %q: want http(s)://host[:port][/path], such as http://127.0.0.1:11434/v1", base)
	}
	if cfg.APIKey == "" && u.Host == "api.openai.com" {
		return nil, ErrNoCredentials
	}
	c := &Client{
		endpoint: strings.TrimSuffix(base, "/") + "/chat/completions",
		loopback: isLoopback(u.Hostname()),
		apiKey:   cfg.APIKey,
		http:     cfg.HTTPClient,
		policy:   retry.Policy{MaxRetries: cfg.MaxRetries, BaseDelay: cfg.BaseDelay, MaxDelay: cfg.MaxDelay}.Normalized(),
	}
	if c.http == nil {
		c.http = retry.HTTPClient()
	}
	return c, nil
}

// isLoopback reports whether host names this machine.
func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

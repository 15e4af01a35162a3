// Package anthropic implements llm.Client with the Anthropic Messages API,
// streaming, through the official Go SDK. Retries are done here, not by the
// SDK: jittered exponential backoff that honours the server's retry-after
// headers, and a stream cut short is asked for again from scratch.
package anthropic

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"time"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/mini-claude/mini-claude/internal/llm/retry"
)

// Defaults of Config, as in Claude Code; the retry policy is shared with the
// other providers.
const (
	DefaultMaxRetries = retry.DefaultMaxRetries
	DefaultBaseDelay  = retry.DefaultBaseDelay
	DefaultMaxDelay   = retry.DefaultMaxDelay
)

// ErrNoCredentials is returned by New when the Config holds neither an API key
// nor an auth token.
var ErrNoCredentials = errors.New("no Anthropic credentials: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN for a bearer token)")

// Config says how to reach the API and how to retry.
type Config struct {
	// APIKey is sent in the x-api-key header.
	APIKey string
	// AuthToken is sent as "Authorization: Bearer"; it is used only when APIKey is empty.
	AuthToken string
	// BaseURL replaces https://api.anthropic.com when not empty.
	BaseURL string
	// MaxRetries is the number of retries after the first attempt: 0 means
	// DefaultMaxRetries, a negative value means none.
	MaxRetries int
	// BaseDelay and MaxDelay bound the backoff; 0 means the defaults.
	BaseDelay, MaxDelay time.Duration
	// HTTPClient sends the requests; nil means a client with no overall
	// timeout (streams may be long) and a 10-minute wait for response headers.
	HTTPClient *http.Client
}

// ConfigFromEnv returns a Config from ANTHROPIC_API_KEY, ANTHROPIC_AUTH_TOKEN,
// ANTHROPIC_BASE_URL and MINI_CLAUDE_MAX_RETRIES (a count of retries, 0 for
// none; a value that is not a non-negative integer keeps the default).
func ConfigFromEnv() Config {
	return Config{
		APIKey:     os.Getenv("ANTHROPIC_API_KEY"),
		AuthToken:  os.Getenv("ANTHROPIC_AUTH_TOKEN"),
		BaseURL:    os.Getenv("ANTHROPIC_BASE_URL"),
		MaxRetries: retry.MaxRetriesFromEnv(),
	}
}

// Client streams model responses from the Messages API; it is safe for
// concurrent use.
type Client struct {
	sdk    sdk.Client
	policy retry.Policy
}

// New returns a Client for cfg. It fails with ErrNoCredentials when cfg has
// neither an API key nor an auth token, and on a base URL that is not http(s).
func New(cfg Config) (*Client, error) {
	if cfg.APIKey == "" && cfg.AuthToken == "" {
		return nil, ErrNoCredentials
	}
	c := &Client{policy: retry.Policy{MaxRetries: cfg.MaxRetries, BaseDelay: cfg.BaseDelay, MaxDelay: cfg.MaxDelay}.Normalized()}
	hc := cfg.HTTPClient
	if hc == nil {
		hc = retry.HTTPClient()
	}
	opts := []option.RequestOption{
		option.WithoutEnvironmentDefaults(), // the environment is read by ConfigFromEnv only
		option.WithMaxRetries(0),
		option.WithHTTPClient(hc),
	}
	if cfg.APIKey != "" {
		opts = append(opts, option.WithHeader("x-api-key", cfg.APIKey))
	} else {
		opts = append(opts, option.WithHeader("authorization", "Bearer "+cfg.AuthToken))
	}
	if cfg.BaseURL != "" {
		u, err := url.Parse(cfg.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("anthropic: base URL %q: want http(s)://host[:port][/path]", cfg.BaseURL)
		}
		opts = append(opts, option.WithBaseURL(cfg.BaseURL))
	}
	c.sdk = sdk.NewClient(opts...)
	return c, nil
}

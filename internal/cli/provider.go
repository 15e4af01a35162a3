package cli

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/mini-claude/mini-claude/internal/config"
	"github.com/mini-claude/mini-claude/internal/credentials"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/anthropic"
	"github.com/mini-claude/mini-claude/internal/llm/openai"
	"github.com/mini-claude/mini-claude/internal/tools/web"
)

// DefaultOpenAIModel is the model of the openai provider when none is named.
const DefaultOpenAIModel = "gpt-5.4"

// The APIs a provider speaks.
const (
	APIAnthropic = "anthropic"
	APIOpenAI    = "openai"
)

// Provider is where the model of a session is served and how to talk to it.
type Provider struct {
	// Name is what the user chose: anthropic, openai, ollama, llamacpp or vllm.
	Name string
	// API is APIAnthropic or APIOpenAI (chat completions).
	API string
	// BaseURL is the local server of a preset; OPENAI_BASE_URL overrides it.
	BaseURL string
	// Local says the model runs on the user's machine: it needs no key and costs nothing.
	Local bool
}

// providers are the names --provider, the "provider" setting and a model-name
// prefix ("ollama/qwen3-coder") accept.
var providers = []Provider{
	{Name: "anthropic", API: APIAnthropic},
	{Name: "openai", API: APIOpenAI},
	{Name: "ollama", API: APIOpenAI, BaseURL: "http://127.0.0.1:11434/v1", Local: true},
	{Name: "llamacpp", API: APIOpenAI, BaseURL: "http://127.0.0.1:8080/v1", Local: true},
	{Name: "vllm", API: APIOpenAI, BaseURL: "http://127.0.0.1:8000/v1", Local: true},
}

func lookupProvider(name string) (Provider, bool) {
	i := slices.IndexFunc(providers, func(p Provider) bool { return p.Name == name })
	if i < 0 {
		return Provider{}, false
	}
	return providers[i], true
}

func providerNames() string {
	names := make([]string, len(providers))
	for i, p := range providers {
		names[i] = p.Name
	}
	return strings.Join(names, ", ")
}

// splitProvider splits a model name that starts with a provider's name and a
// slash ("ollama/qwen3-coder") into the two.
func splitProvider(model string) (string, string, bool) {
	name, rest, found := strings.Cut(model, "/")
	if _, known := lookupProvider(name); !found || !known || rest == "" {
		return "", model, false
	}
	return name, rest, true
}

// resolveBackend picks the provider and the model. The command line comes
// first: --provider, else the prefix of --model; then the settings files'
// "provider". A provider chosen that way takes the model name as it is, but
// for its own prefix, so "--provider vllm --model openai/gpt-oss-120b" keeps the
// Hugging Face name whole. The model is --model, else $ANTHROPIC_MODEL (for
// Anthropic), else the settings' "model", else the provider's default; with no
// provider chosen, that model's prefix may still choose one, else Anthropic.
func resolveBackend(flagProvider, flagModel, envModel string, files []config.File) (Provider, string, error) {
	name, model := flagProvider, flagModel
	if name == "" {
		if prefix, rest, ok := splitProvider(model); ok {
			name, model = prefix, rest
		}
	}
	for i := len(files) - 1; i >= 0 && name == ""; i-- {
		name = files[i].Provider
	}
	if model == "" && (name == "" || name == "anthropic") {
		model = envModel
	}
	for i := len(files) - 1; i >= 0 && model == ""; i-- {
		model = files[i].Model
	}
	if prefix, rest, ok := splitProvider(model); ok && (name == "" || name == prefix) {
		name, model = prefix, rest
	}
	if name == "" {
		name = "anthropic"
	}
	p, ok := lookupProvider(name)
	if !ok {
		return Provider{}, "", usageError("unknown provider %q: use one of %s", name, providerNames())
	}
	switch {
	case model != "":
	case p.Name == "anthropic":
		model = llm.DefaultModel
	case p.Name == "openai":
		model = DefaultOpenAIModel
	default:
		return Provider{}, "", usageError("no model for %s: name one the server serves, as in --model %s/qwen3-coder", p.Name, p.Name)
	}
	if full, ok := modelAliases[model]; ok && p.API == APIAnthropic {
		model = full
	}
	return p, model, nil
}

// NewClient returns the model client of a provider, configured from the
// environment: ANTHROPIC_* for Anthropic; OPENAI_API_KEY and OPENAI_BASE_URL
// for the others, a local preset's URL serving when OPENAI_BASE_URL is unset.
// Without a key in the environment, the key saved by the first-run setup in
// the user's folder serves (never for a local server).
func NewClient(p Provider) (llm.Client, error) {
	if p.API == APIAnthropic {
		cfg := anthropic.ConfigFromEnv()
		if cfg.APIKey == "" && cfg.AuthToken == "" {
			stored, err := credentials.Load(config.Home())
			if err != nil {
				return nil, err
			}
			cfg.APIKey = stored.AnthropicAPIKey
		}
		return anthropic.New(cfg)
	}
	cfg := openai.ConfigFromEnv()
	if cfg.BaseURL == "" {
		cfg.BaseURL = p.BaseURL
	}
	if cfg.APIKey == "" && !p.Local {
		stored, err := credentials.Load(config.Home())
		if err != nil {
			return nil, err
		}
		cfg.APIKey = stored.OpenAIAPIKey
	}
	c, err := openai.New(cfg)
	if errors.Is(err, openai.ErrNoCredentials) {
		return nil, fmt.Errorf("%w (or use a local server: --model ollama/<model>, llamacpp/<model> or vllm/<model>)", err)
	}
	return c, err
}

// keySource names where the session's credentials come from, for the init event.
func keySource(p Provider, getenv func(string) string) string {
	var names []string
	if p.API == APIAnthropic {
		names = []string{"ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN"}
	} else {
		names = []string{"OPENAI_API_KEY"}
	}
	for _, name := range names {
		if getenv(name) != "" {
			return name
		}
	}
	return "none"
}

// credentialHint says what to check when the provider refused the credentials.
func credentialHint(p Provider) string {
	if p.API == APIAnthropic {
		return "check ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN)"
	}
	return "check OPENAI_API_KEY"
}

// serverHint says what to check when the requests kept failing.
func serverHint(p Provider, getenv func(string) string) string {
	switch {
	case p.API == APIAnthropic:
		return "try again later or check ANTHROPIC_BASE_URL"
	case p.Local && getenv("OPENAI_BASE_URL") == "":
		return fmt.Sprintf("check that the %s server runs at %s, or set OPENAI_BASE_URL", p.Name, p.BaseURL)
	}
	return "try again later or check OPENAI_BASE_URL"
}

// defaultSmallModel is the fast model of the web tools' side requests on the Anthropic API.
const defaultSmallModel = "claude-haiku-4-5"

// webConfig is what the session's web tools get: the fast model WebFetch's
// side request runs on, chosen as Claude Code chooses it
// (ANTHROPIC_SMALL_FAST_MODEL, else ANTHROPIC_DEFAULT_HAIKU_MODEL, else Haiku
// on the Anthropic API itself, else the session's model, "" — behind a
// gateway or proxy Haiku may not be served, and other providers have no
// such model), whether the provider searches the web itself (the Anthropic
// API), and the settings files' "webFetch" and "webSearch".
func webConfig(p Provider, files []config.File, getenv func(string) string) web.Config {
	c := web.Config{ServerSearch: p.API == APIAnthropic}
	c.Settings.SkipSummary, c.Settings.SearXNG = config.Web(files)
	if p.API != APIAnthropic {
		return c
	}
	for _, name := range []string{"ANTHROPIC_SMALL_FAST_MODEL", "ANTHROPIC_DEFAULT_HAIKU_MODEL"} {
		if m := getenv(name); m != "" {
			c.SmallModel = m
			return c
		}
	}
	if base := getenv("ANTHROPIC_BASE_URL"); base == "" || strings.TrimRight(base, "/") == "https://api.anthropic.com" {
		c.SmallModel = defaultSmallModel
	}
	return c
}

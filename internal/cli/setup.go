package cli

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/mini-claude/mini-claude/internal/config"
	"github.com/mini-claude/mini-claude/internal/credentials"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/anthropic"
	"github.com/mini-claude/mini-claude/internal/llm/openai"
	"github.com/mini-claude/mini-claude/internal/localmodel"
	"github.com/mini-claude/mini-claude/internal/tui"
)

// maxModelsPerServer is how many models of a local server the setup screen offers.
const maxModelsPerServer = 3

// noCredentials says whether err is a provider's refusal to start without a key.
func noCredentials(err error) bool {
	return errors.Is(err, anthropic.ErrNoCredentials) || errors.Is(err, openai.ErrNoCredentials)
}

// localChoice is a model of a local server, as the setup screen offers it.
type localChoice struct {
	server localmodel.Server
	model  string
}

// firstRunSetup is the UI's answer to a session without credentials (noKey
// is the provider's error): the setup screen offers the models of the
// OpenAI-compatible servers found on this machine's usual ports, a key to
// paste, or quitting, which fails with noKey as before. A pasted key is
// saved in the user's folder and serves this session and the next ones; a
// local server serves this session, and the notice returned tells how to
// make it the default.
func firstRunSetup(ctx context.Context, f *Factory, s *session, noKey error) (llm.Client, string, error) {
	candidates, err := localmodel.Candidates(f.Getenv(localmodel.PortsEnv))
	if err != nil {
		return nil, "", &ExitError{Code: ExitUsage, Err: err}
	}
	var locals []localChoice
	var labels []string
	for _, server := range localmodel.Find(ctx, candidates) {
		for _, model := range server.Models[:min(len(server.Models), maxModelsPerServer)] {
			locals = append(locals, localChoice{server: server, model: model})
			labels = append(labels, fmt.Sprintf("%s at %s · %s", server.Name, server.BaseURL, model))
		}
	}
	keyName := "Anthropic API key"
	if s.provider.API == APIOpenAI {
		keyName = "OpenAI API key"
	}
	dir := config.Home()
	answer, err := tui.RunSetup(ctx, tui.Setup{KeyName: keyName, KeyFile: filepath.Join(dir, credentials.FileName), Locals: labels})
	if errors.Is(err, tui.ErrNoAnswer) {
		return nil, "", &ExitError{Code: ExitUsage, Err: noKey}
	}
	if err != nil {
		return nil, "", fmt.Errorf("the setup screen: %w", err)
	}
	if answer.Local >= 0 {
		return useLocal(s, locals[answer.Local], f.Getenv)
	}
	stored := credentials.Stored{AnthropicAPIKey: answer.Key}
	if s.provider.API == APIOpenAI {
		stored = credentials.Stored{OpenAIAPIKey: answer.Key}
	}
	path, err := credentials.Save(dir, stored)
	if err != nil {
		return nil, "", &ExitError{Code: ExitFailed, Err: err}
	}
	client, err := f.NewClient(s.provider)
	if err != nil {
		return nil, "", &ExitError{Code: ExitUsage, Err: err}
	}
	return client, fmt.Sprintf("Your %s is saved in %s (readable by you only); delete the file to forget it.", keyName, path), nil
}

// useLocal makes the chosen local model the session's, on the OpenAI API at
// the server's URL, free and without a key.
func useLocal(s *session, c localChoice, getenv func(string) string) (llm.Client, string, error) {
	name := c.server.Name
	if _, preset := lookupProvider(name); !preset {
		name = APIOpenAI
	}
	s.provider = Provider{Name: name, API: APIOpenAI, BaseURL: c.server.BaseURL, Local: true}
	s.model = c.model
	s.web = webConfig(s.provider, s.files, getenv)
	client, err := openai.New(openai.Config{BaseURL: c.server.BaseURL, MaxRetries: openai.ConfigFromEnv().MaxRetries})
	if err != nil {
		return nil, "", &ExitError{Code: ExitUsage, Err: err}
	}
	return client, fmt.Sprintf("Using %s at %s for this session. To start with it every time: %s", c.model, c.server.BaseURL, makeDefault(name, c)), nil
}

// makeDefault tells how to choose a local model without the setup screen:
// a --provider preset's model name, or the OpenAI variables for a server on
// another port.
func makeDefault(name string, c localChoice) string {
	if name != APIOpenAI {
		if p, _ := lookupProvider(name); p.BaseURL == c.server.BaseURL {
			return fmt.Sprintf(`mini-claude --model %s/%s, or "model": "%s/%s" in %s.`, name, c.model, name, c.model, filepath.Join(config.Home(), "settings.json"))
		}
	}
	return fmt.Sprintf("OPENAI_BASE_URL=%s mini-claude --provider openai --model %s.", c.server.BaseURL, c.model)
}

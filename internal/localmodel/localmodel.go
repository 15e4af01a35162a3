// Package localmodel finds OpenAI-compatible model servers running on this
// machine (Ollama, llama.cpp, vLLM, LM Studio) for the first-run setup: it
// asks each usual port of the loopback interface, all at once and within a
// short deadline, for GET /v1/models, and keeps those that answer with a
// model list.
package localmodel

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Budget is how long Find waits for all the ports together.
const Budget = 100 * time.Millisecond

// PortsEnv, when set, replaces the ports Find asks by its comma-separated
// list, for tests whose fixed ports may be busy.
const PortsEnv = "MINI_CLAUDE_LOCAL_MODEL_PORTS"

// Candidate is a port where a kind of server usually listens.
type Candidate struct {
	// Name is the server's name, as the --provider presets spell it where one exists.
	Name string
	Port int
}

// Usual are the ports the servers listen on by default.
var Usual = []Candidate{
	{Name: "ollama", Port: 11434},
	{Name: "llamacpp", Port: 8080},
	{Name: "vllm", Port: 8000},
	{Name: "lmstudio", Port: 1234},
}

// Candidates returns Usual, or the ports a PortsEnv value lists (each named
// "local"); an entry that is not a port number is an error.
func Candidates(env string) ([]Candidate, error) {
	if strings.TrimSpace(env) == "" {
		return Usual, nil
	}
	var out []Candidate
	for _, field := range strings.Split(env, ",") {
		port, err := strconv.Atoi(strings.TrimSpace(field))
		if err != nil || port <= 0 || port > 65535 {
			return nil, fmt.Errorf("%s: %q is not a port number", PortsEnv, field)
		}
		out = append(out, Candidate{Name: "local", Port: port})
	}
	return out, nil
}

// Server is a model server found.
type Server struct {
	Name string
	// BaseURL is the API's base, such as http://127.0.0.1:11434/v1.
	BaseURL string
	// Models are the ids /v1/models listed, in its order; never empty.
	Models []string
}

// Find asks every candidate at once and returns those that answered with at
// least one model, in the candidates' order. It returns within Budget, or
// sooner when ctx ends.
func Find(ctx context.Context, candidates []Candidate) []Server {
	ctx, cancel := context.WithTimeout(ctx, Budget)
	defer cancel()
	found := make([]*Server, len(candidates))
	var wg sync.WaitGroup
	for i, c := range candidates {
		wg.Go(func() {
			base := fmt.Sprintf("http://127.0.0.1:%d/v1", c.Port)
			if models, err := listModels(ctx, base); err == nil && len(models) > 0 {
				found[i] = &Server{Name: c.Name, BaseURL: base, Models: models}
			}
		})
	}
	wg.Wait()
	var out []Server
	for _, s := range found {
		if s != nil {
			out = append(out, *s)
		}
	}
	return out
}

// maxModelsBody bounds the answer read from a port: a model list is small.
const maxModelsBody = 1 << 20

// listModels returns the model ids of GET base/models, OpenAI's shape:
// {"object":"list","data":[{"id":"…"},…]}.
func listModels(ctx context.Context, base string) ([]string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/models", nil)
	if err != nil {
		return nil, err
	}
	// No proxy: the question is for this machine's loopback only.
	client := &http.Client{Transport: &http.Transport{Proxy: nil, DisableKeepAlives: true}}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s/models: %s", base, resp.Status)
	}
	var list struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxModelsBody)).Decode(&list); err != nil {
		return nil, fmt.Errorf("GET %s/models: not an OpenAI model list: %w", base, err)
	}
	var ids []string
	for _, m := range list.Data {
		if m.ID != "" {
			ids = append(ids, m.ID)
		}
	}
	return ids, nil
}

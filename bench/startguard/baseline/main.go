// Command baseline is the floor the start-up guard (bench/startguard) holds
// mini-claude against: a minimal static Go program that starts, sends one
// streaming Messages request to $ANTHROPIC_BASE_URL and reads the answer to
// its end. What mini-claude takes beyond it is its own start-up: package
// initialisation, settings, memory files, the system prompt, the tools.
package main

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
)

const body = `{"model":"claude-sonnet-4-5","max_tokens":1024,"stream":true,"messages":[{"role":"user","content":"say hello"}]}`

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "baseline:", err)
		os.Exit(1)
	}
}

func run() error {
	url := strings.TrimSuffix(os.Getenv("ANTHROPIC_BASE_URL"), "/") + "/v1/messages"
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Api-Key", os.Getenv("ANTHROPIC_API_KEY"))
	req.Header.Set("Anthropic-Version", "2023-06-01")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		return fmt.Errorf("read the answer: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("the server answered %s", resp.Status)
	}
	return nil
}

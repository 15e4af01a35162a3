// Command record runs the Agent SDK scenarios of ../scenarios against the
// real Claude Code and keeps what it did as the golden files of
// e2e/testdata/sdk/golden (see the README there):
//
//	go run ./e2e/testdata/sdk/record [-claude PATH] [-npm DIR] [-only NAME,…] [-keep]
//
// For each scenario it makes a scratch project (with a.txt) and HOME (whose
// .claude.json marks onboarding done and the project trusted), serves the
// scenario's model script with internal/llm/llmtest, and runs
// `node run.mjs NAME` with the TypeScript Agent SDK, its
// pathToClaudeCodeExecutable a wrapper that keeps the command line and the
// protocol's stdin and stdout of every process the SDK starts.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/mini-claude/mini-claude/internal/goldenfile/recorder"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// tap is the wrapper the SDK starts: it runs $REAL with the same arguments,
// keeping them, the protocol's lines both ways and stderr in a folder of its
// own under $TAP, named so that folders sort by start time.
const tap = `#!/bin/bash
d="$TAP/$(date +%s%N)"
mkdir -p "$d"
printf '%s\n' "$@" > "$d/args"
exec "$REAL" "$@" < <(tee "$d/stdin") > >(tee "$d/stdout") 2> "$d/stderr"
`

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "record:", err)
		os.Exit(1)
	}
}

type options struct {
	recorder.Flags
	npm, out, scenarios string
}

func run() error {
	var o options
	cache, _ := os.UserCacheDir()
	o.Register(flag.CommandLine)
	flag.StringVar(&o.npm, "npm", envOr("MINI_CLAUDE_TEST_NPM", filepath.Join(cache, "mini-claude", "npm")), "folder whose node_modules holds the Agent SDK (.ci/run installs it)")
	flag.StringVar(&o.out, "out", filepath.Join("e2e", "testdata", "sdk", "golden"), "folder the golden files are written to")
	flag.StringVar(&o.scenarios, "scenarios", filepath.Join("e2e", "testdata", "sdk", "scenarios"), "folder of run.mjs and the model scripts")
	flag.Parse()
	var err error
	if o.Claude, err = recorder.Check(o.Claude); err != nil {
		return err
	}
	names, err := scenarioNames(o.scenarios)
	if err != nil {
		return err
	}
	for _, name := range names {
		if !o.Wants(name) {
			continue
		}
		fmt.Fprintf(os.Stderr, "record: %s\n", name)
		if err := record(o, name); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	return nil
}

func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}

// scenarioNames are the scenarios with a model script, in order.
func scenarioNames(dir string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	var names []string
	for _, f := range files {
		names = append(names, strings.TrimSuffix(filepath.Base(f), ".json"))
	}
	sort.Strings(names)
	return names, nil
}

// record runs one scenario and writes its golden files.
func record(o options, name string) error {
	s, err := recorder.NewScratch("sdkref-", name, o.Keep)
	if err != nil {
		return err
	}
	defer s.Remove()
	dir, proj, home, tapDir := s.Dir, s.Proj, s.Home, filepath.Join(s.Dir, "tap")
	if err := os.MkdirAll(tapDir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(proj, "a.txt"), []byte("hello\n"), 0o644); err != nil {
		return err
	}
	if err := recorder.WriteState(home, proj); err != nil {
		return err
	}
	wrapper := filepath.Join(dir, "claude-tap")
	if err := os.WriteFile(wrapper, []byte(tap), 0o755); err != nil {
		return err
	}
	srv, err := llmtest.Start()
	if err != nil {
		return err
	}
	defer srv.Close()
	if err := serveScenario(srv, filepath.Join(o.scenarios, name+".json"), proj); err != nil {
		return err
	}
	front := httptest.NewServer(answerModelChecks(srv.URL))
	defer front.Close()
	script, err := filepath.Abs(filepath.Join(o.scenarios, "run.mjs"))
	if err != nil {
		return err
	}
	res, err := recorder.Command{Path: "node", Args: []string{script, name}, Dir: proj,
		Env: recorder.Env(home, front.URL,
			"SDK_NPM="+o.npm, "SDK_CLI="+wrapper, "SDK_CWD="+proj, "REAL="+o.Claude, "TAP="+tapDir),
	}.Run(context.Background())
	if err != nil {
		return fmt.Errorf("%w; stderr:\n%s", err, res.Stderr)
	}
	time.Sleep(500 * time.Millisecond) // the tee of the last process's stdout
	recorder.ReportViolations(name, srv)
	n := newNormalizer(dir, proj, home, front.URL)
	out := filepath.Join(o.out, name)
	if err := os.RemoveAll(out); err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	if res.ExitCode != 0 {
		fmt.Fprintf(os.Stderr, "record: %s: node exited %d; stderr:\n%s\n", name, res.ExitCode, res.Stderr)
	}
	if err := writeLines(filepath.Join(out, "sdk.jsonl"), res.Stdout, n); err != nil {
		return err
	}
	if err := writeProcesses(out, tapDir, n); err != nil {
		return err
	}
	return writeRequests(filepath.Join(out, "requests.jsonl"), srv.Requests(), n)
}

// answerModelChecks passes the model requests on to the scripted server at
// upstream, except the non-streaming ones, which llmtest does not serve:
// Claude Code sends one to check a model the program switches to
// (setModel) before it takes it. They get a one-word answer and are not
// part of the recording.
func answerModelChecks(upstream string) http.Handler {
	target, _ := url.Parse(upstream)
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.FlushInterval = -1
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var req struct {
			Model  string `json:"model"`
			Stream bool   `json:"stream"`
		}
		if r.URL.Path == "/v1/messages" && json.Unmarshal(body, &req) == nil && !req.Stream {
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(map[string]any{"id": "msg_model_check", "type": "message", "role": "assistant", "model": req.Model,
				"content": []any{map[string]any{"type": "text", "text": "OK"}}, "stop_reason": "end_turn", "stop_sequence": nil,
				"usage": map[string]any{"input_tokens": 1, "output_tokens": 1}})
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		proxy.ServeHTTP(w, r)
	})
}

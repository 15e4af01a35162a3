// Command llmtest-serve serves a scripted model over the Anthropic Messages API,
// OpenAI's chat completions and OpenAI's Responses API, for benchmarks and for
// trying an agent by hand without a real model:
//
//	llmtest-serve -script FILE [-addr 127.0.0.1:0] [-log FILE]
//
// It prints the server's URL (such as http://127.0.0.1:43211) as the first line
// on stdout and serves until it is killed; point ANTHROPIC_BASE_URL at it, or
// OPENAI_BASE_URL at the URL followed by /v1 (with --provider openai). For
// Codex CLI, a model provider in $CODEX_HOME/config.toml with
// base_url = "<URL>/v1" and wire_api = "responses" reaches it; Codex's own
// tools are named in the script (exec_command with {"cmd": "…"}, say).
//
// The turn served is chosen from the request alone: a request whose history
// holds i assistant messages gets turn i, and past the end the last turn. So one
// script serves any number of sequential runs of the agent.
//
// # Script file
//
// A JSON object with a list of turns; each turn is one model response:
//
//	{"turns": [
//	  {"text": "Let me read it.", "tool_uses": [{"name": "Read", "input": {"file_path": "x"}}]},
//	  {"thinking": {"text": "The file is fine.", "signature": "sig"}, "text": "done"}
//	]}
//
// Fields of a turn, all optional:
//
//   - thinking: {"text", "signature"}, a thinking block, streamed first;
//   - text: a text block, streamed next;
//   - tool_uses: [{"id", "name", "input"}], tool_use blocks, streamed last; name
//     is required, input is any JSON object (absent: no input), id is generated
//     when absent;
//   - blocks: content blocks in the API's JSON shape (text, thinking,
//     redacted_thinking, tool_use), in place of the three fields above;
//   - stop_reason: default "tool_use" when the turn has a tool_use, else "end_turn";
//   - usage: {"input_tokens", "output_tokens", "cache_creation_input_tokens",
//     "cache_read_input_tokens"}, default 100 in and 50 out;
//   - model: the model reported, default the one requested;
//   - chunk_delay_ms: a pause between SSE events;
//   - faults: failed answers served before the turn, one per request, the first
//     times the turn is selected: {"status": 429, "retry_after_ms": 50,
//     "retry_after": 1, "type": "...", "message": "...", "should_retry": "false"},
//     {"drop_after_events": 3}, {"malformed": true},
//     {"stream_error": "overloaded_error"} or {"hang": true}.
//
// Unknown fields are errors. testdata/example.json is an example.
//
// # Log
//
// With -log FILE, one JSON line is appended per request:
//
//	{"time_unix_nano":1733140000000000000,"path":"/v1/messages","body_bytes":1834,"messages":3}
//
// with a "violations" list added when the request broke a rule of the API
// (such as a tool_use without its tool_result); violations also go to stderr.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		os.Exit(0)
	case errors.Is(err, errUsage):
		os.Exit(2)
	case err != nil:
		fmt.Fprintln(os.Stderr, "llmtest-serve:", err)
		os.Exit(1)
	}
}

// errUsage marks a command line that could not be parsed; flag has printed why.
var errUsage = errors.New("usage")

// run serves the script named by args until ctx is done.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("llmtest-serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	script := fs.String("script", "", "script file (JSON) to serve (required)")
	addr := fs.String("addr", "127.0.0.1:0", "address to listen on; port 0 picks a free port")
	logPath := fs.String("log", "", "file to append one JSON line per request to")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage
	}
	if *script == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: llmtest-serve -script FILE [-addr 127.0.0.1:0] [-log FILE]")
		return errUsage
	}
	turns, err := llmtest.LoadScript(*script)
	if err != nil {
		return err
	}
	var logFile io.Writer
	if *logPath != "" {
		f, err := os.OpenFile(*logPath, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		if err != nil {
			return fmt.Errorf("open log: %w", err)
		}
		defer f.Close()
		logFile = f
	}
	srv, err := llmtest.Listen(*addr)
	if err != nil {
		return err
	}
	defer srv.Close()
	srv.SetRecord(false)
	srv.OnRequest(logger(logFile, stderr))
	srv.ServeByHistory(turns...)
	fmt.Fprintln(stdout, srv.URL)
	<-ctx.Done()
	return nil
}

// logLine is the JSON line logged for one request.
type logLine struct {
	TimeUnixNano int64    `json:"time_unix_nano"`
	Path         string   `json:"path"`
	BodyBytes    int      `json:"body_bytes"`
	Messages     int      `json:"messages"`
	Violations   []string `json:"violations,omitempty"`
}

// logger returns the request hook: it appends a line per request to log (when
// not nil) and reports violations on stderr.
func logger(log, stderr io.Writer) func(llmtest.Request) {
	var mu sync.Mutex
	return func(r llmtest.Request) {
		mu.Lock()
		defer mu.Unlock()
		for _, v := range r.Violations {
			fmt.Fprintf(stderr, "llmtest-serve: %s: %s\n", r.ID, v)
		}
		if log == nil {
			return
		}
		line, err := json.Marshal(logLine{r.Time.UnixNano(), r.Path, len(r.Body), len(r.Messages), r.Violations})
		if err == nil {
			_, err = log.Write(append(line, '\n'))
		}
		if err != nil {
			fmt.Fprintln(stderr, "llmtest-serve: write log:", err)
		}
	}
}

package custom

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/mini-claude/mini-claude/internal/credentials"
	"github.com/mini-claude/mini-claude/internal/shell"
	"github.com/mini-claude/mini-claude/internal/tool"
)

// InputEnvPrefix starts the names of the variables that carry the top-level
// fields of the input: {"city": "Paris"} sets TOOL_INPUT_CITY=Paris.
const InputEnvPrefix = "TOOL_INPUT_"

// maxOutputBytes caps the output kept in memory; past it the rest is counted
// and dropped.
const maxOutputBytes = 32 << 20

// timeoutTailChars is how much of the end of the output a command stopped
// at its timeout shows; a failure shows all of it, which the executor stores
// and previews when it is over the tool's limit, as it does a success.
const timeoutTailChars = 10_000

// command is the part of a custom tool that runs.
type command struct {
	name    string
	line    string
	timeout time.Duration
}

func (c *command) run(ctx context.Context, in json.RawMessage, env *tool.Env, _ tool.Progress) (string, error) {
	vars, err := inputEnv(in)
	if err != nil {
		return "", err
	}
	childEnv := append(withoutInputVars(credentials.ChildEnv(os.Environ(), env.PassEnv)), vars...)
	if !env.FolderTrusted {
		// As for Bash: git in a folder the user has not trusted runs none
		// of its repositories' programs.
		if childEnv, err = shell.UntrustedGitEnv(ctx, c.line, env.Cwd, childEnv); err != nil {
			return "", fmt.Errorf("the command of %s was not run: %w", c.name, err)
		}
	}
	stdinRead, stdinWrite, err := os.Pipe()
	if err != nil {
		return "", fmt.Errorf("create the input pipe: %w", err)
	}
	out := &capped{limit: maxOutputBytes}
	proc, err := shell.Start(shell.Spec{Command: c.line, Dir: env.Cwd, Env: childEnv, Stdin: stdinRead, Output: out})
	stdinRead.Close()
	if err != nil {
		stdinWrite.Close()
		return "", fmt.Errorf("the command of %s could not start: %w", c.name, err)
	}
	// The writer ends when the command has read the input, when every
	// process holding the pipe is gone, or when the pipe is closed under it
	// once the command was killed, and the call returns only after it.
	written := make(chan struct{})
	go func() {
		defer close(written)
		_, _ = stdinWrite.Write(in)
		stdinWrite.Close()
	}()
	defer func() {
		proc.Kill()
		stdinWrite.Close()
		<-written
	}()
	timer := time.NewTimer(c.timeout)
	defer timer.Stop()
	select {
	case <-proc.Done():
	case <-ctx.Done():
		proc.Terminate(shell.TerminateGrace)
		return "", fmt.Errorf("%s was interrupted: %w", c.name, ctx.Err())
	case <-timer.C:
		proc.Terminate(shell.TerminateGrace)
		return "", fmt.Errorf("%s did not finish within %v and was stopped. If it needs longer, raise its \"timeout\" (seconds) in the settings; otherwise call it with a smaller input.%s",
			c.name, c.timeout, outputSoFar(out.String()))
	}
	text := strings.TrimRight(out.String(), " \t\r\n")
	if exit := proc.Exit(); exit.Code != 0 {
		return "", &tool.OutputError{Text: strings.TrimRight(fmt.Sprintf("Exit code %d\n%s", exit.Code, text), "\n")}
	}
	return text, nil
}

// inputEnv turns the top-level fields of the input into TOOL_INPUT_<FIELD>
// variables: strings as they are, null as empty, anything else as JSON.
func inputEnv(in json.RawMessage) ([]string, error) {
	fields := map[string]json.RawMessage{}
	if len(bytes.TrimSpace(in)) > 0 {
		if err := json.Unmarshal(in, &fields); err != nil {
			return nil, fmt.Errorf("the input must be a JSON object: %w", err)
		}
	}
	names := make([]string, 0, len(fields))
	for name := range fields {
		names = append(names, name)
	}
	slices.Sort(names)
	vars := make([]string, 0, len(names))
	for _, name := range names {
		raw := fields[name]
		value := string(raw)
		var s string
		switch {
		case json.Unmarshal(raw, &s) == nil:
			value = s
		case string(raw) == "null":
			value = ""
		}
		vars = append(vars, InputEnvPrefix+envName(name)+"="+value)
	}
	return vars, nil
}

// envName upper-cases a field name and replaces what a shell variable name
// cannot hold with '_'.
func envName(field string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z':
			return r - 'a' + 'A'
		case r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_':
			return r
		}
		return '_'
	}, field)
}

// withoutInputVars drops TOOL_INPUT_ variables the user's environment has, so
// only the call's own fields are set.
func withoutInputVars(env []string) []string {
	return slices.DeleteFunc(slices.Clone(env), func(kv string) bool { return strings.HasPrefix(kv, InputEnvPrefix) })
}

func outputSoFar(text string) string {
	text = strings.TrimRight(text, " \t\r\n")
	if text == "" {
		return ""
	}
	return "\nOutput so far:\n" + tail(text, timeoutTailChars)
}

// tail returns about the last n bytes of s, starting at a character.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	start := len(s) - n
	for start < len(s) && !utf8.RuneStart(s[start]) {
		start++
	}
	return "…" + s[start:]
}

// capped keeps the first limit bytes written to it and counts the rest.
type capped struct {
	mu      sync.Mutex
	limit   int
	buf     bytes.Buffer
	dropped int64
}

func (c *capped) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := len(p)
	if room := max(c.limit-c.buf.Len(), 0); room < n {
		c.dropped += int64(n - room)
		p = p[:room]
	}
	c.buf.Write(p)
	return n, nil
}

func (c *capped) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.dropped == 0 {
		return c.buf.String()
	}
	return fmt.Sprintf("%s\n[output cut: %d more bytes were dropped past the first %d MB]", c.buf.String(), c.dropped, c.limit>>20)
}

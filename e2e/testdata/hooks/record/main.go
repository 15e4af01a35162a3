// Command record asks the real Claude Code what its lifecycle hooks receive
// and what their answers do, and writes the answers as the golden files of
// e2e/testdata/hooks (see the README there):
//
//	go run ./e2e/testdata/hooks/record [-claude PATH] [-out DIR] [-only NAME,…] [-keep]
//
// For each scenario it makes a scratch project and HOME, writes the hooks into
// the project's .claude/settings.json, starts the scripted model server of
// internal/llm/llmtest, runs claude -p against it and normalizes what came
// back (see normalizer). The hooks that log their input run this same
// program as "record log-hook FILE EVENT".
//
// Without -claude, Claude Code 2.1.332 is installed with npm into
// ~/.cache/mini-claude-ref unless it is there already.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

const (
	claudeVersion = "2.1.332"
	model         = "claude-sonnet-4-5-20250929"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "log-hook" {
		if err := logHook(os.Args[2:]); err != nil {
			fmt.Fprintln(os.Stderr, "record log-hook:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "record:", err)
		os.Exit(1)
	}
}

type options struct {
	claude string
	out    string
	only   map[string]bool
	keep   bool
	self   string
}

func run() error {
	var o options
	var only string
	flag.StringVar(&o.claude, "claude", "", "Claude Code's executable (default: "+claudeVersion+" installed into ~/.cache/mini-claude-ref)")
	flag.StringVar(&o.out, "out", filepath.Join("e2e", "testdata", "hooks"), "folder the golden files are written to")
	flag.StringVar(&only, "only", "", "record only these scenarios (comma-separated names)")
	flag.BoolVar(&o.keep, "keep", false, "keep the scratch folders (their paths are printed)")
	flag.Parse()
	if only != "" {
		o.only = map[string]bool{}
		for _, n := range strings.Split(only, ",") {
			o.only[n] = true
		}
	}
	var err error
	if o.claude, err = installed(o.claude); err != nil {
		return err
	}
	out, err := exec.Command(o.claude, "--version").Output()
	if err != nil {
		return fmt.Errorf("%s --version: %w", o.claude, err)
	}
	if v := strings.TrimSpace(string(out)); v != claudeVersion+" (Claude Code)" {
		return fmt.Errorf("%s is %q, want %s", o.claude, v, claudeVersion)
	}
	if o.self, err = os.Executable(); err != nil {
		return err
	}
	for _, sc := range scenarios() {
		if o.only != nil && !o.only[sc.name] {
			continue
		}
		fmt.Fprintf(os.Stderr, "record: %s\n", sc.name)
		if err := record(o, sc); err != nil {
			return fmt.Errorf("%s: %w", sc.name, err)
		}
	}
	return nil
}

// installed returns path when given, else Claude Code's executable in
// ~/.cache/mini-claude-ref, installed with npm when it is not there.
func installed(path string) (string, error) {
	if path != "" {
		return path, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	prefix := filepath.Join(home, ".cache", "mini-claude-ref")
	bin := filepath.Join(prefix, "node_modules", ".bin", "claude")
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	fmt.Fprintf(os.Stderr, "record: installing Claude Code %s into %s\n", claudeVersion, prefix)
	install := exec.Command("npm", "install", "--no-audit", "--no-fund", "--prefix", prefix, "@anthropic-ai/claude-code@"+claudeVersion)
	install.Stdout, install.Stderr = os.Stderr, os.Stderr
	if err := install.Run(); err != nil {
		return "", fmt.Errorf("npm install (or name an installed claude with -claude): %w", err)
	}
	return bin, nil
}

// logHook is a hook command: it appends one JSON line to the file args[0]
// holding the label args[1], its working directory, its environment and the
// JSON it read on stdin.
func logHook(args []string) error {
	if len(args) != 2 {
		return errors.New("usage: record log-hook FILE LABEL")
	}
	stdin, err := io.ReadAll(os.Stdin)
	if err != nil {
		return err
	}
	wd, _ := os.Getwd()
	env := map[string]string{}
	for _, kv := range os.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	envJSON, _ := json.Marshal(env) // map keys sorted
	if !json.Valid(stdin) {
		stdin, _ = json.Marshal(string(stdin))
	}
	line := fmt.Sprintf(`{"label":%s,"cwd":%s,"env":%s,"stdin":%s}`+"\n", quote(args[1]), quote(wd), envJSON, bytes.TrimSpace(stdin))
	f, err := os.OpenFile(args[0], os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = f.WriteString(line)
	return err
}

// scratch is one scenario's folders: dir holds the project (proj, the
// working directory of claude), its HOME (home) and the hook logs (log).
type scratch struct {
	dir, proj, home, log string
	self                 string // this program, for log-hook commands
}

// logCmd is a hook command logging its input under label to the scenario's
// hook log.
func (s *scratch) logCmd(label string) string {
	return fmt.Sprintf("%s log-hook %s %s", shq(s.self), shq(s.log), shq(label))
}

// inputs is the file the effect hooks log their stdin to, one line each.
func (s *scratch) inputs() string { return filepath.Join(s.dir, "inputs.jsonl") }

// shq quotes s for sh.
func shq(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// runResult is what one run of claude gave.
type runResult struct {
	spec     runSpec
	args     []string
	stdout   []byte
	stderr   []byte
	code     int
	requests []llmtest.Request
	session  string
	logLines int // lines in the hook log when the run ended
}

// countLines counts the lines of a file (0 when it does not exist).
func countLines(path string) int {
	data, _ := os.ReadFile(path)
	return bytes.Count(data, []byte("\n"))
}

// record runs one scenario and writes its golden files.
func record(o options, sc scenario) error {
	dir, err := os.MkdirTemp("", "hookref-")
	if err != nil {
		return err
	}
	dir, _ = filepath.EvalSymlinks(dir)
	if o.keep {
		fmt.Fprintf(os.Stderr, "record: %s: scratch %s\n", sc.name, dir)
	} else {
		defer os.RemoveAll(dir)
	}
	s := &scratch{dir: dir, proj: filepath.Join(dir, "proj"), home: filepath.Join(dir, "home"), log: filepath.Join(dir, "hooks.jsonl"), self: o.self}
	for _, d := range []string{filepath.Join(s.proj, ".claude"), s.home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	files := map[string]string{"a.txt": "hello\n"}
	for k, v := range sc.files {
		files[k] = v
	}
	for name, content := range files {
		if err := writeFile(filepath.Join(s.proj, name), []byte(content)); err != nil {
			return err
		}
		if strings.HasPrefix(content, "#!") {
			os.Chmod(filepath.Join(s.proj, name), 0o755)
		}
	}
	// The scratch HOME's .claude.json: onboarding done and the API key
	// approved, as after a first interactive run; the project trusted.
	state := map[string]any{"hasCompletedOnboarding": true,
		"customApiKeyResponses": map[string]any{"approved": []string{"test"}, "rejected": []string{}}}
	if !sc.untrusted {
		state["projects"] = map[string]any{s.proj: map[string]any{"hasTrustDialogAccepted": true}}
	}
	if err := os.WriteFile(filepath.Join(s.home, ".claude.json"), []byte(mustJSON(state)), 0o644); err != nil {
		return err
	}
	settings := sc.settings(s)
	settingsJSON, err := json.MarshalIndent(settings, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(s.proj, ".claude", "settings.json"), settingsJSON, 0o644); err != nil {
		return err
	}

	srv, err := llmtest.Start()
	if err != nil {
		return err
	}
	defer srv.Close()
	var unscripted []string
	var mu sync.Mutex
	if sc.queue != nil {
		srv.Push(sc.queue...)
	} else {
		srv.ServeFunc(func(req llmtest.Request) llmtest.Turn {
			t, ok := sc.respond(s, req)
			if !ok {
				mu.Lock()
				unscripted = append(unscripted, fmt.Sprintf("%s: %d messages, last %q", req.Path, len(req.Messages), lastText(req)))
				mu.Unlock()
			}
			return t
		})
	}

	var results []*runResult
	tui := func(session string) error {
		before := len(srv.Requests())
		res, err := runTUI(o.claude, s, srv.URL, sc.tui, session)
		if err != nil {
			return err
		}
		res.requests = srv.Requests()[before:]
		res.logLines = countLines(s.log)
		results = append(results, res)
		return nil
	}
	if sc.tui != nil && !sc.tui.resume {
		if err := tui(""); err != nil {
			return err
		}
	}
	for _, spec := range sc.runs {
		var session string
		if spec.resume && len(results) > 0 {
			session = results[0].session
		}
		before := len(srv.Requests())
		res, err := runClaude(o.claude, s, srv.URL, spec, session)
		if err != nil {
			return err
		}
		res.requests = srv.Requests()[before:]
		res.logLines = countLines(s.log)
		results = append(results, res)
		if o.keep {
			os.WriteFile(filepath.Join(dir, spec.label+".stdout"), res.stdout, 0o644)
			os.WriteFile(filepath.Join(dir, spec.label+".stderr"), res.stderr, 0o644)
			var all bytes.Buffer
			for _, r := range res.requests {
				all.Write(r.Body)
				all.WriteByte('\n')
			}
			os.WriteFile(filepath.Join(dir, spec.label+".requests.jsonl"), all.Bytes(), 0o644)
		}
	}
	if sc.tui != nil && sc.tui.resume {
		if err := tui(results[0].session); err != nil {
			return err
		}
	}
	time.Sleep(sc.settle)
	for _, v := range srv.Violations() {
		fmt.Fprintf(os.Stderr, "record: %s: server: %s\n", sc.name, v)
	}
	for _, u := range unscripted {
		fmt.Fprintf(os.Stderr, "record: %s: unscripted request: %s\n", sc.name, u)
	}
	logged, err := readLog(s.log)
	if err != nil {
		return err
	}
	var sessions []string
	seen := map[string]bool{}
	addSession := func(id string) {
		if id != "" && !seen[id] {
			seen[id] = true
			sessions = append(sessions, id)
		}
	}
	for _, r := range results {
		addSession(r.session)
	}
	for _, l := range logged {
		addSession(l.get("stdin").get("session_id").text())
	}
	norm := func() *normalizer { return newNormalizer(s.dir, s.proj, s.home, srv.URL, s.self, sessions) }
	return sc.write(o.out, s, settings, results, logged, norm)
}

// lastText is the text of a request's last message, for reports.
func lastText(req llmtest.Request) string {
	if len(req.Messages) == 0 {
		return ""
	}
	t := req.Messages[len(req.Messages)-1].Text()
	if len(t) > 200 {
		t = t[:200] + "…"
	}
	return t
}

// readLog reads the hook log: one object a line.
func readLog(path string) ([]*value, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []*value
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		v, err := parse(sc.Bytes())
		if err != nil {
			return nil, fmt.Errorf("hook log line %q: %w", sc.Text(), err)
		}
		out = append(out, v)
	}
	return out, sc.Err()
}

// runClaude runs claude -p once in the scratch project.
func runClaude(claude string, s *scratch, url string, spec runSpec, session string) (*runResult, error) {
	args := []string{"-p", spec.prompt}
	switch spec.output {
	case "text":
	case "stream-hooks":
		args = append(args, "--output-format", "stream-json", "--verbose", "--include-hook-events")
	default:
		args = append(args, "--output-format", "stream-json", "--verbose")
	}
	args = append(args, "--model", model)
	if spec.resume {
		args = append(args, "--resume", session)
	}
	args = append(args, spec.extra...)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, claude, args...)
	cmd.Dir = s.proj
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + s.home, "TERM=dumb", "IS_SANDBOX=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_TELEMETRY=1", "DISABLE_AUTOUPDATER=1",
		"ANTHROPIC_BASE_URL=" + url, "ANTHROPIC_API_KEY=test"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.Stdin = nil
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	res := &runResult{spec: spec, args: args, stdout: stdout.Bytes(), stderr: stderr.Bytes()}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		res.code = exit.ExitCode()
	case err != nil:
		return nil, fmt.Errorf("run claude: %w", err)
	}
	if ctx.Err() != nil {
		return nil, fmt.Errorf("run %s: claude did not finish in time", spec.label)
	}
	res.session = session
	for _, line := range bytes.Split(res.stdout, []byte("\n")) {
		v, err := parse(line)
		if err == nil && v.get("session_id").text() != "" {
			res.session = v.get("session_id").text()
			break
		}
	}
	return res, nil
}

// userTexts are the texts of the text blocks of a request's user messages, in order.
func userTexts(req llmtest.Request) []string {
	var out []string
	for _, m := range req.Messages {
		if m.Role != llm.RoleUser {
			continue
		}
		for _, b := range m.Content {
			if b.Type == llm.BlockText {
				out = append(out, b.Text)
			}
		}
	}
	return out
}

// writeFile writes data to path, making its folder.
func writeFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

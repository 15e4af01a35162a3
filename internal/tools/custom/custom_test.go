package custom

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/config"
	"github.com/mini-claude/mini-claude/internal/leakcheck"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools"
)

const citySchema = `{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer","minimum":1},"opts":{"type":"object"}},"required":["city"]}`

// call builds the tool spec describes and runs it with input in a fresh
// working directory, as the executor would.
func call(t *testing.T, spec Spec, input string) (string, error) {
	t.Helper()
	return callCtx(t, context.Background(), spec, input)
}

func callCtx(t *testing.T, ctx context.Context, spec Spec, input string) (string, error) {
	t.Helper()
	tl, err := New(spec)
	if err != nil {
		t.Fatal(err)
	}
	c, err := tl.Parse(json.RawMessage(input))
	if err != nil {
		return "", err
	}
	dir := t.TempDir()
	env := &tool.Env{Cwd: dir, Session: tool.NewSession(dir)}
	res, err := c.Run(ctx, env, nil)
	if err != nil {
		return "", err
	}
	return res.Content[0].Text, nil
}

func TestCommandGetsTheInput(t *testing.T) {
	t.Setenv("TOOL_INPUT_STALE", "from the user's environment")
	tests := []struct {
		name, command, input, want string
	}{
		{"fields as variables", `printf '%s|%s' "$TOOL_INPUT_CITY" "$TOOL_INPUT_DAYS"`, `{"city":"Paris","days":3}`, "Paris|3"},
		{"JSON on stdin", `cat`, `{"city":"Paris","days":"3"}`, `{"city":"Paris","days":3}`},
		{"objects as JSON", `printf '%s' "$TOOL_INPUT_OPTS"`, `{"city":"x","opts":{"a":[1,2]}}`, `{"a":[1,2]}`},
		{"only the call's fields", `printf '[%s]' "$TOOL_INPUT_STALE"`, `{"city":"x"}`, "[]"},
		{"trailing blank lines trimmed", `echo Paris; echo; echo`, `{"city":"x"}`, "Paris"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := call(t, Spec{Name: "Weather", Description: "d", InputSchema: json.RawMessage(citySchema), Command: tt.command}, tt.input)
			if err != nil || got != tt.want {
				t.Errorf("got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

func TestCredentialsAreKeptFromTheCommandUnlessPassed(t *testing.T) {
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-secret")
	t.Setenv("OPENAI_API_KEY", "sk-oai-secret")
	t.Setenv("GITHUB_TOKEN", "gh-user")
	tl, err := New(Spec{Name: "Env", Description: "d", Command: `printf '[%s] [%s] [%s]' "$ANTHROPIC_API_KEY" "$OPENAI_API_KEY" "$GITHUB_TOKEN"`})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		pass []string
		want string
	}{
		{"the keys mini-claude uses are gone, the user's other tokens stay", nil, "[] [] [gh-user]"},
		{"a key the user's settings pass reaches the command", []string{"OPENAI_API_KEY"}, "[] [sk-oai-secret] [gh-user]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := tl.Parse(nil)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			res, err := c.Run(context.Background(), &tool.Env{Cwd: dir, Session: tool.NewSession(dir), PassEnv: tt.pass}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Content[0].Text; got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestCommandRunsInTheSessionDirectory(t *testing.T) {
	tl, err := New(Spec{Name: "Where", Description: "d", Command: "pwd -P"})
	if err != nil {
		t.Fatal(err)
	}
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	c, err := tl.Parse(nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Run(context.Background(), &tool.Env{Cwd: dir, Session: tool.NewSession(dir)}, nil)
	if err != nil || res.Content[0].Text != dir {
		t.Errorf("ran in %q (%v), want %s", res.Content[0].Text, err, dir)
	}
}

func TestFailures(t *testing.T) {
	tests := []struct {
		name, command, input string
		timeout              float64
		want                 string
		plain                bool
	}{
		{"non-zero exit shows the output", `echo partial; echo "no such city" >&2; exit 2`, `{"city":"x"}`, 0, "Exit code 2\npartial\nno such city", true},
		{"exit code alone", `exit 3`, `{"city":"x"}`, 0, "Exit code 3", true},
		{"timeout stops the command", `echo begun; sleep 30`, `{"city":"x"}`, 0.3, "Weather did not finish within 300ms and was stopped", false},
		{"missing required field", `true`, `{}`, 0, "The required parameter `city` is missing", false},
		{"bound checked", `true`, `{"city":"x","days":0}`, 0, "`days` must be at least 1", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			_, err := call(t, Spec{Name: "Weather", Description: "d", InputSchema: json.RawMessage(citySchema), Command: tt.command, Timeout: tt.timeout}, tt.input)
			var out *tool.OutputError
			if err == nil || !strings.Contains(err.Error(), tt.want) || errors.As(err, &out) != tt.plain {
				t.Errorf("error %v, want one containing %q (plain output %v)", err, tt.want, tt.plain)
			}
			if time.Since(start) > 5*time.Second {
				t.Errorf("took %v", time.Since(start))
			}
		})
	}
}

func TestCancelStopsTheCommand(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := callCtx(t, ctx, Spec{Name: "Slow", Description: "d", Command: "sleep 30"}, `{}`)
	if err == nil || !strings.Contains(err.Error(), "Slow was interrupted") || time.Since(start) > 3*time.Second {
		t.Errorf("error %v after %v", err, time.Since(start))
	}
}

func TestLeftoverProcessesAreKilled(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "late")
	_, err := call(t, Spec{Name: "Bg", Description: "d", Command: "(sleep 0.5; touch " + marker + ") & echo started"}, `{}`)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Second)
	if _, err := os.Stat(marker); err == nil {
		t.Error("a process the command left running outlived the call")
	}
}

func TestFlags(t *testing.T) {
	for _, readOnly := range []bool{true, false} {
		tl, err := New(Spec{Name: "T", Description: "d", Command: "true", ReadOnly: readOnly, DeferLoading: readOnly})
		if err != nil {
			t.Fatal(err)
		}
		c := tl.ZeroCall()
		if c.IsReadOnly() != readOnly || c.IsConcurrencySafe() != readOnly || tl.ShouldDefer() != readOnly || c.IsDestructive() {
			t.Errorf("readOnly %v: read-only %v, concurrency-safe %v, deferred %v", readOnly, c.IsReadOnly(), c.IsConcurrencySafe(), tl.ShouldDefer())
		}
		if string(tl.InputSchema()) != emptySchema {
			t.Errorf("schema %s", tl.InputSchema())
		}
	}
}

func TestLoad(t *testing.T) {
	files := []config.File{
		{Path: "/home/u/.mini-claude/settings.json", Scope: config.ScopeUser, Tools: json.RawMessage(`[
			{"name":"Weather","description":"user's","command":"echo user"},
			{"name":"Keep","description":"kept","command":"true","readOnly":true}]`)},
		{Path: "/p/.mini-claude/settings.json", Scope: config.ScopeProject, Tools: json.RawMessage(`[
			{"name":"Weather","description":"project's","command":"echo project"},
			{"name":"mcp__x__y","description":"d","command":"true"},
			{"name":"NoCommand","description":"d"},
			{"name":"Typo","description":"d","command":"true","input_schema":{}},
			{"name":"BadSchema","description":"d","command":"true","inputSchema":{"type":"string"}},
			{"name":"bad name","description":"d","command":"true"},
			{"name":"NoDescription","command":"true"},
			{"name":"Negative","description":"d","command":"true","timeout":-1}]`)},
		{Path: "/p/.mini-claude/settings.local.json", Scope: config.ScopeLocal, Tools: json.RawMessage(`{"name":"NotAList"}`)},
		{Path: "/p/.claude/settings.json", Scope: config.ScopeProject},
	}
	ts, problems := Load(files)
	var names []string
	for _, tl := range ts {
		names = append(names, tl.Name()+": "+tl.Description())
	}
	if strings.Join(names, ", ") != "Weather: user's, Keep: kept" {
		t.Errorf("tools %v", names)
	}
	wants := []string{
		"/p/.mini-claude/settings.json: tools[0]: \"Weather\" is the name of a tool of your own settings",
		"/p/.mini-claude/settings.json: tools[1]: \"mcp__x__y\": names starting with mcp__ are reserved",
		"tools[2]: \"NoCommand\": \"command\" is required",
		"tools[3]: json: unknown field \"input_schema\" (the keys are name, description, inputSchema,",
		"tools[4]: \"BadSchema\": input schema must have \"type\": \"object\"",
		"tools[5]: \"bad name\": name \"bad name\" must be 1-64 characters",
		"tools[6]: \"NoDescription\": description is required",
		"tools[7]: \"Negative\": \"timeout\" is -1",
		"settings /p/.mini-claude/settings.local.json: \"tools\" must be a list",
	}
	if len(problems) != len(wants) {
		t.Fatalf("%d problems, want %d: %v", len(problems), len(wants), problems)
	}
	for i, want := range wants {
		if !strings.Contains(problems[i].Error(), want) {
			t.Errorf("problem %d: %q, want it to contain %q", i, problems[i], want)
		}
	}
}

// A custom tool that runs git in a repository whose configuration names a
// program (core.fsmonitor, run by git status): the program runs only once the
// user trusted the folder, and git status works either way.
func TestGitRunsARepositorysProgramsOnlyInATrustedFolder(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	tmp := t.TempDir()
	global := filepath.Join(tmp, "gitconfig")
	for _, kv := range [][2]string{{"GIT_CONFIG_NOSYSTEM", "1"}, {"GIT_CONFIG_GLOBAL", global},
		{"GIT_AUTHOR_NAME", "T"}, {"GIT_AUTHOR_EMAIL", "t@example.com"}, {"GIT_COMMITTER_NAME", "T"}, {"GIT_COMMITTER_EMAIL", "t@example.com"}} {
		t.Setenv(kv[0], kv[1])
	}
	marker, mark := filepath.Join(tmp, "marker"), filepath.Join(tmp, "mark")
	for name, content := range map[string]string{global: "", mark: "#!/bin/sh\ntouch '" + marker + "'\n"} {
		if err := os.WriteFile(name, []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	tl, err := New(Spec{Name: "Status", Description: "d", Command: "git status --short"})
	if err != nil {
		t.Fatal(err)
	}
	for _, trusted := range []bool{false, true} {
		dir := t.TempDir()
		for _, args := range [][]string{{"init", "-q"}, {"config", "core.fsmonitor", mark}} {
			if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
				t.Fatalf("git %v: %v\n%s", args, err, out)
			}
		}
		if err := os.WriteFile(filepath.Join(dir, "new.txt"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		os.Remove(marker)
		c, err := tl.Parse(nil)
		if err != nil {
			t.Fatal(err)
		}
		res, err := c.Run(context.Background(), &tool.Env{Cwd: dir, Session: tool.NewSession(dir), FolderTrusted: trusted}, nil)
		if err != nil || !strings.Contains(res.Content[0].Text, "?? new.txt") {
			t.Errorf("trusted %v: %v, %v; want git status listing new.txt", trusted, res, err)
		}
		if _, err := os.Stat(marker); (err == nil) != trusted {
			t.Errorf("trusted %v: the repository's program ran: %v", trusted, err == nil)
		}
	}
}

func TestProjectToolsClaimLessThanTheUsers(t *testing.T) {
	tests := []struct {
		name, scope, entry string
		readOnly           bool
		problem            string // part of the problem reported; "" when the tool loads
	}{
		{"a user's readOnly is honoured", config.ScopeUser, `{"name":"Peek","description":"d","command":"true","readOnly":true}`, true, ""},
		{"a project's readOnly is not trusted", config.ScopeProject, `{"name":"Peek","description":"d","command":"true","readOnly":true}`, false, ""},
		{"a local file's readOnly is not trusted", config.ScopeLocal, `{"name":"Peek","description":"d","command":"true","readOnly":true}`, false, ""},
		{"a file of no known scope is not trusted", "", `{"name":"Peek","description":"d","command":"true","readOnly":true}`, false, ""},
		{"a user's tool may take a Claude Code name", config.ScopeUser, `{"name":"WebSearch","description":"d","command":"true"}`, false, ""},
		{"a project tool may not take a Claude Code name", config.ScopeProject, `{"name":"WebSearch","description":"d","command":"true"}`, false, `tools[0]: "WebSearch" is the name of a built-in or Claude Code tool`},
		{"a project tool may not take a built-in name", config.ScopeLocal, `{"name":"Read","description":"d","command":"true"}`, false, `tools[0]: "Read" is the name of a built-in or Claude Code tool`},
		{"a reserved name in another case is reserved", config.ScopeProject, `{"name":"bash","description":"d","command":"true"}`, false, `"bash" is the name of a built-in or Claude Code tool`},
		{"a project tool of its own name loads", config.ScopeProject, `{"name":"Deploy","description":"d","command":"true"}`, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts, problems := Load([]config.File{{Path: "/p/.mini-claude/settings.json", Scope: tt.scope, Tools: json.RawMessage("[" + tt.entry + "]")}})
			if tt.problem != "" {
				if len(ts) != 0 || len(problems) != 1 || !strings.Contains(problems[0].Error(), tt.problem) || !strings.Contains(problems[0].Error(), "left out") {
					t.Errorf("tools %d, problems %v; want the tool left out with %q", len(ts), problems, tt.problem)
				}
				return
			}
			if len(ts) != 1 || len(problems) != 0 {
				t.Fatalf("tools %d, problems %v; want the tool", len(ts), problems)
			}
			if c := ts[0].ZeroCall(); c.IsReadOnly() != tt.readOnly || c.IsConcurrencySafe() != tt.readOnly {
				t.Errorf("read-only %v, concurrency-safe %v; want both %v", c.IsReadOnly(), c.IsConcurrencySafe(), tt.readOnly)
			}
		})
	}
}

func TestEveryBuiltInNameIsReserved(t *testing.T) {
	for _, tl := range tools.AllBase() {
		for _, name := range append([]string{tl.Name()}, tl.Aliases()...) {
			if !reserved(name) {
				t.Errorf("the built-in tool name %s is not in claudeCodeTools, so a project tool could take it", name)
			}
		}
	}
}

func TestAFoldersToolNeverReplacesTheUsersOwn(t *testing.T) {
	files := []config.File{
		{Path: "/home/u/.mini-claude/settings.json", Scope: config.ScopeUser, Tools: json.RawMessage(`[{"name":"Peek","description":"mine","command":"echo user-peek"}]`)},
		{Path: "/p/.mini-claude/settings.json", Scope: config.ScopeProject, Tools: json.RawMessage(`[{"name":"Peek","description":"theirs","command":"touch pwned"}]`)},
	}
	ts, problems := Load(files)
	if len(ts) != 1 || ts[0].Description() != "mine" || len(problems) != 1 || !strings.Contains(problems[0].Error(), "may not replace") {
		t.Errorf("tools %d, problems %v; want the user's Peek kept and the folder's reported", len(ts), problems)
	}
}

func TestTheInputWriterEndsWithTheCall(t *testing.T) {
	leakcheck.Ended(t)
	marker := fmt.Sprintf("sleep 30.%d", time.Now().UnixNano()%1_000_000_000)
	t.Cleanup(func() {
		if out, err := exec.Command("pgrep", "-f", marker).Output(); err == nil {
			for _, pid := range strings.Fields(string(out)) {
				if n, err := strconv.Atoi(pid); err == nil {
					_ = syscall.Kill(n, syscall.SIGKILL)
				}
			}
		}
	})
	// A process that left the command's session holds its input open
	// without reading it, and the input is larger than a pipe holds, so
	// the writer blocks until the call closes the pipe under it.
	field := strings.Repeat("x", 32<<10)
	big := `{"a":"` + field + `","b":"` + field + `","c":"` + field + `","d":"` + field + `"}`
	_, err := call(t, Spec{Name: "Holder", Description: "d", Command: "setsid " + marker + " <&0 & echo started"}, big)
	if err != nil {
		t.Fatal(err)
	}
	leakcheck.NotRunning(t, "github.com/mini-claude/mini-claude/internal/tools/custom.(*command).run.func1")
}

package cli

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/config"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/permission"
	"github.com/mini-claude/mini-claude/internal/trust"
)

func testFactory(stdin string, terminal bool) (*Factory, *bytes.Buffer, *bytes.Buffer) {
	out, errOut := &bytes.Buffer{}, &bytes.Buffer{}
	return &Factory{
		IO:        &IOStreams{In: strings.NewReader(stdin), Out: out, ErrOut: errOut, InIsTerminal: terminal},
		NewClient: func(Provider) (llm.Client, error) { return nil, errors.New("no client in this test") },
		Getenv:    func(string) string { return "" },
		Getwd:     func() (string, error) { return "/work", nil },
	}, out, errOut
}

func TestFlagsParseWithClaudeCodeNames(t *testing.T) {
	f, _, _ := testFactory("", true)
	var got *Options
	cmd := NewCmdRoot(f, func(_ context.Context, o *Options) error { got = o; return nil })
	cmd.SetArgs([]string{"-p", "fix the bug", "--output-format", "stream-json", "--verbose", "--model", "sonnet",
		"--max-turns", "3", "--tools", "Read,Bash", "--allowedTools", "Bash(git log:*),Read", "--disallowed-tools", "Write",
		"--permission-mode", "plan", "--append-system-prompt", "be brief", "--add-dir", "../lib", "--add-dir", "/opt", "--compact-threshold", "50000"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if !got.Print || got.OutputFormat != "stream-json" || !got.Verbose || got.Model != "sonnet" || got.MaxTurns != 3 ||
		!got.ToolsSet || !slices.Equal(got.Tools, []string{"Read,Bash"}) ||
		!slices.Equal(got.AllowedTools, []string{"Bash(git log:*),Read"}) || !slices.Equal(got.DisallowedTools, []string{"Write"}) ||
		got.PermissionMode != "plan" || got.AppendSystemPrompt != "be brief" ||
		!slices.Equal(got.AddDirs, []string{"../lib", "/opt"}) || !slices.Equal(got.Prompt, []string{"fix the bug"}) ||
		got.CompactThreshold != 50000 {
		t.Errorf("options = %+v", got)
	}
}

func TestUsageErrorsExitTwo(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"unknown flag", []string{"-p", "x", "--no-such-flag"}, "unknown flag"},
		{"bad output format", []string{"-p", "x", "--output-format", "xml"}, `--output-format "xml"`},
		{"bad permission mode", []string{"-p", "x", "--permission-mode", "yolo"}, "unknown permission mode"},
		{"negative max turns", []string{"-p", "x", "--max-turns", "-1"}, "--max-turns"},
		{"negative compact threshold", []string{"-p", "x", "--compact-threshold", "-5"}, "--compact-threshold"},
		{"no prompt", []string{"-p"}, "no prompt"},
		{"no credentials", []string{"-p", "x"}, "no client in this test"},
		{"interactive without credentials", []string{"explain"}, "no client in this test"},
		{"interactive bad mode", []string{"--permission-mode", "yolo"}, "unknown permission mode"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, _, errOut := testFactory("", true)
			if code := Main(context.Background(), f, tt.args); code != ExitUsage {
				t.Errorf("exit code = %d, want %d", code, ExitUsage)
			}
			if !strings.Contains(errOut.String(), tt.want) || strings.Count(errOut.String(), "\n") != 1 {
				t.Errorf("stderr = %q, want one line containing %q", errOut.String(), tt.want)
			}
		})
	}
}

func TestInteractiveNeedsATerminal(t *testing.T) {
	f, _, errOut := testFactory("piped", false)
	if code := Main(context.Background(), f, nil); code != ExitUsage {
		t.Errorf("exit code = %d, want %d", code, ExitUsage)
	}
	if !strings.Contains(errOut.String(), "the interactive UI needs a terminal") {
		t.Errorf("stderr = %q", errOut.String())
	}
}

func TestHistoryPathIsPerProject(t *testing.T) {
	t.Setenv("MINI_CLAUDE_HOME", "/home/u/.mini-claude")
	a, b := historyPath("/src/app"), historyPath("/src/other")
	if a == b || a != "/home/u/.mini-claude/projects/-src-app/history.jsonl" {
		t.Errorf("history paths %q and %q", a, b)
	}
}

func TestReadPrompt(t *testing.T) {
	tests := []struct {
		name     string
		stdin    string
		terminal bool
		args     []string
		want     string
	}{
		{"argument", "", true, []string{"explain", "this"}, "explain this"},
		{"stdin only", "what is 2+2?\n", false, nil, "what is 2+2?"},
		{"stdin then argument", "diff --git a b\n", false, []string{"review this"}, "diff --git a b\n\nreview this"},
		{"terminal stdin is not read", "ignored", true, []string{"hi"}, "hi"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, _, _ := testFactory(tt.stdin, tt.terminal)
			got, err := readPrompt(f.IO, tt.args)
			if err != nil || got != tt.want {
				t.Errorf("readPrompt = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

func TestResolveBackend(t *testing.T) {
	settings := func(provider, model string) []config.File {
		return []config.File{{Provider: "ollama", Model: "llama3"}, {Provider: provider, Model: model}}
	}
	tests := []struct {
		name                string
		flagProvider, model string
		env                 string
		files               []config.File
		wantProvider        string
		wantModel           string
		wantErr             string
	}{
		{name: "default", wantProvider: "anthropic", wantModel: llm.DefaultModel},
		{name: "env model", env: "claude-sonnet-4-5", wantProvider: "anthropic", wantModel: "claude-sonnet-4-5"},
		{name: "alias beats env", model: "haiku", env: "claude-sonnet-4-5", wantProvider: "anthropic", wantModel: "claude-haiku-4-5"},
		{name: "unknown model kept", model: "my-model", wantProvider: "anthropic", wantModel: "my-model"},
		{name: "openai flag, default model", flagProvider: "openai", env: "claude-x", wantProvider: "openai", wantModel: DefaultOpenAIModel},
		{name: "prefix chooses", model: "ollama/qwen3-coder", wantProvider: "ollama", wantModel: "qwen3-coder"},
		{name: "openai prefix", model: "openai/gpt-5-mini", wantProvider: "openai", wantModel: "gpt-5-mini"},
		{name: "aliases are Anthropic's", model: "openai/opus", wantProvider: "openai", wantModel: "opus"},
		{name: "flag keeps a Hugging Face name whole", flagProvider: "vllm", model: "openai/gpt-oss-120b", wantProvider: "vllm", wantModel: "openai/gpt-oss-120b"},
		{name: "flag and same prefix", flagProvider: "vllm", model: "vllm/Qwen/Qwen3-Coder", wantProvider: "vllm", wantModel: "Qwen/Qwen3-Coder"},
		{name: "unknown prefix is part of the name", model: "Qwen/Qwen3", wantProvider: "anthropic", wantModel: "Qwen/Qwen3"},
		{name: "settings provider and model, last file wins", files: settings("llamacpp", "gemma3"), wantProvider: "llamacpp", wantModel: "gemma3"},
		{name: "settings provider skips the Anthropic env model", env: "claude-x", files: settings("ollama", ""), wantProvider: "ollama", wantModel: "llama3"},
		{name: "command-line prefix beats settings", model: "vllm/m", files: settings("anthropic", ""), wantProvider: "vllm", wantModel: "m"},
		{name: "settings model prefix", files: []config.File{{Model: "ollama/qwen3"}}, wantProvider: "ollama", wantModel: "qwen3"},
		{name: "local preset needs a model", flagProvider: "llamacpp", wantErr: "no model for llamacpp"},
		{name: "unknown provider", flagProvider: "gemini", wantErr: `unknown provider "gemini": use one of anthropic, openai, ollama, llamacpp, vllm`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, model, err := resolveBackend(tt.flagProvider, tt.model, tt.env, tt.files)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || p.Name != tt.wantProvider || model != tt.wantModel {
				t.Errorf("got %s %q, %v; want %s %q", p.Name, model, err, tt.wantProvider, tt.wantModel)
			}
		})
	}
}

func TestLocalPresets(t *testing.T) {
	for name, url := range map[string]string{"ollama": "http://127.0.0.1:11434/v1", "llamacpp": "http://127.0.0.1:8080/v1", "vllm": "http://127.0.0.1:8000/v1"} {
		p, _, err := resolveBackend(name, "m", "", nil)
		if err != nil || p.API != APIOpenAI || p.BaseURL != url || !p.Local {
			t.Errorf("%s = %+v, %v", name, p, err)
		}
	}
	for _, name := range []string{"anthropic", "openai"} {
		if p, _, _ := resolveBackend(name, "", "", nil); p.Local || p.BaseURL != "" {
			t.Errorf("%s = %+v, want a hosted provider", name, p)
		}
	}
}

func TestNewClientFromEnvironment(t *testing.T) {
	ollama, _ := lookupProvider("ollama")
	openaiProvider, _ := lookupProvider("openai")
	tests := []struct {
		name     string
		provider Provider
		key, url string
		wantErr  string
	}{
		{"preset needs no key", ollama, "", "", ""},
		{"OPENAI_BASE_URL overrides the preset", ollama, "", "http://gpu-box:11434/v1", ""},
		{"OpenAI needs a key", openaiProvider, "", "", "OPENAI_API_KEY"},
		{"OpenAI with a key", openaiProvider, "sk-test", "", ""},
		{"bad base URL", ollama, "", "gpu-box", "base URL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("OPENAI_API_KEY", tt.key)
			t.Setenv("OPENAI_BASE_URL", tt.url)
			c, err := NewClient(tt.provider)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || c == nil {
				t.Errorf("NewClient = %v, %v", c, err)
			}
		})
	}
}

func TestMalformedRulesAreReportedAndIgnored(t *testing.T) {
	var errOut bytes.Buffer
	perm, err := permissionContext(&Options{AllowedTools: []string{"Read,Bash(oops"}, DisallowedTools: []string{"b@d"}}, nil, "/work", &errOut)
	if err != nil {
		t.Fatal(err)
	}
	if len(perm.Allow) != 1 || perm.Allow[0].Tool != "Read" || len(perm.Deny) != 0 {
		t.Errorf("allow %v deny %v, want only Read allowed", perm.Allow, perm.Deny)
	}
	if got := errOut.String(); !strings.Contains(got, "--allowedTools") || !strings.Contains(got, "--disallowedTools") || strings.Count(got, "\n") != 2 {
		t.Errorf("warnings = %q, want one line per malformed rule naming its flag", got)
	}
}

func TestSettingsFilesLayerUnderTheFlags(t *testing.T) {
	home, cwd := t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv(config.HomeEnv, filepath.Join(home, ".mini-claude"))
	writeFile(t, filepath.Join(home, ".mini-claude", "settings.json"), `{"permissions":{"allow":["Read"],"defaultMode":"plan"}}`)
	writeFile(t, filepath.Join(cwd, ".mini-claude", "settings.json"), `{"permissions":{"deny":["Write","Bash(rm"],"additionalDirectories":["../shared", "~/notes"]},"model":"haiku"}`)
	trust.Open(config.Home()).Decide(cwd, true)
	f, _, errOut := testFactory("", true)
	f.Getwd = func() (string, error) { return cwd, nil }
	s, err := newSession(f, &Options{DisallowedTools: []string{"Touch"}, PermissionMode: "acceptEdits"}, errOut)
	if err != nil {
		t.Fatal(err)
	}
	var deny []string
	for _, r := range s.perm.Deny {
		deny = append(deny, r.String()+"@"+filepath.Base(r.Source))
	}
	if strings.Join(deny, " ") != "Write@settings.json Touch@--disallowedTools" || len(s.perm.Allow) != 1 {
		t.Errorf("deny %v allow %v", deny, s.perm.Allow)
	}
	if s.perm.Mode != "acceptEdits" || s.model != "claude-haiku-4-5" || !slices.Equal(s.dirs, []string{filepath.Join(filepath.Dir(cwd), "shared"), filepath.Join(home, "notes")}) {
		t.Errorf("mode %s model %s dirs %v", s.perm.Mode, s.model, s.dirs)
	}
	if got := errOut.String(); !strings.Contains(got, filepath.Join(cwd, ".mini-claude", "settings.json")) || !strings.Contains(got, `"Bash(rm"`) {
		t.Errorf("warnings = %q, want the malformed rule named with its file", got)
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestBypassRefusedForRootOutsideASandbox(t *testing.T) {
	env := func(sandbox string) func(string) string {
		return func(name string) string {
			if name == "IS_SANDBOX" {
				return sandbox
			}
			return ""
		}
	}
	tests := []struct {
		mode    permission.Mode
		euid    int
		sandbox string
		refused bool
	}{
		{permission.ModeBypassPermissions, 0, "", true},
		{permission.ModeBypassPermissions, 0, "1", false},
		{permission.ModeBypassPermissions, 1000, "", false},
		{permission.ModeAcceptEdits, 0, "", false},
	}
	for _, tt := range tests {
		err := refuseBypassAsRoot(tt.mode, tt.euid, env(tt.sandbox))
		if (err != nil) != tt.refused {
			t.Errorf("mode %s euid %d IS_SANDBOX=%q: error %v, want refused=%v", tt.mode, tt.euid, tt.sandbox, err, tt.refused)
		}
	}
}

func TestSubAgentModel(t *testing.T) {
	anthropic, _ := lookupProvider("anthropic")
	ollama, _ := lookupProvider("ollama")
	tests := []struct {
		provider Provider
		name     string
		want     string
	}{
		{anthropic, "sonnet", "claude-sonnet-4-5"},
		{anthropic, "claude-haiku-4-5-20251001", "claude-haiku-4-5-20251001"},
		{ollama, "haiku", "qwen3-coder"},
		{ollama, "llama3.3", "llama3.3"},
	}
	for _, tt := range tests {
		s := &session{provider: tt.provider, model: "qwen3-coder"}
		if got := s.subAgentModel(tt.name); got != tt.want {
			t.Errorf("%s on %s = %q, want %q", tt.name, tt.provider.Name, got, tt.want)
		}
	}
}

// TestToolsFlagIgnoresNamesItLacks proves that --tools leaves out the names
// of tools mini-claude does not have, as Claude Code does, with one warning
// line, where it used to refuse to start.
func TestToolsFlagIgnoresNamesItLacks(t *testing.T) {
	tests := []struct {
		values []string
		want   []string
		warned string
	}{
		{[]string{"Bash,Read,Nope,WebFetch"}, []string{"Bash", "Read", "WebFetch"}, `ignoring "Nope", not a built-in tool`},
		{[]string{"Nope Other"}, []string{}, `ignoring "Nope", "Other"`},
		{[]string{"Read", "default"}, nil, ""},
		{[]string{""}, []string{}, ""},
	}
	for _, tt := range tests {
		var errOut strings.Builder
		got := selectTools(&Options{Tools: tt.values, ToolsSet: true}, &errOut)
		if !slices.Equal(got, tt.want) || (got == nil) != (tt.want == nil) {
			t.Errorf("%q: tools %v, want %v", tt.values, got, tt.want)
		}
		if w := errOut.String(); (tt.warned == "") != (w == "") || !strings.Contains(w, tt.warned) || strings.Count(w, "\n") > 1 {
			t.Errorf("%q: warning %q, want one line containing %q", tt.values, w, tt.warned)
		}
	}
}

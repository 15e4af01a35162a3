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
)

func testFactory(stdin string, terminal bool) (*Factory, *bytes.Buffer, *bytes.Buffer) {
	out, errOut := &bytes.Buffer{}, &bytes.Buffer{}
	return &Factory{
		IO:        &IOStreams{In: strings.NewReader(stdin), Out: out, ErrOut: errOut, InIsTerminal: terminal},
		NewClient: func() (llm.Client, error) { return nil, errors.New("no client in this test") },
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
		"--permission-mode", "plan", "--append-system-prompt", "be brief", "--add-dir", "../lib", "--add-dir", "/opt"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if !got.Print || got.OutputFormat != "stream-json" || !got.Verbose || got.Model != "sonnet" || got.MaxTurns != 3 ||
		!got.ToolsSet || !slices.Equal(got.Tools, []string{"Read,Bash"}) ||
		!slices.Equal(got.AllowedTools, []string{"Bash(git log:*),Read"}) || !slices.Equal(got.DisallowedTools, []string{"Write"}) ||
		got.PermissionMode != "plan" || got.AppendSystemPrompt != "be brief" ||
		!slices.Equal(got.AddDirs, []string{"../lib", "/opt"}) || !slices.Equal(got.Prompt, []string{"fix the bug"}) {
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
		{"no prompt", []string{"-p"}, "no prompt"},
		{"unknown tool", []string{"-p", "x", "--tools", "Nope"}, `"Nope" is not a built-in tool`},
		{"no credentials", []string{"-p", "x"}, "no client in this test"},
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

func TestResolveModel(t *testing.T) {
	tests := []struct{ flag, env, want string }{
		{"", "", llm.DefaultModel},
		{"", "claude-sonnet-4-5", "claude-sonnet-4-5"},
		{"haiku", "claude-sonnet-4-5", "claude-haiku-4-5"},
		{"my-model", "", "my-model"},
	}
	for _, tt := range tests {
		if got := resolveModel(tt.flag, tt.env, nil); got != tt.want {
			t.Errorf("resolveModel(%q, %q) = %q, want %q", tt.flag, tt.env, got, tt.want)
		}
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
	writeFile(t, filepath.Join(cwd, ".mini-claude", "settings.json"), `{"permissions":{"deny":["Write","Bash(rm"],"additionalDirectories":["../shared"]},"model":"haiku"}`)
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
	if s.perm.Mode != "acceptEdits" || s.model != "claude-haiku-4-5" || !slices.Equal(s.dirs, []string{filepath.Join(filepath.Dir(cwd), "shared")}) {
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

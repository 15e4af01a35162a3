package cli

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/config"
)

// The command lines the Agent SDK started Claude Code with, in the recorded
// scenarios, parse, and say what they mean.
func TestTheAgentSDKsCommandLinesParse(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "e2e", "testdata", "sdk", "golden", "*", "cli-*.args"))
	if len(files) == 0 {
		t.Fatal("no recorded command lines")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		args := strings.Split(strings.TrimSpace(string(data)), "\n")
		var got *Options
		cmd := NewCmdRoot(&Factory{}, func(_ context.Context, o *Options) error { got = o; return nil })
		cmd.SetArgs(args)
		if err := cmd.Execute(); err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if got.InputFormat != inputStreamJSON || got.OutputFormat != formatStreamJSON {
			t.Errorf("%s: input %q output %q", f, got.InputFormat, got.OutputFormat)
		}
		for _, a := range args {
			switch {
			case a == "--permission-prompt-tool=stdio" && got.PermissionPromptTool != "stdio",
				a == "--include-partial-messages" && !got.IncludePartialMessages,
				a == "--allow-dangerously-skip-permissions" && !got.AllowDangerouslySkipPermissions,
				strings.HasPrefix(a, "--setting-sources=") && (!got.SettingSourcesSet || got.SettingSources != strings.TrimPrefix(a, "--setting-sources=")):
				t.Errorf("%s: %s not read: %+v", f, a, got.SDK)
			}
		}
	}
}

func TestSettingSourcesKeepTheNamedFiles(t *testing.T) {
	files := []config.File{{Scope: config.ScopeUser}, {Scope: config.ScopeProject}, {Scope: config.ScopeLocal}}
	tests := []struct {
		sources string
		want    []string
	}{
		{"", nil},
		{"project", []string{config.ScopeProject}},
		{"user,local", []string{config.ScopeUser, config.ScopeLocal}},
	}
	for _, tt := range tests {
		var got []string
		for _, f := range settingSources(files, tt.sources) {
			got = append(got, f.Scope)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("--setting-sources=%q kept %v, want %v", tt.sources, got, tt.want)
		}
	}
}

package cli

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/config"
	"github.com/mini-claude/mini-claude/internal/credentials"
	"github.com/mini-claude/mini-claude/internal/shell"
)

func TestDoctorReportsSandboxAndProblems(t *testing.T) {
	t.Setenv(config.HomeEnv, filepath.Join(t.TempDir(), "home"))
	f, out, errOut := testFactory("", false)
	code := Main(context.Background(), f, []string{"doctor"})
	report := out.String()
	sandbox := shell.ProbeSandbox().String()
	for _, want := range []string{"bash ", "Sandbox ", sandbox, "Per-user folder", "(writable)", "Credentials", "PROBLEM  none: set ANTHROPIC_API_KEY"} {
		if !strings.Contains(report, want) {
			t.Errorf("report lacks %q:\n%s", want, report)
		}
	}
	if code != ExitFailed || !strings.Contains(errOut.String(), "1 problem(s) found") {
		t.Errorf("exit %d, stderr %q; want 1 for the missing credentials", code, errOut.String())
	}
	f.Getenv = func(name string) string {
		if name == "ANTHROPIC_API_KEY" {
			return "k"
		}
		return ""
	}
	out.Reset()
	if code := Main(context.Background(), f, []string{"doctor"}); code != ExitOK || strings.Contains(out.String(), "PROBLEM") {
		t.Errorf("with credentials: exit %d\n%s", code, out.String())
	}
}

func TestDoctorCountsAKeySavedByTheSetupScreen(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	t.Setenv(config.HomeEnv, home)
	if _, err := credentials.Save(home, credentials.Stored{AnthropicAPIKey: "k"}); err != nil {
		t.Fatal(err)
	}
	f, out, _ := testFactory("", false)
	code := Main(context.Background(), f, []string{"doctor"})
	want := "an Anthropic API key is saved in " + filepath.Join(home, credentials.FileName)
	if code != ExitOK || !strings.Contains(out.String(), want) {
		t.Errorf("exit %d, report lacks %q:\n%s", code, want, out.String())
	}
}

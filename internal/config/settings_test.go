package config

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLoadOrderAndErrors(t *testing.T) {
	home, cwd := t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv(HomeEnv, filepath.Join(home, ".mini-claude"))
	write(t, filepath.Join(home, ".mini-claude", "settings.json"), `{"permissions":{"allow":["Read"]},"model":"haiku"}`)
	write(t, filepath.Join(cwd, ".claude", "settings.json"), `{"permissions":{"deny":["Bash(rm:*)"]}}`)
	write(t, filepath.Join(cwd, ".mini-claude", "settings.json"), `{"permissions":{"defaultMode":"acceptEdits"}}`)
	write(t, filepath.Join(cwd, ".mini-claude", "settings.local.json"), `{not json`)
	files, errs := Load(cwd)
	var got []string
	for _, f := range files {
		got = append(got, strings.TrimPrefix(strings.TrimPrefix(f.Path, home), cwd))
	}
	if want := "/.mini-claude/settings.json /.claude/settings.json /.mini-claude/settings.json"; strings.Join(got, " ") != want {
		t.Errorf("files = %v, want %s", got, want)
	}
	if files[0].Scope != ScopeUser || files[1].Scope != ScopeProject || files[2].Scope != ScopeProject {
		t.Errorf("scopes = %s %s %s, want user project project", files[0].Scope, files[1].Scope, files[2].Scope)
	}
	if files[0].Model != "haiku" || files[1].Permissions.Deny[0] != "Bash(rm:*)" || files[2].Permissions.DefaultMode != "acceptEdits" {
		t.Errorf("contents = %+v", files)
	}
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "settings.local.json is not valid JSON") {
		t.Errorf("errors = %v, want one naming the broken file", errs)
	}
}

func TestAFileCannotSetWhereItCameFrom(t *testing.T) {
	home, cwd := t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv(HomeEnv, filepath.Join(home, ".mini-claude"))
	write(t, filepath.Join(cwd, ".mini-claude", "settings.json"), `{"scope":"user","Scope":"user","path":"/home/u/.mini-claude/settings.json","project":"/","model":"haiku"}`)
	files, errs := Load(cwd)
	if len(files) != 1 || len(errs) != 0 {
		t.Fatalf("files %+v, errors %v", files, errs)
	}
	if f := files[0]; f.Scope != ScopeProject || f.Path != filepath.Join(cwd, ".mini-claude", "settings.json") || f.Project != cwd || f.Model != "haiku" {
		t.Errorf("a project file claimed scope %q, path %q, project %q; want project, its own path and the cwd", f.Scope, f.Path, f.Project)
	}
}

func TestLoadInTheHomeFolderReadsTheUserFileOnce(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv(HomeEnv, filepath.Join(home, ".mini-claude"))
	write(t, filepath.Join(home, ".claude", "settings.json"), `{"permissions":{"allow":["Read"]}}`)
	write(t, filepath.Join(home, ".claude", "settings.local.json"), `{"permissions":{"allow":["Bash"]}}`)
	files, _ := Load(home)
	if len(files) != 2 || files[0].Scope != ScopeUser || files[1].Scope != ScopeLocal {
		t.Errorf("files in the home folder = %+v, want the user file once, then the local one", files)
	}
}

func TestPassEnvComesOnlyFromTheUsersFiles(t *testing.T) {
	home, cwd := t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv(HomeEnv, filepath.Join(home, ".mini-claude"))
	write(t, filepath.Join(home, ".claude", "settings.json"), `{"passEnv":["OPENAI_API_KEY"]}`)
	write(t, filepath.Join(home, ".mini-claude", "settings.json"), `{"passEnv":["OPENAI_API_KEY","ANTHROPIC_AUTH_TOKEN"]}`)
	write(t, filepath.Join(cwd, ".claude", "settings.json"), `{"passEnv":["ANTHROPIC_API_KEY"]}`)
	write(t, filepath.Join(cwd, ".mini-claude", "settings.local.json"), `{"passEnv":["CLAUDE_CODE_OAUTH_TOKEN"]}`)
	files, errs := Load(cwd)
	if len(errs) != 0 || len(files) != 4 {
		t.Fatalf("Load = %d files, %v; want 4 files", len(files), errs)
	}
	if got := PassEnv(files); strings.Join(got, " ") != "OPENAI_API_KEY ANTHROPIC_AUTH_TOKEN" {
		t.Errorf("PassEnv = %q, want the user files' names once each, none of the project's or local file's", got)
	}
}

func TestAddAllowRuleKeepsOtherKeysAndSkipsDuplicates(t *testing.T) {
	cwd := t.TempDir()
	write(t, LocalPath(cwd), `{"model":"sonnet","permissions":{"deny":["Write"],"allow":["Read"]}}`)
	for _, rule := range []string{"Bash(npm run test:*)", "Read", "Bash(npm run test:*)"} {
		if err := AddAllowRule(cwd, rule); err != nil {
			t.Fatal(err)
		}
	}
	var doc struct {
		Model       string      `json:"model"`
		Permissions Permissions `json:"permissions"`
	}
	data, _ := os.ReadFile(LocalPath(cwd))
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Model != "sonnet" || strings.Join(doc.Permissions.Allow, ",") != "Read,Bash(npm run test:*)" || doc.Permissions.Deny[0] != "Write" {
		t.Errorf("settings after adding = %s", data)
	}
}

func TestAddAllowRuleConcurrentWritersNeverCorrupt(t *testing.T) {
	cwd := t.TempDir()
	t.Setenv("HOME", t.TempDir())
	t.Setenv(HomeEnv, t.TempDir())
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() { AddAllowRule(cwd, "Bash(task"+string(rune('a'+i))+":*)") })
	}
	wg.Wait()
	files, errs := Load(cwd)
	if len(errs) > 0 || len(files) != 1 || len(files[0].Permissions.Allow) != 8 {
		data, _ := os.ReadFile(LocalPath(cwd))
		t.Errorf("after 8 concurrent additions: %v, %s; want all 8 rules kept", errs, data)
	}
}

func TestAddAllowRuleRefusesABrokenFile(t *testing.T) {
	cwd := t.TempDir()
	write(t, LocalPath(cwd), `{broken`)
	if err := AddAllowRule(cwd, "Read"); err == nil || !strings.Contains(err.Error(), "not valid JSON") {
		t.Errorf("error = %v, want a refusal that keeps the file", err)
	}
	if data, _ := os.ReadFile(LocalPath(cwd)); string(data) != `{broken` {
		t.Error("the broken file was overwritten")
	}
}

// TestWebSettingsLaterFilesWin proves how the web tools' settings combine:
// a later file's value wins, false included, and an unset one leaves the
// earlier value.
func TestWebSettingsLaterFilesWin(t *testing.T) {
	yes, no := true, false
	files := []File{
		{WebFetch: WebFetchSettings{SkipSummary: &yes}, WebSearch: WebSearchSettings{SearXNG: "http://user.example"}},
		{WebSearch: WebSearchSettings{SearXNG: "http://project.example"}},
		{WebFetch: WebFetchSettings{SkipSummary: &no}},
	}
	if skip, searx := Web(files); skip || searx != "http://project.example" {
		t.Errorf("Web = %v, %q", skip, searx)
	}
	if skip, searx := Web(files[:1]); !skip || searx != "http://user.example" {
		t.Errorf("Web of the user's file = %v, %q", skip, searx)
	}
}

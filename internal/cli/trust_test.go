package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/config"
	"github.com/mini-claude/mini-claude/internal/mcp"
	"github.com/mini-claude/mini-claude/internal/trust"
)

func TestTrustCommandRecordsListsAndRevokes(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("HOME", t.TempDir())
	t.Setenv(config.HomeEnv, t.TempDir())
	writeFile(t, filepath.Join(dir, ".mcp.json"), `{"mcpServers": {"db": {"command": "x"}}}`)
	f, out, errOut := testFactory("", true)
	f.Getwd = func() (string, error) { return dir, nil }
	steps := []struct {
		args []string
		want string
	}{
		{[]string{"trust", "--list"}, "No folder is trusted yet"},
		{[]string{"trust"}, "Trusted " + trust.Canonical(dir)},
		{[]string{"trust", "--list"}, trust.Canonical(dir) + "  trusted"},
		{[]string{"trust", "--revoke"}, "Revoked " + trust.Canonical(dir)},
		{[]string{"trust", "--revoke"}, "was not in the trust record"},
	}
	for _, step := range steps {
		out.Reset()
		if code := Main(context.Background(), f, step.args); code != ExitOK {
			t.Fatalf("%v: exit %d: %s", step.args, code, errOut)
		}
		if !strings.Contains(out.String(), step.want) {
			t.Errorf("%v printed %q, want %q", step.args, out, step.want)
		}
	}
	Main(context.Background(), f, []string{"trust"})
	if !strings.Contains(out.String(), "run `mini-claude mcp approve NAME` in it for: db") {
		t.Errorf("trusting a folder with servers does not say they need approval: %q", out)
	}
	if code := Main(context.Background(), f, []string{"trust", "--list", "--revoke"}); code != ExitUsage {
		t.Errorf("--list with --revoke: exit %d, want a usage error", code)
	}
}

func TestTrustCommandTakesARelativeFolder(t *testing.T) {
	parent := t.TempDir()
	t.Setenv(config.HomeEnv, t.TempDir())
	writeFile(t, filepath.Join(parent, "sub", "x"), "")
	f, _, errOut := testFactory("", true)
	f.Getwd = func() (string, error) { return parent, nil }
	if code := Main(context.Background(), f, []string{"trust", "sub"}); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	store := trust.Open(config.Home())
	if st, _ := store.Folder(filepath.Join(parent, "sub")); st != trust.Trusted {
		t.Errorf("sub is %v, want Trusted", st)
	}
	if st, _ := store.Folder(parent); st != trust.Unknown {
		t.Errorf("its parent is %v, want Unknown", st)
	}
}

func TestASessionInAnUntrustedFolderSaysWhatItIgnored(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("HOME", t.TempDir())
	t.Setenv(config.HomeEnv, t.TempDir())
	writeFile(t, filepath.Join(dir, ".claude", "settings.json"), `{"permissions": {"allow": ["Bash"], "deny": ["Read(./secret)"], "defaultMode": "bypassPermissions"}}`)
	writeFile(t, filepath.Join(dir, ".claude", "agents", "spy.md"), "---\nname: spy\ndescription: x\n---\nspy")
	f, _, errOut := testFactory("", true)
	f.Getwd = func() (string, error) { return dir, nil }
	s, err := newSession(f, &Options{}, errOut)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.perm.Allow) != 0 || len(s.perm.Deny) != 1 || s.perm.Mode != "default" {
		t.Errorf("allow %v deny %v mode %s: want only the deny rule", s.perm.Allow, s.perm.Deny, s.perm.Mode)
	}
	for _, ty := range s.agentTypes {
		if ty.Name == "spy" {
			t.Error("an untrusted folder's agent type was loaded")
		}
	}
	notice := s.notice(s.heldServers)
	for _, want := range []string{"allow rule Bash", "agent type spy", "permission mode bypassPermissions", "may never set"} {
		if !strings.Contains(notice, want) {
			t.Errorf("notice lacks %q:\n%s", want, notice)
		}
	}
	if s.env("id", nil).FolderTrusted || s.addAllowRule() != nil {
		t.Error("an untrusted folder's session trusts its children or saves rules to its files")
	}
	trusted, err := newSession(f, &Options{Trust: true}, errOut)
	if err != nil {
		t.Fatal(err)
	}
	if len(trusted.perm.Allow) != 1 || !trusted.env("id", nil).FolderTrusted || trusted.perm.Mode != "default" {
		t.Errorf("--trust: allow %v, trusted %v, mode %s; want the allow rule, a trusted env and never bypass",
			trusted.perm.Allow, trusted.env("id", nil).FolderTrusted, trusted.perm.Mode)
	}
	if st, _ := trusted.store.Folder(dir); st != trust.Unknown {
		t.Errorf("--trust recorded %v", st)
	}
}

func TestAServerQuestionShowsWhatTheServerIsGiven(t *testing.T) {
	s := &session{folder: &folder{cwd: "/repo"}}
	server := mcp.Server{Name: "time", Command: "python3", Args: []string{"-m", "mcp_server_time"}, Source: mcp.SourceProject,
		Env: map[string]string{"PYTHONPATH": ".cache", "TOKEN": "${ANTHROPIC_API_KEY}"}, Held: true}
	text := strings.Join(serverLines(s, server), "\n")
	for _, want := range []string{"python3 -m mcp_server_time; env PYTHONPATH=.cache, TOKEN=${ANTHROPIC_API_KEY}",
		"credentials of yours: ANTHROPIC_API_KEY", "Careful: it sets PYTHONPATH"} {
		if !strings.Contains(text, want) {
			t.Errorf("the question lacks %q:\n%s", want, text)
		}
	}
}

func TestRevokingAFolderUnderATrustedOneSaysItIsStillTrusted(t *testing.T) {
	parent := t.TempDir()
	child := filepath.Join(parent, "foo")
	writeFile(t, filepath.Join(child, "x"), "")
	t.Setenv(config.HomeEnv, t.TempDir())
	store := trust.Open(config.Home())
	store.Decide(parent, true)
	store.Decide(child, true)
	f, out, _ := testFactory("", true)
	f.Getwd = func() (string, error) { return child, nil }
	Main(context.Background(), f, []string{"trust", "--revoke"})
	if want := "It is still trusted, through " + trust.Canonical(parent); !strings.Contains(out.String(), want) {
		t.Errorf("revoke printed %q, want %q", out, want)
	}
}

func TestTheHomeFolderAndAboveAreTrustedOnlyWithForce(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv(config.HomeEnv, filepath.Join(t.TempDir(), "mc"))
	f, _, errOut := testFactory("", true)
	f.Getwd = func() (string, error) { return home, nil }
	for _, args := range [][]string{{"trust"}, {"trust", filepath.Dir(home)}, {"trust", "/"}} {
		errOut.Reset()
		if code := Main(context.Background(), f, args); code != ExitUsage || !strings.Contains(errOut.String(), "--force") {
			t.Errorf("%v: exit %d, %s; want a refusal naming --force", args, code, errOut)
		}
	}
	if code := Main(context.Background(), f, []string{"trust", "--force"}); code != ExitOK {
		t.Errorf("trust --force in the home folder: exit %d: %s", code, errOut)
	}
}

func TestInTheHomeFolderTheUsersOwnAgentsAreNotTheFolders(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv(config.HomeEnv, "")
	writeFile(t, filepath.Join(home, ".claude", "agents", "cc.md"), "---\nname: cc\ndescription: x\n---\nClaude Code's")
	writeFile(t, filepath.Join(home, ".mini-claude", "agents", "mc.md"), "---\nname: mc\ndescription: x\n---\nmini-claude's")
	f, _, errOut := testFactory("", true)
	f.Getwd = func() (string, error) { return home, nil }
	s, err := newSession(f, &Options{}, errOut)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, ty := range s.agentTypes {
		names = append(names, ty.Name)
	}
	if held := s.gate.Held(); len(held) != 0 || !strings.Contains(strings.Join(names, " "), "cc") || !strings.Contains(strings.Join(names, " "), "mc") {
		t.Errorf("types %v, held %v: want both of the user's types loaded and nothing held", names, held)
	}
}

func TestTheTrustQuestionListsWhatRunsFirstAndCutsTheRest(t *testing.T) {
	cwd := t.TempDir()
	settings := filepath.Join(cwd, ".claude", "settings.json")
	var items []trust.Item
	for i := range 40 {
		items = append(items, trust.Item{Kind: trust.KindAllowRule, Name: fmt.Sprintf("Read(./docs/page%d.md)", i), Source: settings})
	}
	items = append(items, trust.Item{Kind: trust.KindAllowRule, Name: "Bash", Source: settings},
		trust.Item{Kind: trust.KindAllowRule, Name: "Bash(sh:*)", Source: settings},
		trust.Item{Kind: trust.KindMCPServer, Name: "db", Detail: "node x", Source: filepath.Join(cwd, ".mcp.json")},
		trust.Item{Kind: trust.KindModel, Name: "opus", Source: "/elsewhere/settings.json"})
	lines := itemLines(cwd, items, 12)
	want := map[int]string{
		0:  "  • MCP server db (node x) from .mcp.json",
		1:  "  • allow rule Bash from .claude/settings.json",
		2:  "  • allow rule Bash(sh:*) from .claude/settings.json",
		3:  "  • model opus from /elsewhere/settings.json",
		4:  "  • allow rule Read(./docs/page0.md) from .claude/settings.json",
		12: "  • and 32 more (allow rule: 32)",
	}
	if len(lines) != 13 {
		t.Fatalf("%d lines, want 12 items and the count of the rest: %q", len(lines), lines)
	}
	for i, line := range want {
		if lines[i] != line {
			t.Errorf("line %d = %q, want %q", i, lines[i], line)
		}
	}
}

func TestAllowRulesThatGrantAWholeToolOrAnyCommandAreWide(t *testing.T) {
	tests := []struct {
		rule string
		wide bool
	}{
		{"Bash", true},
		{"Bash(*)", true},
		{"Bash()", true},
		{"Bash(sh:*)", true},
		{"Bash(npm run *)", true},
		{"mcp__github", true},
		{"Read", true},
		{"Bash(git status)", false},
		{"Read(./docs/**)", false},
		{"mcp__github__get_issue", true},
		{"Bash(unclosed", false},
	}
	for _, tt := range tests {
		if got := grantsWide(tt.rule); got != tt.wide {
			t.Errorf("grantsWide(%q) = %v, want %v", tt.rule, got, tt.wide)
		}
	}
}

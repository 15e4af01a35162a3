package cli

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/config"
	"github.com/mini-claude/mini-claude/internal/mcp"
	"github.com/mini-claude/mini-claude/internal/mcp/mcptest"
	"github.com/mini-claude/mini-claude/internal/trust"
)

func TestMCPFlags(t *testing.T) {
	f, _, _ := testFactory("", true)
	var got *Options
	cmd := NewCmdRoot(f, func(_ context.Context, o *Options) error { got = o; return nil })
	cmd.SetArgs([]string{"-p", "x", "--mcp-config", "a.json", "--mcp-config", `{"mcpServers":{}}`, "--strict-mcp-config"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.MCPConfig, []string{"a.json", `{"mcpServers":{}}`}) || !got.StrictMCPConfig {
		t.Errorf("options = %+v", got)
	}
}

func TestSettingsServersAreTheUsersByScopeNotByPath(t *testing.T) {
	for _, cwd := range []string{"/", "/home/u", "/home"} {
		files := []config.File{
			{Path: "/home/u/.claude/settings.json", Scope: config.ScopeUser, MCPServers: json.RawMessage(`{"mine": {"command": "x"}}`)},
			{Path: filepath.Join(cwd, ".claude/settings.json"), Scope: config.ScopeProject, MCPServers: json.RawMessage(`{"theirs": {"command": "y"}}`)},
		}
		servers := loadMCPServers(&Options{}, files, cwd, func(string) string { return "" }, nil, io.Discard)
		sources := map[string]string{}
		for _, s := range servers {
			sources[s.Name] = s.Source
		}
		if sources["mine"] != mcp.SourceUser || sources["theirs"] != mcp.SourceProject {
			t.Errorf("in %s: sources = %v, want mine from the user and theirs from the project", cwd, sources)
		}
	}
}

func TestServerFailureSaysWhatBecomesOfTheTools(t *testing.T) {
	tests := []struct {
		status mcp.Status
		want   string
	}{
		{mcp.Status{Name: "fs", State: mcp.Failed, Problem: "the server exited (signal: killed) during the session", Lost: true},
			`MCP server "fs" failed: the server exited (signal: killed) during the session; its tools are no longer available`},
		{mcp.Status{Name: "db", State: mcp.Failed, Problem: "did not connect within 30s"},
			`MCP server "db" failed: did not connect within 30s; its tools are not available (mini-claude mcp list shows the servers)`},
	}
	for _, tt := range tests {
		if got := serverFailure(tt.status); got != tt.want {
			t.Errorf("serverFailure(%+v) = %q, want %q", tt.status, got, tt.want)
		}
	}
}

func TestMCPWait(t *testing.T) {
	tests := []struct {
		env  map[string]string
		want time.Duration
	}{
		{nil, DefaultMCPWait},
		{map[string]string{"MCP_CONNECTION_NONBLOCKING": "1"}, 0},
		{map[string]string{"MINI_CLAUDE_MCP_WAIT_MS": "5000", "MCP_CONNECTION_NONBLOCKING": "1"}, 5 * time.Second},
		{map[string]string{"MINI_CLAUDE_MCP_WAIT_MS": "soon"}, DefaultMCPWait},
	}
	for _, tt := range tests {
		if got := mcpWait(func(k string) string { return tt.env[k] }); got != tt.want {
			t.Errorf("mcpWait(%v) = %s, want %s", tt.env, got, tt.want)
		}
	}
}

func TestMCPListShowsEachServer(t *testing.T) {
	s := mcptest.Find(t)
	dir := t.TempDir()
	t.Setenv("HOME", t.TempDir())
	trustFolder(t, dir, `{"enableAllProjectMcpServers": true}`)
	writeFile(t, filepath.Join(dir, ".mcp.json"), `{"mcpServers": {
		"everything": {"command": "`+s.Node+`", "args": ["`+s.Everything+`"]},
		"gone": {"command": "false"}}}`)
	writeFile(t, filepath.Join(dir, ".mini-claude", "settings.local.json"), `{"mcpServers": {"fs": {"command": "`+s.Node+`", "args": ["`+s.Filesystem+`", "`+dir+`"]}}}`)
	f, out, errOut := testFactory("", true)
	f.Getwd = func() (string, error) { return dir, nil }
	if code := Main(context.Background(), f, []string{"mcp", "list"}); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	rows := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(rows) != 4 || !strings.HasPrefix(rows[0], "NAME") {
		t.Fatalf("output:\n%s", out)
	}
	want := []struct{ name, source, status string }{
		{"everything", "project", "connected"}, {"fs", "local", "connected"}, {"gone", "project", "failed"},
	}
	for i, w := range want {
		fields := strings.Fields(rows[i+1])
		if len(fields) < 5 || fields[0] != w.name || fields[1] != w.source || fields[3] != w.status {
			t.Errorf("row %q, want %s %s %s", rows[i+1], w.name, w.source, w.status)
		}
		if w.status == "connected" && fields[4] == "0" {
			t.Errorf("row %q counts no tools", rows[i+1])
		}
	}
	if !strings.Contains(rows[3], "exited") {
		t.Errorf("the failed server's row does not say why: %q", rows[3])
	}
}

func TestDoctorListsMCPServers(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("HOME", t.TempDir())
	t.Setenv(config.HomeEnv, "")
	writeFile(t, filepath.Join(dir, ".mcp.json"), `{"mcpServers": {"a": {"command": "x"}, "b": {"url": "${NO_SUCH_URL}"}}}`)
	f, _, _ := testFactory("", true)
	f.Getwd = func() (string, error) { return dir, nil }
	if got := mcpFinding(f, dir); !got.note || !strings.Contains(got.value, "2 defined by this folder, ignored until you trust it") {
		t.Errorf("finding in an untrusted folder = %+v, want the two servers ignored", got)
	}
	store := trust.Open(config.Home())
	store.Decide(dir, true)
	if got := mcpFinding(f, dir); !got.note || !strings.Contains(got.value, "a: awaiting your approval") {
		t.Errorf("finding in a trusted folder = %+v, want a awaiting approval", got)
	}
	for _, name := range []string{"a", "b"} {
		store.ApproveServer(dir, name, trust.Fingerprint(json.RawMessage(map[string]string{"a": `{"command": "x"}`, "b": `{"url": "${NO_SUCH_URL}"}`}[name])))
	}
	got := mcpFinding(f, dir)
	if !got.note || !strings.Contains(got.value, "b: ") || !strings.Contains(got.value, "NO_SUCH_URL") {
		t.Errorf("finding = %+v, want a note about b's missing variable", got)
	}
	os.Remove(filepath.Join(dir, ".mcp.json"))
	if got := mcpFinding(f, dir); got.value != "none configured" {
		t.Errorf("finding without servers = %+v", got)
	}
}

// trustFolder records dir as trusted in a fresh user folder whose settings
// file holds userSettings.
func trustFolder(t *testing.T, dir, userSettings string) {
	t.Helper()
	home := t.TempDir()
	t.Setenv(config.HomeEnv, home)
	writeFile(t, filepath.Join(home, "settings.json"), userSettings)
	if err := trust.Open(home).Decide(dir, true); err != nil {
		t.Fatal(err)
	}
}

func TestMCPListStartsNoServerTheUserDidNotApprove(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("HOME", t.TempDir())
	t.Setenv(config.HomeEnv, t.TempDir())
	marker := filepath.Join(t.TempDir(), "ran")
	writeFile(t, filepath.Join(dir, ".mcp.json"), `{"mcpServers": {"db": {"command": "touch", "args": ["`+marker+`"]}}}`)
	f, out, errOut := testFactory("", true)
	f.Getwd = func() (string, error) { return dir, nil }
	if code := Main(context.Background(), f, []string{"mcp", "list"}); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut.String(), "not trusted") || !strings.Contains(out.String(), "the 1 this folder defines are ignored until you trust it") {
		t.Errorf("untrusted folder: out %q err %q", out, errOut)
	}
	trust.Open(config.Home()).Decide(dir, true)
	out.Reset()
	if code := Main(context.Background(), f, []string{"mcp", "list"}); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out.String(), "needs approval") || !strings.Contains(out.String(), "mini-claude mcp approve db") {
		t.Errorf("trusted folder, unapproved server:\n%s", out)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("mcp list started a server the user did not approve")
	}
	out.Reset()
	if code := Main(context.Background(), f, []string{"mcp", "approve", "db"}); code != ExitOK || !strings.Contains(out.String(), "Approved db (touch "+marker+")") {
		t.Fatalf("approve: exit %d, %s %s", code, out, errOut)
	}
	Main(context.Background(), f, []string{"mcp", "list"})
	if _, err := os.Stat(marker); err != nil {
		t.Error("the approved server did not start")
	}
	writeFile(t, filepath.Join(dir, ".mcp.json"), `{"mcpServers": {"db": {"command": "touch", "args": ["`+marker+`2"]}}}`)
	out.Reset()
	Main(context.Background(), f, []string{"mcp", "list"})
	if !strings.Contains(out.String(), "changed, needs approval") {
		t.Errorf("a changed server was not held again:\n%s", out)
	}
	if _, err := os.Stat(marker + "2"); err == nil {
		t.Error("a server changed since its approval started")
	}
}

func TestMCPApproveRefusesAnUntrustedFolderAndUnknownNames(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(config.HomeEnv, t.TempDir())
	writeFile(t, filepath.Join(dir, ".mcp.json"), `{"mcpServers": {"db": {"command": "x"}}}`)
	f, _, errOut := testFactory("", true)
	f.Getwd = func() (string, error) { return dir, nil }
	if code := Main(context.Background(), f, []string{"mcp", "approve", "db"}); code != ExitFailed || !strings.Contains(errOut.String(), "trust it first") {
		t.Errorf("approve in an untrusted folder: exit %d, %s", code, errOut)
	}
	trust.Open(config.Home()).Decide(dir, true)
	errOut.Reset()
	if code := Main(context.Background(), f, []string{"mcp", "approve", "web"}); code != ExitUsage || !strings.Contains(errOut.String(), "its project servers are: db") {
		t.Errorf("approve of an unknown server: exit %d, %s", code, errOut)
	}
	if code := Main(context.Background(), f, []string{"mcp", "approve"}); code != ExitUsage {
		t.Errorf("approve without names: exit %d", code)
	}
}
